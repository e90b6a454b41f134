#!/usr/bin/env bash
# Session 10, call 8: find the test that crashed the whole suite in run 101 (non-brief output).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
timeout 200 $B/tcgemm_gpu_tests > $OUT/gpu_tests_full.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests_full.log | head -10
grep -E '^\[ RUN' $OUT/gpu_tests_full.log | tail -3
tail -25 $OUT/gpu_tests_full.log | cut -c1-200
gzip -f $OUT/gpu_tests_full.log
