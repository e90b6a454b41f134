#!/usr/bin/env bash
# Session 14, call 5: the repack copy with aligned 16-byte loads and funnel shifts. The copy and
# repack suites, memcheck on the exact-copy test, the copies timed by parts (TCGEMM_BENCH=1), then
# gemm() at the misaligned shapes beside cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== repack suites $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Repack*:*Cliffs*:*repack*:*Strips*:*RowClass*' > $OUT/repack_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|Failure' $OUT/repack_tests.log | head -20
echo "=== memcheck $(date +%T)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90RepackCopy.*' > $OUT/san_memcheck.log 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/san_memcheck.log | head -3
echo "=== parts $(date +%T)"
TCGEMM_BENCH=1 timeout 120 $B/tcgemm_gpu_tests --gtest_filter='Sm90CliffsBench.SmallRepackParts' > $OUT/parts.log 2>&1; echo rc=$?
grep -E "whole|copies" $OUT/parts.log | head -20
echo "=== profiles $(date +%T)"
for s in 333x777x4099 1000x1000x1001 1000x1000x4097 1024x1024x8193 768x768x8193 2048x512x16385 64x28672x8193 4095x4095x4095 4097x4097x4097; do
  IFS=x read m n k <<< "$s"
  timeout 90 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --output=$OUT/p_$s.csv 2>&1 | grep -E "^m=" | awk '{print $1,$2,$3,$7,$8,$9,$10,$NF}'
done
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
gzip -f repack_tests.log
