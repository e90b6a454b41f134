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
# Branch exp/k-ways (binaries *_kw): the ws kernel's 64x64 one-consumer tiles with two consumer
# warpgroups taking the k-blocks in turn. Its trace and by-name times against main's, gemm() over
# session 48's narrow16 shapes both ways, then its whole GPU suite.
e=sm90_wgmma_bf16_64x64x64_s14_ws_splitk
for v in "" _kw; do
  TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W \
    timeout 60 $B/tcgemm_gpu_tests$v --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace${v}_$e.txt 2>&1
  echo "== trace$v $e rc=$?"; grep "\[trace\]" $W/trace${v}_$e.txt | grep -E "CTAs|first -> last|MHz"
done
for i in 1 2; do for v in main kw; do
  bin=tcgemm; [ $v = kw ] && bin=tcgemm_kw
  timeout 60 $B/$bin profile --m=256 --n=512 --k=16384 --split_k_slices=4 \
    --kernels='*bf16_64x64x64_s14_ws_splitk,*bf16_64x64x64_s14_splitk_mc1x2,*bf16_128x64x64_s9_ws_splitk' \
    --providers=tcgemm,cublas --output=$W/pk_${v}_$i.csv > $W/pk_${v}_$i.txt 2>&1; echo "profile $v pass $i rc=$? t=$SECONDS"
done; done
python3 - "$W" <<'PY'
import csv, glob, sys
w = sys.argv[1]; t = {}
for fn in sorted(glob.glob(f"{w}/pk_*.csv")):
    v = fn.split('/')[-1].split('_')[1]
    for r in csv.DictReader(open(fn)):
        t.setdefault((r['provider'] + ' ' + r['kernel'], v), []).append(1000 * float(r['runtime_ms'] or 0))
for k, x in sorted(t.items()): print('%-60s %-4s us %s' % (k[0][:60], k[1], ' '.join('%.2f' % y for y in x)))
PY
save
for i in 1 2; do
  for v in "" _kw; do
    timeout 120 $B/tcgemm$v bench --suite=bench/device_calls/session48/narrow16.txt --kernels=gemm \
      --output=$W/narrow16${v}_$i.csv > $W/narrow16${v}_$i.txt 2>&1
    echo "narrow16$v pass $i rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/narrow16${v}_$i.txt)"
  done
  [ $SECONDS -lt 300 ] || break
done
save
suite_of tcgemm_gpu_tests_kw kw
save
# The branch under compute-sanitizer on its 64x64 entries at awkward sizes (as s49_2.sh), while time lasts.
F='*sm90_wgmma_*_64x64x64_s14*_33x33x33:*sm90_wgmma_*_64x64x64_s14*_4097x64x129:*sm90_wgmma_*_64x64x64_s14*_33x1000x7:*sm90_wgmma_*_64x64x64_s14*NanAndInf*:Sm90SplitKTilesSmall*:Sm90NarrowMidM*'
for t in memcheck racecheck synccheck; do
  [ $SECONDS -lt 420 ] || { echo "$t skipped t=$SECONDS"; continue; }
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests_kw --gtest_brief=1 --gtest_filter="$F" > $W/san_kw_$t.log 2>&1
  echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|tests from .* ran|PASSED|FAILED' $W/san_kw_$t.log | head -4
done
save
if [ $SECONDS -lt 120 ] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$(dirname "$0")/../session47/s47_5.sh" 2>&1 | tail -25
fi
echo "done t=$SECONDS"; save
