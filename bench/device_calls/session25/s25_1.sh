#!/usr/bin/env bash
# Session 25 call 1: split-K summed in a cluster on the 64- and 128-wide swap tiles (compiled now;
# float4 sums for every width). The cluster and swap tests, the sanitizers on their small cases;
# forced split sweeps on the 64/128-wide swap tiles by name, clusters and slabs
# (TCGEMM_DIAG_NO_CLUSTER_SPLIT=1); midm_split through gemm() with the slab plans and with
# TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1; decode_split (the narrow tiles' float4 sums); the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*' $W 90
Q="--profiling-rounds=2 --profiling-duration=40 --split_k_slices=1,2,3,4,6,8"
for mode in cluster slabs; do
  env=""; [ $mode = slabs ] && env="TCGEMM_DIAG_NO_CLUSTER_SPLIT=1"
  for sh in "64 4096 4096" "64 2048 8192" "48 4096 8192" "64 8192 8192" "128 4096 4096" "128 8192 8192" "128 8192 28672" "96 4096 14336"; do
    set -- $sh; k=sm90_wgmma_bf16_64x128x64_s9_swapab; [ $1 -gt 64 ] && k=sm90_wgmma_bf16_128x128x64_s7_swapab
    timeout 60 env $env $B/tcgemm profile --m=$1 --n=$2 --k=$3 --kernels=$k $Q --output=$W/sweep_${mode}_$1x$2x$3.csv >> $W/sweep.txt 2>&1
  done
  echo "sweep $mode t=$SECONDS"
done
timeout 120 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels=gemm --output=$W/bench_midm_split_slabs.csv > $W/bench_midm_slabs.txt 2>&1; echo "midm slabs rc=$? t=$SECONDS"
TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1 timeout 120 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels=gemm --output=$W/bench_midm_split_wide.csv > $W/bench_midm_wide.txt 2>&1; echo "midm wide rc=$? t=$SECONDS"
timeout 120 $B/tcgemm bench --suite=bench/suites/decode_split.txt --kernels=gemm --output=$W/bench_decode_split.csv > $W/bench_decode_split.txt 2>&1; echo "decode_split rc=$? t=$SECONDS"
run_suite_if_time 380
cd $W && python3 $OLDPWD/bench/device_calls/session17/split_sweep_summary.py
python3 - <<'PY'
import csv, glob, math, re
def load(f):
    v = {}
    for r in csv.DictReader(open(f)):
        if r['provider'] == 'tcgemm_gemm_pick':
            m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
            v['%dx%dx%d' % (m, n, k)] = (2 * m * n * k / float(r['tflops']) / 1e6, float(r['ratio_to_cublas']))
    return v
a, b = load('bench_midm_split_slabs.csv'), load('bench_midm_split_wide.csv')
gm = lambda v: math.exp(sum(math.log(x[1]) for x in v.values()) / len(v))
print('midm_split geomean slabs %.3fx, clusters %.3fx' % (gm(a), gm(b)))
for k in a: print('  %-14s slabs %.1f us %.3f | clusters %.1f us %.3f' % (k, a[k][0], a[k][1], b.get(k, (0, 0))[0], b.get(k, (0, 0))[1]))
d = load('bench_decode_split.csv'); print('decode_split geomean %.3fx over %d' % (gm(d), len(d)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
