#!/usr/bin/env bash
# Session 13, calls 1, 3-5, 10 and 11 (the same script each time, on that call's binaries): the row-class
# realign as 4-byte loads and funnel shifts, each lane's addresses and shift fixed for the kernel
# (call 1); raw boxes unswizzled and batches of 8 steps (call 3, kept); 7 realigning warps (call 4,
# not kept); waits that suspend (call 5, not kept); boxes and raw stages of two k-blocks (call 10,
# not kept); an in-place realign (call 11, not kept: racecheck hazards). Row-class tests and sanitizers, the entry by name
# beside the repack path and cuBLAS at eight misaligned shapes, forced split sweeps, traces on tight ld's.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
echo "=== tests $(date +%T)"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*RowClass*' > $OUT/tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/tests.log | head -8
grep -B2 -A10 -m2 'Failure' $OUT/tests.log | head -24
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='Small/Sm90RowClasses.*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== profiles $(date +%T)"
K='*bf16_128xN_ws_rowclass,*bf16_128xN_ws_repack_splitk'
for s in "333 777 4099" "1000 1000 1001" "256 256 65537" "512 1024 32769" "128 8192 28673" "64 8192 8193" "16 8192 8193" "4097 4097 4097"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv 2>&1 | grep -E "tcgemm|cublas" | grep -v "^Problem"
done
timeout 60 $B/tcgemm profile --providers=tcgemm --m=333 --n=777 --k=4099 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=1,2,3,4,6 --output=$OUT/p_333_splits.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem"
timeout 60 $B/tcgemm profile --providers=tcgemm --m=1000 --n=1000 --k=1001 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=1,2,3 --output=$OUT/p_1000_splits.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem"
timeout 60 $B/tcgemm profile --providers=tcgemm --m=256 --n=256 --k=65537 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=16,32 --output=$OUT/p_256_splits.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem"
echo "=== trace $(date +%T)"
TCGEMM_TRACE_TIGHT=1 TCGEMM_TRACE_SHAPES=128x8192x28673,64x8192x8193,333x777x4099 timeout 60 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace|FAILED' | head -30
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
tar czf logs.tgz *.log && rm -f *.log
