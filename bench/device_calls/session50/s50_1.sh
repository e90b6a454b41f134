#!/usr/bin/env bash
# Run 276 (session 50): stages of two k-blocks in the ws kernel (branch exp/stage2). Run 275's TMA-alone
# probe took 372 cycles a one-k-block stage of the 64x64 tile and 237-242 a k-block with two; the GEMM
# streams 416. 1. The new tiles' GPU tests and sanitizers. 2. Per-CTA traces of 64x64 s14 / 64x64x128 s7 and
# 128x64 s9 / 128x64x128 s4 x4 at 256x512x16384. 3. By name, old and new tile side by side with cuBLAS, two
# passes: 256x512x16384 (x4, x6), 256x256x65536 (x16, x25), 512x1024x32768 (x4, x8). 4. Whole suite.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz --exclude='*.ncu-rep' .; }
run_tests '*Sm90WideStage*' 150
TCGEMM_TEST_SMALL=1 run_sanitizers 'Sm90WideStageSmall*' $W 60
save
tr() {  # tr KERNEL SPLITS: the trace's stage span and clock at 256x512x16384
  TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=$2 TCGEMM_TRACE_KERNEL=$1 TCGEMM_RESULTS_DIR=$W \
    timeout 60 $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$1_x$2.txt 2>&1
  echo "== trace $1 x$2 rc=$?"; grep "\[trace\]" $W/trace_$1_x$2.txt | grep -E "first -> last|MHz"
}
for e in sm90_wgmma_bf16_64x64x64_s14_ws_splitk sm90_wgmma_bf16_64x64x128_s7_ws_splitk \
         sm90_wgmma_bf16_128x64x64_s9_ws_splitk sm90_wgmma_bf16_128x64x128_s4_ws_splitk; do tr $e 4; done
save
prof() {  # prof TAG M N K SPLITS KERNELS
  timeout 90 $B/tcgemm profile --m=$2 --n=$3 --k=$4 --split_k_slices=$5 --kernels="$6" --providers=tcgemm,cublas \
    --output=$W/prof_$1.csv > $W/prof_$1.txt 2>&1; echo "prof $1 rc=$? t=$SECONDS"
  grep -E "^m=" $W/prof_$1.txt | awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^split_k_slices=/) s = $i; print s, $(NF-5), $(NF-3), $NF}'
}
K64='*bf16_64x64x64_s14_ws_splitk,*bf16_64x64x128_s7_ws_splitk,*bf16_128x64x64_s9_ws_splitk,*bf16_128x64x128_s4_ws_splitk'
K128='*bf16_128x128x64_s7_ws_splitk,*bf16_128x128x128_s3_ws_splitk,*bf16_128x64x64_s9_ws_splitk,*bf16_128x64x128_s4_ws_splitk'
for pass in 1 2; do
  prof s256x512_$pass 256 512 16384 4,6 "$K64"
  prof s256x256_$pass 256 256 65536 16,25 "$K128"
  prof s512x1024_$pass 512 1024 32768 4,8 "$K128"
  save
done
run_suite_if_time 330
save
echo "done t=$SECONDS"
