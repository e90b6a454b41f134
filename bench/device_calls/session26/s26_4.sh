#!/usr/bin/env bash
# Session 26 call 4: the swapped tiles' column stores under the sanitizers (the swap tests' small
# cases, a new one with 16-bit row-major D at ldd % 8 == 0 and odd); the swap, cluster and narrow
# tests; a second process of midm_split and decode_split through gemm(); the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapAB*:*SwapCluster*:*NarrowMidM*:*narrow*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*SwapClusterSplitSmall*:*TailSplits*' $W 120
bench_suites midm_split decode_split
run_suite_if_time 400
cd $W && python3 - <<'PY'
import csv, math
for s in ('midm_split', 'decode_split'):
    rows = [r for r in csv.DictReader(open('bench_%s.csv' % s))]
    g = [float(r['ratio_to_cublas']) for r in rows if r['provider'] == 'tcgemm_gemm_pick']
    print('%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    t = {}
    for r in rows:
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        if r['provider'] in ('tcgemm_gemm_pick', 'cublas'):
            t.setdefault('%dx%dx%d' % (m, n, k), {})[r['provider']] = 2 * m * n * k / float(r['tflops']) / 1e6
    for key, v in t.items(): print('  %-15s ours %6.1f  cublas %6.1f' % (key, v['tcgemm_gemm_pick'], v['cublas']))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
