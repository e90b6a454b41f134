#!/usr/bin/env bash
# Session 38 call 1: does the tile order move the tall class? cuBLAS's tall kernels launch the
# pair-tiles that share rows of A next to each other (grid (2, 65): 13 pair rows x 5 tile columns,
# N fastest); our persistent cluster kernel walks pair rows first (along_m, groups of 8). Sweep
# raster order x group on every tall shape through gemm()'s pick, cuBLAS in the same process; then
# L2 read sectors under ncu for the two orders at 6656x624x1024 (run 238's shape).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
grep -v '^#' bench/suites/tall.txt | while read -r m n k a b c; do
  L=""; [ -n "${a:-}" ] && L="--A=$a --B=$b --C=$c"
  timeout 60 $B/tcgemm profile --m=$m --n=$n --k=$k $L --raster_order=along_m,along_n --swizzle_size=1,4,8,16 \
    --verification-enabled=false --providers=tcgemm,cublas --output=$W/raster_${m}x${n}x${k}${a:+_f16}.csv \
    > $W/raster_${m}x${n}x${k}${a:+_f16}.txt 2>&1
  echo "$m $n $k ${a:-} rc=$? t=$SECONDS"
done
save
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__cycles_active.avg
F=lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sector_hit_rate.pct  # may not exist: its own runs
ncu --query-metrics --chip gh100 > $W/ncu_metrics_gh100.txt 2>&1
# l2 NAME METRICS KERNEL-REGEX PROFILE-ARGS...: one launch (the third) of 6656x624x1024 under ncu.
l2() {
  local name=$1 metrics=$2 re=$3; shift 3
  timeout 60 ncu --clock-control none --metrics $metrics --kernel-name regex:$re --launch-skip 2 --launch-count 1 \
    $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
    --m=6656 --n=624 --k=1024 "$@" > $W/l2_$name.txt 2>&1
  echo "== $name rc=$?"; grep -E "nvjet|gpu__time|lts__t_sector|dram__bytes|cycles_active" $W/l2_$name.txt | head -8
}
for r in along_m along_n; do
  l2 $r $M persistent_cluster --providers=tcgemm --raster_order=$r --swizzle_size=8
  l2 fabric_$r $F persistent_cluster --providers=tcgemm --raster_order=$r --swizzle_size=8
done
l2 cublas $M nvjet --providers=cublas
l2 fabric_cublas $F nvjet --providers=cublas
save
python3 bench/device_calls/session38/raster_table.py $W/raster_*.csv
