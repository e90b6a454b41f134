#!/usr/bin/env bash
# Session 30 call 3 (run 218): run 217's ncu put our 128x64 s9 tile at 40.4 us on 128x8192x8192
# (cuBLAS 38.5) where the event loop times it at 51.3 (cuBLAS 41.5). Where do the 11 us go? The
# host's enqueue time per launch beside the events (TCGEMM_DIAG_HOST_TIMING=1), PDL on and off
# (TCGEMM_DIAG_NO_PDL=1), and a per-CTA timeline of one traced launch between 40 (Sm90WsTrace).
source "$(dirname "$0")/../session17/common.sh"
K=sm90_wgmma_bf16_128x64x64_s9_ws,sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1,sm90_wgmma_bf16_128xN_ws_splitk,sm90_wgmma_bf16_64x64x64_s14_narrow
for shp in 128x8192x8192 1024x1024x8192 128x4096x4096; do
  IFS=x read m n k <<< "$shp"
  for pdl in 0 1 0 1; do
    [ $SECONDS -gt 300 ] && { echo "skip $shp t=$SECONDS"; break; }
    TCGEMM_DIAG_NO_PDL=$pdl TCGEMM_DIAG_HOST_TIMING=1 timeout 60 $B/tcgemm profile --m=$m --n=$n --k=$k --kernels=$K \
      --warmup-iterations=20 --profiling-iterations=60 --profiling-rounds=2 > $W/prof_${shp}_nopdl$pdl.txt 2> $W/host_${shp}_nopdl$pdl.txt
    echo "== $shp NO_PDL=$pdl rc=$?"
    grep -E "host-timing" $W/host_${shp}_nopdl$pdl.txt | sed 's/sm90_wgmma_bf16_//' | awk '{print "   ", $0}'
  done
done
for kern in sm90_wgmma_bf16_128x64x64_s9_ws sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1; do
  [ $SECONDS -gt 420 ] && break
  TCGEMM_TRACE_SHAPES=128x8192x8192 TCGEMM_TRACE_KERNEL=$kern TCGEMM_RESULTS_DIR=$W timeout 60 $B/tcgemm_gpu_tests \
    --gtest_filter='Sm90WsTrace.TimelineOfRequestedShapes' > $W/trace_$kern.log 2>&1
  echo "== trace $kern rc=$?"; grep -vE '^\[|^$|^Note|^Running' $W/trace_$kern.log | head -30
  mv $W/trace_128x8192x8192.csv $W/trace_${kern}.csv 2>/dev/null
done
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
