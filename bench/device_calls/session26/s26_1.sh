#!/usr/bin/env bash
# Session 26 call 1: the 128-wide swap tile on 64 rows of N with one consumer (*_128x64x64_s9_swapab,
# by name, merged from exp/swap128-rows64). Its tests (the swap and cluster suites take it up by
# name), the sanitizers on their small cases; midm128_split on every 128-wide swap entry by name and
# through gemm(); ncu on 64x4096x4096 (ours 18.1 us against a copy floor of 11.4, cuBLAS 14.5): where
# the 64x64 swap tile's time goes, beside cuBLAS's kernel; the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*:*SwapABSmall*' $W 90
timeout 150 $B/tcgemm bench --suite=bench/suites/midm128_split.txt --kernels='sm90_wgmma_bf16_128x*_swapab' --output=$W/bench_midm128_byname.csv > $W/bench_midm128_byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
bench_suites midm128_split
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=64 --n=4096 --k=4096"
timeout 60 ncu --clock-control none $S --kernel-name regex:wgmma_tma_ws --launch-skip 2 --launch-count 1 \
  $P --providers=tcgemm --kernels=sm90_wgmma_bf16_64x64x64_s14_swapab > $W/ncu_64x4096_ours.txt 2>&1; echo "ncu1 rc=$? t=$SECONDS"
timeout 60 ncu --clock-control none $S --kernel-name regex:'nvjet|xmma|gemm|cutlass' --launch-skip 2 --launch-count 1 \
  $P --providers=cublas > $W/ncu_64x4096_cublas.txt 2>&1; echo "ncu2 rc=$? t=$SECONDS"
for f in ours cublas; do grep -E '^  [a-z_]|Duration|DRAM Throughput|L2 Cache Throughput|Memory Throughput|Registers|Grid Size|Block Size|Cluster|Stall|Issued Warp|No Eligible' $W/ncu_64x4096_$f.txt | head -24; done
run_suite_if_time 360
cd $W && python3 - <<'PY'
import csv, math
for f in ('bench_midm128_byname', 'bench_midm128_split'):
    rows = list(csv.DictReader(open(f + '.csv')))
    print(f)
    for r in rows:
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        t = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
        print('  %-15s %-44s %7.1f us %.3f' % ('%dx%dx%d' % (m, n, k), r['kernel'][:44], t, float(r['ratio_to_cublas'])))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
