#!/usr/bin/env bash
# Session 11, call 12 (final main after the review: the caller-epilogue helper in the ws,
# stream-K and swap-steal launches, the steal tags without first/last flags): whole GPU suite,
# memcheck/racecheck on the swap-steal cases, the decode shape beside cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
echo "=== GPU suite $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -30
gzip -f $OUT/gpu_tests.log
for t in memcheck racecheck; do
  TCGEMM_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*Sm90SwapSteal.*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
$B/tcgemm profile --providers=tcgemm,cublas --m=16 --n=8192 --k=8192 --kernels='*bf16_16x64x64_s16_swapab*' --output=$OUT/profile_16x8192x8192.csv 2>&1 | tail -6
