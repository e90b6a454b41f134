#!/usr/bin/env bash
# Session 30 call 4 (run 219): run 218's trace put one 128x64 s9 grid at ~38 us on the SMs where
# the event loop times 49-51 us. Beside each timed window's per-launch event median, the warm-up's
# last batch (one event pair around hundreds of launches, none between): is the gap between
# launches ours (it would cost us in both) or the events' (cuBLAS and ours alike)?
source "$(dirname "$0")/../session17/common.sh"
for shp in 128x8192x8192 1024x1024x8192 128x4096x4096 16x8192x8192 64x4096x4096 4096x4096x4096 256x256x65536; do
  IFS=x read m n k <<< "$shp"
  K=gemm; [ $m = 128 ] || [ $m = 1024 ] && K=sm90_wgmma_bf16_128x64x64_s9_ws,sm90_wgmma_bf16_128xN_ws_splitk
  for pass in 1 2; do
    [ $SECONDS -gt 300 ] && { echo "skip $shp t=$SECONDS"; break; }
    if [ $K = gemm ]; then KA=""; else KA="--kernels=$K"; fi
    TCGEMM_DIAG_HOST_TIMING=1 timeout 60 $B/tcgemm profile --m=$m --n=$n --k=$k $KA \
      --warmup-iterations=20 --profiling-iterations=60 --profiling-rounds=2 > $W/prof_${shp}_$pass.txt 2> $W/host_${shp}_$pass.txt
    echo "== $shp pass $pass rc=$?"
    grep -E "host-timing" $W/host_${shp}_$pass.txt | sed 's/sm90_wgmma_bf16_//; s/without events between launches/no events between/' | awk '{print "   ", $0}'
  done
done
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
