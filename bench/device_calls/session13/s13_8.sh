#!/usr/bin/env bash
# Session 13, call 8: final main (the 4-byte-load realign, call 3's loader; gemm()'s gate on a 0.9 us
# k-block). Whole GPU suite, sanitizers on the row-class cases, the entry beside the repack path,
# cuBLAS and gemm()'s pick, the row-class split sweep at 512x1024x32769, the cliffs and
# row-class suites through gemm().
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
for s in "333 777 4099" "1000 1000 1001" "256 256 65537" "512 1024 32769" "128 8192 28673" "64 8192 8193" "16 8192 8193"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm|cublas" | grep -v "^Problem"
  timeout 60 $B/tcgemm profile --providers=tcgemm --m=$1 --n=$2 --k=$3 --output=$OUT/g_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm" | grep -v "^Problem" | sed 's/^/gemm(): /'
done
timeout 60 $B/tcgemm profile --providers=tcgemm --m=512 --n=1024 --k=32769 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=2,4 --output=$OUT/p_512_splits.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem"
echo "=== rowclass suite $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/rowclass.txt --kernels=gemm --output=$OUT/bench_rowclass.csv 2>&1 | tail -14
echo "=== cliffs $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$OUT/bench_cliffs.csv 2>&1 | tail -14
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv g_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv g_*.csv
tar czf logs.tgz *.log && rm -f *.log
