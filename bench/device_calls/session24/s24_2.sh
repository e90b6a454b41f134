#!/usr/bin/env bash
# Session 24 call 2: the swap plan with cluster capacity (clusters only where they fit one round)
# and the tail split (a half-empty last round of 64-row tiles in two splits, clusters of 2). Its
# tests and the sanitizers on the small ones; a forced split sweep (1-8, 11, 16) on the narrow swap
# tiles by name, clusters and slabs (TCGEMM_DIAG_NO_CLUSTER_SPLIT=1) each its own process;
# decode_split / decode_tail / smallm / skinny through gemm() (decode_tail both ways); the whole
# GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SwapCluster*:*SwapAB*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -20
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*' $W 120
Q="--profiling-rounds=2 --profiling-duration=40 --split_k_slices=1,2,3,4,5,6,8,11,16"
for mode in cluster slabs; do
  env=""; [ $mode = slabs ] && env="TCGEMM_DIAG_NO_CLUSTER_SPLIT=1"
  for sh in "8 2048 2048" "16 2048 8192" "16 1024 4096" "16 2560 2560" "1 3072 3072" "16 3072 12288" "16 4096 4096" "32 1024 8192"; do
    set -- $sh; k=sm90_wgmma_bf16_16x64x64_s16_swapab; [ $1 -gt 16 ] && k=sm90_wgmma_bf16_32x64x64_s16_swapab
    timeout 60 env $env $B/tcgemm profile --m=$1 --n=$2 --k=$3 --kernels=$k $Q --output=$W/sweep_${mode}_$1x$2x$3.csv >> $W/sweep.txt 2>&1
  done
  echo "sweep $mode t=$SECONDS"
done
for s in decode_split decode_tail smallm skinny; do
  timeout 120 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}.csv > $W/bench_${s}.txt 2>&1; echo "$s rc=$? t=$SECONDS"
done
TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 timeout 120 $B/tcgemm bench --suite=bench/suites/decode_tail.txt --kernels=gemm --output=$W/bench_decode_tail_off.csv > $W/bench_decode_tail_off.txt 2>&1; echo "tail off rc=$? t=$SECONDS"

run_suite
cd $W && python3 $OLDPWD/bench/device_calls/session17/split_sweep_summary.py
python3 - <<'PY'
import csv, glob, math, re
for s in ('decode_split', 'decode_tail', 'decode_tail_off', 'smallm', 'skinny'):
    v = {}
    for r in csv.DictReader(open('bench_%s.csv' % s)):
        if r['provider'] == 'tcgemm_gemm_pick': v[r['shape']] = (float(r['ratio_to_cublas']), r['kernel'])
    g = [x[0] for x in v.values() if x[0] > 0]
    print('%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    for k, x in v.items():
        if s.startswith('decode') or 'swapab' in x[1]: print('  %.3f %s %s' % (x[0], ' '.join(k.split()[:3]), x[1]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
