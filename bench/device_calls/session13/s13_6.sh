#!/usr/bin/env bash
# Session 13, calls 6-7 (diagnosis builds with TCGEMM_ROWCLASS_DEBUG, not kept): what bounds the
# kept realign's ~0.85 us k-block. Call 6 (D="0 1 2"), 1: the realign warps skip their loads and
# stores (wait and arrive only); 2: warp 0 lands only classes 0-3's boxes (half the boxes). Call 7
# (D="3 0"): the boxes 8 k-blocks ahead prefetched into L2, 3 turns that off. Unverified by design.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
if [ -n "${TESTS:-}" ]; then
  timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*RowClass*' 2>&1 | grep -E '^\[  FAILED|^\[  PASSED' | head -5
fi
K='*bf16_128xN_ws_rowclass'
for d in ${D:-0 1 2}; do
  echo "=== debug $d"
  for s in "128 8192 28673 0" "64 8192 8193 0" "333 777 4099 3" "256 256 65537 32" "333 777 4099 1"; do
    set -- $s
    sk=""; [ $4 != 0 ] && sk="--split_k_slices=$4"
    TCGEMM_ROWCLASS_DEBUG=$d timeout 60 $B/tcgemm profile --providers=tcgemm --m=$1 --n=$2 --k=$3 --kernels="$K" $sk --verification-enabled=false \
      --output=$OUT/p_${d}_${1}x${2}x${3}_$4.csv 2>&1 | grep -E "rowclass" | grep -v "^Problem" | awk '{print $1,$2,$3,$(NF-4),$(NF-3)}'
  done
  TCGEMM_ROWCLASS_DEBUG=$d TCGEMM_TRACE_TIGHT=1 TCGEMM_TRACE_SHAPES=64x8192x8193 timeout 60 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace' | grep -E "first stage|last stage full"
done
cd $OUT && head -1 $(ls p_*.csv | head -1) > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
