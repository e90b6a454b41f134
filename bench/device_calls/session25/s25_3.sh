#!/usr/bin/env bash
# Session 25 call 3: the committed tree (gemm() takes the 64-row width-64 swap tile where its tiles
# fit one round). The swap and cluster tests, the sanitizers on their small cases; midm_split,
# decode_split, smallm, skinny and random through gemm(); the whole GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*:*SwapABSmall*' $W 90
bench_suites midm_split decode_split smallm skinny random
run_suite_if_time 380
cd $W && python3 - <<'PY'
import csv, math
for s in ('midm_split', 'decode_split', 'smallm', 'skinny', 'random'):
    v = {}
    for r in csv.DictReader(open('bench_%s.csv' % s)):
        if r['provider'] == 'tcgemm_gemm_pick':
            m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
            t = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
            v['%dx%dx%d' % (m, n, k)] = (t, float(r['ratio_to_cublas']), r['kernel'])
    g = [x[1] for x in v.values()]
    print('%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    for k, x in v.items():
        if s == 'midm_split' or '64x64x64_s14' in x[2]: print('  %-16s %.1f us %.3f %s' % (k, x[0], x[1], x[2]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
