#!/usr/bin/env bash
# Session 12, call 5: the realign with every class's loads issued before any is used (call 4's
# class-at-a-time version ran ~2.3 us a k-block). Row-class tests and sanitizers, the entry beside
# the repack path and cuBLAS, then where a k-block's time goes: TCGEMM_ROWCLASS_DEBUG=1 (no shifts),
# 2 (one map for every class), 3 (both), unverified, and traces of gemm() on tight (misaligned) ld's.
# (TCGEMM_ROWCLASS_DEBUG was a diagnosis switch of that build only; it was removed after this call.)
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
echo "=== tests $(date +%T)"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*RowClass*' > $OUT/tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/tests.log | head -8
TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='Small/Sm90RowClasses.*bf16*' > $OUT/san_racecheck.log 2>&1
echo "racecheck rc=$?"; grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_racecheck.log | head -3
echo "=== profiles $(date +%T)"
K='*bf16_128xN_ws_rowclass,*bf16_128xN_ws_repack_splitk'
for s in "333 777 4099" "1000 1000 1001" "128 8192 28673"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/profile_${1}x${2}x${3}.csv 2>&1 | tail -3
done
for d in 1 2 3; do
  for s in "333 777 4099" "128 8192 28673"; do
    set -- $s
    TCGEMM_ROWCLASS_DEBUG=$d timeout 60 $B/tcgemm profile --providers=tcgemm --verification-enabled=false --m=$1 --n=$2 --k=$3 \
      --kernels='*bf16_128xN_ws_rowclass' --output=$OUT/debug${d}_${1}x${2}x${3}.csv 2>&1 | tail -1 | sed "s/^/debug=$d /"
  done
done
echo "=== trace $(date +%T)"
TCGEMM_TRACE_TIGHT=1 TCGEMM_TRACE_SHAPES=333x777x4099,128x8192x28673 timeout 60 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace|FAILED' | head -20
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
