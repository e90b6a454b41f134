#!/usr/bin/env bash
# Session 13, call 9: final main with gemm()'s row-class gate at 5% (0.9 / 1.0 us k-blocks): whole GPU
# suite; the row-class entry by name beside the repack path at the mid-size long-K shapes the gate
# refuses (is the refusal right?); the row-class suite through gemm().
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
echo "=== GPU suite $(date +%T)"
timeout 240 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/gpu_tests.log | head -8
echo "=== refusals $(date +%T)"
for s in "1024 1024 8193 2" "2048 512 16385 4" "768 768 8193 3" "1000 1000 4097 2"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels='*bf16_128xN_ws_repack_splitk' --output=$OUT/p_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm|cublas" | grep -v "^Problem" | awk '{print $1,$2,$3,$5,$6,$(NF-4),$(NF-3),$NF}'
  timeout 60 $B/tcgemm profile --providers=tcgemm --m=$1 --n=$2 --k=$3 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=1,$4 --output=$OUT/r_${1}x${2}x${3}.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem" | awk '{print $1,$2,$3,$7,$(NF-4),$(NF-3)}'
done
echo "=== rowclass suite $(date +%T)"
timeout 200 $B/tcgemm bench --suite=bench/suites/rowclass.txt --kernels=gemm --output=$OUT/bench_rowclass.csv 2>&1 | tail -14
cd $OUT && head -1 $(ls p_*.csv | head -1) > profiles.csv && for f in p_*.csv r_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv r_*.csv
gzip -f gpu_tests.log
