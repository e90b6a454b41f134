#!/usr/bin/env bash
# Session 30 call 1 (run 216): the whole GPU suite and sanitizers on main (run 215's K gate and the
# fixed Sm90NarrowMidM.ColumnMajorA test had not run on a GPU), then which kernel cuBLAS runs on
# the split-K shapes where our best entry is 8-17% slower (run 213): name, grid, block, cluster,
# duration, DRAM rate (ncu SpeedOfLight + LaunchStats), and whether it launches one kernel or two.
source "$(dirname "$0")/../session17/common.sh"
run_suite
grep -E "ColumnMajorA|WhoTakesMOf128" $W/gpu_tests.log | head -5
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90SplitKTilesSmall*' $W 100
S="--section SpeedOfLight --section LaunchStats"
for shp in 128x8192x8192 128x4096x4096 256x512x16384 80x3072x12288 1024x1024x8192 256x256x65536; do
  IFS=x read m n k <<< "$shp"
  [ $SECONDS -gt 420 ] && { echo "ncu $shp skipped t=$SECONDS"; continue; }
  timeout 60 ncu --clock-control none $S --kernel-name "regex:nvjet|sm90|gemm|cutlass|xmma|[Rr]educe" --launch-skip 2 --launch-count 4 \
    $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=3 --profiling-rounds=1 \
    --m=$m --n=$n --k=$k --providers=cublas > $W/ncu_cb_$shp.txt 2>&1
  echo "== cuBLAS $shp rc=$?"
  grep -E '^  [a-z_0-9]+.*\(|Duration|DRAM Throughput|Grid Size|Block Size|Cluster Size|Registers Per|Dynamic Shared' $W/ncu_cb_$shp.txt | head -24
done
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
