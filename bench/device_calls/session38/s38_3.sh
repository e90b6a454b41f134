#!/usr/bin/env bash
# Session 38 call 3 (the last device minutes): run 239's open question, whether L2's request
# coalescer (LRC) merges cuBLAS's A reads on the tall shapes: ncu's lrc__ counters for gemm()'s pick
# and cuBLAS at 6656x624x1024 (256x128 tall) and 6656x520x2048 (192x192), one launch each.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
L=lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum,lrc__xbar2gpc_sectors_op_read_coalescing_achieved.sum,lts__t_sectors_op_read.sum,gpu__time_duration.sum
for shape in 6656:624:1024 6656:520:2048; do
  IFS=: read -r m n k <<< "$shape"
  for who in tcgemm:persistent_cluster cublas:nvjet; do
    f=$W/lrc_${m}x${n}x${k}_${who%%:*}.txt
    timeout 60 ncu --clock-control none --metrics $L --kernel-name regex:${who#*:} --launch-skip 2 --launch-count 1 \
      $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
      --m=$m --n=$n --k=$k --providers=${who%%:*} > $f 2>&1
    echo "== $m x $n x $k ${who%%:*} rc=$?"; grep -E "lrc__|lts__|gpu__time|nvjet|cluster_kernel" $f | head -12
  done
done
save
