#!/usr/bin/env bash
# Run 275 (session 49): the ingest probe again, its consumer stepping the ring by counters (run 274's
# probe, kept as tcgemm_div, divided kt by the stage count twice a k-block: its mma and tma readings
# of ~820 and ~410 cycles a k-block may be that). Both probes side by side at 64x64, then the new one
# over tiles, stage layouts and K ways, our ws kernel's trace and by-name time beside cuBLAS, 
# (no time left this session for session 47's H200 call).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz --exclude='*.ncu-rep' .; }
run_tests 'IngestProbe*' 60
{
  for v in _div ""; do
    timeout 60 $B/tcgemm$v ingest --iterations=10 --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=14
    timeout 60 $B/tcgemm$v ingest --iterations=10 --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=14
  done
  I="timeout 60 $B/tcgemm ingest --iterations=10"
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=14 --mma-depths=2 --modes=mma,both
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=12 --k-ways=2
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=7 --stage-layouts=2,2c
  $I --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=7 --stage-layouts=2,2c
  $I --m=256 --n=512 --k=16384 --tiles=128x64,64x128 --splits=4 --stages=9
  $I --m=256 --n=512 --k=16384 --tiles=128x64 --splits=4 --stages=8 --k-ways=2
  $I --m=512 --n=1024 --k=32768 --tiles=128x128 --splits=4 --stages=7
  $I --m=128 --n=128 --k=4096 --tiles=128x128 --splits=1 --stages=7
  $I --m=512 --n=1024 --k=32768 --tiles=128x256 --splits=4 --stages=4
} > $W/ingest.txt 2>&1
echo "ingest t=$SECONDS"; grep -v "^ingest probe" $W/ingest.txt | awk 'NR == 1 || $1 != "mode"'; save
e=sm90_wgmma_bf16_64x64x64_s14_ws_splitk
TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W \
  timeout 60 $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$e.txt 2>&1
echo "== trace $e rc=$?"; grep "\[trace\]" $W/trace_$e.txt | grep -E "CTAs|first -> last|MHz"
timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 --kernels="*bf16_64x64x64_s14_ws_splitk" \
  --providers=tcgemm,cublas --output=$W/p64.csv > $W/p64.txt 2>&1; echo "p64 rc=$?"; grep -E "^m=" $W/p64.txt | awk '{print $(NF-5), $(NF-4), $NF}'
save
echo "done t=$SECONDS"; save
