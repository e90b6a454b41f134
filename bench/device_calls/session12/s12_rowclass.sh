#!/usr/bin/env bash
# Session 12, calls 1-4: the row-class path (run with each call's binary; call 1 also swept split 8 and
# left its logs untarred): its GPU tests and the suites whose code it touched, sanitizers on its small
# cases, the row-class entry beside the repack path and cuBLAS on misaligned shapes, a trace of gemm().
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
echo "=== tests $(date +%T)"
timeout 240 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*RowClass*:*ThreadLoads*:*SplitK*:*Sm90Wgmma*:*DirectStore*:*Cliffs*:*PickCache*:*Repack*' > $OUT/tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/tests.log | head -20
grep -B2 -A12 -m3 'Failure' $OUT/tests.log | head -40
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='Small/Sm90RowClasses.*bf16*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== profiles $(date +%T)"
K='*bf16_128xN_ws_rowclass,*bf16_128xN_ws_repack_splitk'
for s in "333 777 4099" "1000 1000 1001" "256 256 65537" "512 1024 32769" "128 8192 28673"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/profile_${1}x${2}x${3}.csv 2>&1 | tail -4
done
timeout 60 $B/tcgemm profile --providers=tcgemm --m=333 --n=777 --k=4099 --kernels='*bf16_128xN_ws_rowclass' --split_k_slices=1,2,3,4,6 --output=$OUT/profile_333_splits.csv 2>&1 | tail -8
echo "=== trace $(date +%T)"
TCGEMM_TRACE_SHAPES=333x777x4099,1000x1000x1001 timeout 60 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace|FAILED' | head -20
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
