#!/usr/bin/env bash
# Prepared in session 25 for branch exp/swap128-rows64 (not yet run): the 128-wide swap tile on 64
# rows of N with one consumer (*_128x64x64_s9_swapab, by name). Its tests (the swap and cluster
# suites take it up by name), the sanitizers on their small cases; midm128_split on every 128-wide
# swap entry by name and through gemm(); the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*:*SwapABSmall*' $W 90
timeout 150 $B/tcgemm bench --suite=bench/suites/midm128_split.txt --kernels='sm90_wgmma_bf16_128x*_swapab' --output=$W/bench_midm128_byname.csv > $W/bench_midm128_byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
bench_suites midm128_split
run_suite_if_time 380
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
