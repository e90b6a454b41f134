#!/usr/bin/env bash
# Session 25 call 2: the one-consumer 64-wide swap tile (64 rows of N, by name) against the 64x128
# one at M of 33..64. The swap and cluster tests, the sanitizers on their small cases; midm_split
# on every 64-wide swap entry by name (their own plans), default and TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1,
# and through gemm(); forced splits on the new tile; the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*' $W 90
K='sm90_wgmma_bf16_64x*_swapab'
timeout 150 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels="$K" --output=$W/bench_midm_byname.csv > $W/bench_midm_byname.txt 2>&1; echo "midm byname rc=$? t=$SECONDS"
TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1 timeout 150 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels="$K" --output=$W/bench_midm_byname_wide.csv > $W/bench_midm_byname_wide.txt 2>&1; echo "midm byname wide rc=$? t=$SECONDS"
Q="--profiling-rounds=2 --profiling-duration=40 --split_k_slices=1,2,3,4,6"
for sh in "64 4096 4096" "64 2048 8192" "56 2048 2048" "33 2560 2560"; do
  set -- $sh
  timeout 60 $B/tcgemm profile --m=$1 --n=$2 --k=$3 --kernels=sm90_wgmma_bf16_64x64x64_s14_swapab $Q --output=$W/sweep_cluster_$1x$2x$3.csv >> $W/sweep.txt 2>&1
done
echo "sweep t=$SECONDS"
run_suite_if_time 380
cd $W && python3 $OLDPWD/bench/device_calls/session17/split_sweep_summary.py
python3 - <<'PY'
import csv
def load(f):
    v = {}
    for r in csv.DictReader(open(f)):
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        key = '%dx%dx%d' % (m, n, k)
        t = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
        v.setdefault(key, {})[r['kernel'] if r['provider'].startswith('tcgemm') else 'cublas'] = t
    return v
a, b = load('bench_midm_byname.csv'), load('bench_midm_byname_wide.csv')
for key in a:
    row = '  '.join('%s %.1f' % (k.replace('sm90_wgmma_bf16_', ''), t) for k, t in sorted(a[key].items()))
    w = '  '.join('%s %.1f' % (k.replace('sm90_wgmma_bf16_', ''), t) for k, t in sorted(b.get(key, {}).items()) if '64x128' in k or k == 'cublas')
    print('%-14s %s | wide: %s' % (key, row, w))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
