#!/usr/bin/env bash
# Session 22 call 2: the skinny kernel rebuilt on a per-thread cp.async ring (6 steps in flight,
# realigned from shared memory; call 1's register version lost to the previous picks at 11 of 25
# shapes). The same checks and benches as call 1.
source "$(dirname "$0")/s22_1.sh"
