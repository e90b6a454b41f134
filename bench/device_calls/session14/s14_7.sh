#!/usr/bin/env bash
# Session 14, call 7: final main candidate (the copies' 128-byte pitch, the aligned-chunk copy, the
# copies model refitted). Whole GPU suite; memcheck and racecheck on the copy; the row-class entry
# beside the copies at the shapes the refit moved; the cliffs and row-class suites through gemm().
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== GPU suite $(date +%T)"
timeout 300 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/gpu_tests.log | head -12
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -30
for t in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90RepackCopy.*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== by name $(date +%T)"
K='*bf16_128xN_ws_rowclass,*bf16_128xN_ws_repack_splitk'
for s in "512 1024 32769" "1024 1024 8193" "2048 512 16385" "768 768 8193"; do
  set -- $s
  timeout 90 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv 2>&1 | grep -E "^m=" | awk '{print $1,$2,$3,$7,$8,$9,$10,$NF}'
done
echo "=== cliffs $(date +%T)"
timeout 240 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$OUT/bench_cliffs.csv 2>&1 | tail -14
echo "=== rowclass suite $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/rowclass.txt --kernels=gemm --output=$OUT/bench_rowclass.csv 2>&1 | tail -14
echo "=== unaligned suite $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/unaligned.txt --kernels=gemm --output=$OUT/bench_unaligned.csv 2>&1 | tail -12
cd $OUT && head -1 p_512x1024x32769.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
gzip -f gpu_tests.log
