#!/usr/bin/env bash
# Run 274 (session 49): the ingest probe (`tcgemm ingest`) on the 64-wide split tiles' ~400 cycles a
# k-block: loads alone, MMAs alone, both, at 1, 32 and 128 CTAs, over ring depths and stage layouts
# (two k-blocks a stage, as two boxes or one 3D box an operand), MMA depths (stages in flight) and
# K split between two consumer warpgroups, beside our ws
# kernel's own trace and cuBLAS by name on the same card. On an H200, then session 47's targets call
# (s47_5's steps: copy rate, cliffs through gemm() model / tuned / model).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz --exclude='*.ncu-rep' .; }
run_tests 'IngestProbe*' 60
I="timeout 60 $B/tcgemm ingest --iterations=10"
{
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=14
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=12 --k-ways=2 --mma-depths=1,2
  $I --m=256 --n=512 --k=16384 --tiles=128x64 --splits=4 --stages=9 --k-ways=1,2
  $I --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=12 --k-ways=1,2
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=4,8
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=4,7 --stage-layouts=2,2c
  $I --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=4,8,14
  $I --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=7 --stage-layouts=2,2c
  $I --m=256 --n=512 --k=16384 --tiles=64x64 --splits=4 --stages=14 --mma-depths=2,3 --modes=mma,both
  $I --m=64 --n=64 --k=4096 --tiles=64x64 --splits=1 --stages=14 --mma-depths=2,3 --modes=mma,both
  $I --m=256 --n=512 --k=4096 --tiles=64x64 --splits=1 --stages=14
  $I --m=256 --n=512 --k=16384 --tiles=128x64,64x128 --splits=4 --stages=9
  $I --m=128 --n=128 --k=4096 --tiles=128x128 --splits=1 --stages=7
  $I --m=512 --n=1024 --k=32768 --tiles=128x128 --splits=4 --stages=4,7
  $I --m=512 --n=1024 --k=32768 --tiles=128x256 --splits=4 --stages=4
} > $W/ingest.txt 2>&1
echo "ingest t=$SECONDS"; cat $W/ingest.txt; save
# Our kernel's own k-block rate on this card (the ws trace) and by name against cuBLAS.
for e in sm90_wgmma_bf16_64x64x64_s14_ws_splitk; do
  TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W timeout 60 \
    $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$e.txt 2>&1
  echo "== trace $e rc=$?"; grep "\[trace\]" $W/trace_$e.txt | grep -E "CTAs|first -> last|MHz"
done
timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 --kernels='*bf16_64x64x64_s14_ws_splitk' \
  --providers=tcgemm,cublas --output=$W/p64.csv > $W/p64.txt 2>&1; echo "p64 rc=$?"; grep -E "tcgemm|cublas" $W/p64.txt | tail -3
save
# The consumer's MMA depth in the ws kernel itself (TCGEMM_DIAG_MMA_DEPTH=2: two k-blocks' wgmma groups
# in flight, the stage two back released): correctness of the ws entries under it, their trace and
# by-name times at both depths, then gemm() over session 48's narrow16 shapes at both depths.
TCGEMM_DIAG_MMA_DEPTH=2 run_tests 'Forced/Sm90SplitKTiles*:Sm90SplitKTilesSmall*:Entries/Sm90Multicast*:Sm90NarrowMidM*:Forced/Sm90SplitK.*:AllLayouts/Sm90Wgmma*:Sm90PlannedPair*' 150
cp $W/tests.log $W/tests_depth2.log
for d in 1 2; do
  e=sm90_wgmma_bf16_64x64x64_s14_ws_splitk
  TCGEMM_DIAG_MMA_DEPTH=$d TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W \
    timeout 60 $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_d${d}_$e.txt 2>&1
  echo "== trace depth $d $e rc=$?"; grep "\[trace\]" $W/trace_d${d}_$e.txt | grep -E "CTAs|first -> last|MHz"
done
for i in 1 2; do for d in 1 2; do
  TCGEMM_DIAG_MMA_DEPTH=$d timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 \
    --kernels='*bf16_64x64x64_s14_ws_splitk,*bf16_128x64x64_s9_ws_splitk,*bf16_64x64x64_s14_splitk_mc1x2' \
    --providers=tcgemm,cublas --output=$W/pd${d}_$i.csv > $W/pd${d}_$i.txt 2>&1; echo "profile depth $d pass $i rc=$? t=$SECONDS"
done; done
python3 - "$W" <<'PY'
import csv, glob, sys, statistics as st
w = sys.argv[1]; t = {}
for fn in sorted(glob.glob(f"{w}/pd*_*.csv")):
    d = fn.split('/')[-1][2]
    for r in csv.DictReader(open(fn)):
        k = (r['provider'] + ' ' + r['kernel'], d)
        t.setdefault(k, []).append(1000 * float(r['runtime_ms'] or 0))
for k, v in sorted(t.items()): print('%-52s depth %s  us %s' % (k[0][:52], k[1], ' '.join('%.2f' % x for x in v)))
PY
cp bench/device_calls/session48/narrow16.txt $W/ 2>/dev/null
for d in 1 2; do
  TCGEMM_DIAG_MMA_DEPTH=$d timeout 120 $B/tcgemm bench --suite=bench/device_calls/session48/narrow16.txt --kernels=gemm \
    --output=$W/narrow16_d$d.csv > $W/narrow16_d$d.txt 2>&1
  echo "narrow16 depth $d rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/narrow16_d$d.txt)"
done
save
if [ $SECONDS -lt 200 ] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$(dirname "$0")/../session47/s47_5.sh" 2>&1 | tail -25
fi
echo "done t=$SECONDS"; save
