#!/usr/bin/env bash
# Session 38 call 2: batched producer loads on the ws kernels (TCGEMM_DIAG_LOAD_BATCH, run 39's
# experiment on today's kernels). Correctness under batch 4 first (the ws families and the kernel
# sweep, racecheck/synccheck on the small cases), then gemm()'s pick on the small-M and cliffs
# suites at batch 1, 2, 4, 8 and 1 again (cuBLAS in each process), then the whole suite at batch 1.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
F='*SwapAB*:*Narrow*:*SplitK*:*Multicast*:*TileFamily*:*SwapSteal*:*SlabFold*:AllKernels/KernelSweep*'
TCGEMM_DIAG_LOAD_BATCH=4 run_tests "$F"
mkdir -p $W/san
TCGEMM_DIAG_LOAD_BATCH=4 TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90SplitKTilesSmall*:*MulticastPlain*' $W/san 120
save
pass=0
for b in 1 2 4 8 1; do
  pass=$((pass + 1))
  for s in smallm smallm2 cliffs; do
    TCGEMM_DIAG_LOAD_BATCH=$b timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm \
      --output=$W/bench_${s}_b${b}_${pass}.csv > $W/bench_${s}_b${b}_${pass}.txt 2>&1
    echo "$s b=$b rc=$? t=$SECONDS"
  done
  save
done
# Run 239's open question: does L2's request coalescer (LRC) merge cuBLAS's A reads at 6656x624x1024?
L=lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum,lrc__xbar2gpc_sectors_op_read_coalescing_achieved.sum
for who in tcgemm:persistent_cluster cublas:nvjet; do
  timeout 60 ncu --clock-control none --metrics $L,gpu__time_duration.sum --kernel-name regex:${who#*:} --launch-skip 2 --launch-count 1 \
    $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
    --m=6656 --n=624 --k=1024 --providers=${who%%:*} > $W/lrc_${who%%:*}.txt 2>&1
  echo "== lrc ${who%%:*} rc=$?"; grep -E "lrc__|gpu__time" $W/lrc_${who%%:*}.txt | head -10
done
save
run_suite_if_time 480
save
python3 bench/device_calls/session38/batch_table.py $W/bench_*_b*_*.csv
