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
run_suite_if_time 480
save
python3 bench/device_calls/session38/batch_table.py $W/bench_*_b*_*.csv
