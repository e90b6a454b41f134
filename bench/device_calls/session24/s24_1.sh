#!/usr/bin/env bash
# Session 24 call 1: split-K of the narrow swap tiles summed inside a cluster. Its GPU tests and
# the swap tests, the sanitizers on the small cases, decode_split.txt / smallm.txt / skinny.txt
# through gemm() with and without the cluster sum (TCGEMM_DIAG_NO_CLUSTER_SPLIT=1, its own
# process each), then the whole GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SwapCluster*:*SwapAB*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran|clusters of' $W/tests.log | head -20
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*' $W 120
for s in decode_split smallm skinny; do
  for mode in cluster slabs; do
    env=""; [ $mode = slabs ] && env="TCGEMM_DIAG_NO_CLUSTER_SPLIT=1"
    timeout 150 env $env $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_${mode}.csv > $W/bench_${s}_${mode}.txt 2>&1
    echo "$s $mode rc=$? t=$SECONDS"
  done
done
run_suite
cd $W && python3 - <<'PY'
import csv, math
for s in ('decode_split', 'smallm', 'skinny'):
    v = {}
    for mode in ('cluster', 'slabs'):
        for r in csv.DictReader(open('bench_%s_%s.csv' % (s, mode))):
            if r['provider'] == 'tcgemm_gemm_pick': v.setdefault(r['shape'], {})[mode] = (float(r['ratio_to_cublas']), float(r['tflops']), r['kernel'])
    for mode in ('cluster', 'slabs'):
        g = [x[mode][0] for x in v.values() if mode in x and x[mode][0] > 0]
        print('%s %s geomean %.3fx over %d' % (s, mode, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    for k, x in v.items():
        if 'cluster' in x and 'slabs' in x and abs(x['cluster'][0] - x['slabs'][0]) > 0.02 or s == 'decode_split':
            print('  %-24s cluster %.3f (%.1f TF) slabs %.3f (%.1f TF) %s' % (' '.join(k.split()[:3]), x['cluster'][0], x['cluster'][1], x['slabs'][0], x['slabs'][1], x['cluster'][2]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
