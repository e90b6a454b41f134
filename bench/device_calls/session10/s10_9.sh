#!/usr/bin/env bash
# Session 10, call 9 (final main): the whole GPU suite after the fix to run 101's crash (the small-M
# swap test called the plan hooks of the new by-name swapped widths, which take M > 128 only now).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
timeout 260 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/gpu_tests.log | head -40
grep -E '^\[==========\]' $OUT/gpu_tests.log
gzip -f $OUT/gpu_tests.log
