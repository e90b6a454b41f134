#!/usr/bin/env bash
# Session 11, call 13 (after the review: one trace layout, common/cta_trace.cuh, for the ws and
# swap-steal kernels; the steal plan's knobs read once): the trace and swap-steal tests, racecheck
# on the steal cases, the decode trace, and the ws/swap GPU suites.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SwapSteal*:*WsTrace*:*SwapAB*:*Sm90Wgmma*:*SplitK*:*StreamK*' > $OUT/tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/tests.log | head
TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90SwapSteal.*' > $OUT/san.log 2>&1
echo "racecheck rc=$?"; grep -E 'RACECHECK SUMMARY|PASSED' $OUT/san.log | head -2
TCGEMM_TRACE_SHAPES=16x8192x8192 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace|FAILED' | head -10
