#!/usr/bin/env bash
# Session 30 call 8 (run 223): the whole GPU suite on the final form (multicast loads hinted on the
# 128x128 and 128x256 tiles only, run 222).
source "$(dirname "$0")/../session17/common.sh"
run_suite
grep -E "Multicast" $W/gpu_tests.log | grep -E "FAILED" | head -5
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
