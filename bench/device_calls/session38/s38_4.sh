#!/usr/bin/env bash
# Session 38 call 4: which tile order lets L2's request coalescer merge our A reads (run 241: cuBLAS's
# are merged 2.5x as often)? The LRC's hardware-coalesced sectors and L2 reads of gemm()'s pick at
# 6656x624x1024 for each raster order x group, one launch each.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
L=lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lrc2xbar_sectors_op_read.sum,lts__t_sectors_op_read.sum,gpu__time_duration.sum
for r in along_m along_n; do
  for g in 1 2 4 8 16; do
    f=$W/lrc_${r}_g$g.txt
    timeout 40 ncu --clock-control none --metrics $L --kernel-name regex:persistent_cluster --launch-skip 2 --launch-count 1 \
      $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
      --m=6656 --n=624 --k=1024 --providers=tcgemm --raster_order=$r --swizzle_size=$g > $f 2>&1
    echo "$r g$g $(grep -E 'lrc__|lts__|gpu__time' $f | awk '{printf "%s=%s ", $1, $NF}')"
  done
done
save
