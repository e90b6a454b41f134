#!/usr/bin/env bash
# Session 12, call 6: the row-class path as kept (call 3's loader: warp 0 lands the boxes, warps 1-3
# shift them in batches of 8 steps; gemm() takes it only where its model beats the copies by 20%).
# Whole GPU suite, sanitizers on the row-class cases, the entry beside the repack path and cuBLAS
# and gemm()'s pick, the cliffs suite through gemm().
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== GPU suite $(date +%T)"
timeout 240 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -30
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='Small/Sm90RowClasses.*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== profiles $(date +%T)"
K='*bf16_128xN_ws_rowclass,*bf16_128xN_ws_repack_splitk'
for s in "333 777 4099" "1000 1000 1001" "256 256 65537" "512 1024 32769" "128 8192 28673" "64 8192 8193"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm|cublas" | grep -v "^Problem"
  timeout 60 $B/tcgemm profile --providers=tcgemm --m=$1 --n=$2 --k=$3 --output=$OUT/g_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm" | grep -v "^Problem" | sed 's/^/gemm(): /'
done
echo "=== cliffs $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$OUT/bench_cliffs.csv 2>&1 | tail -14
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv g_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv g_*.csv
tar czf logs.tgz *.log && rm -f *.log
