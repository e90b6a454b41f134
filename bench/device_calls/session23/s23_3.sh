#!/usr/bin/env bash
# Session 23 call 3: the skinny kernel's loads as whole 128-byte pieces (eight lanes a vector, 64-k
# load steps, 4 in flight, a bank swizzle; run 186's four lanes of 16 bytes a vector streamed at
# ~2.5 TB/s with DRAM half busy). The same checks and benches as call 2; summary last.
source "$(dirname "$0")/s23_2.sh"
