#!/usr/bin/env bash
# Session 24 call 3: the committed tree (the swap plan's splits fitting one round of clusters). The
# swap and cluster tests and the sanitizers on their small cases; decode_split, decode_tail (and
# without the cluster sums), smallm, skinny and random through gemm(); the whole GPU suite.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SwapCluster*:*SwapAB*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -20
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapClusterSplitSmall*:*TailSplits*:*SwapABSmall*' $W 90
for s in decode_split decode_tail smallm skinny random; do
  timeout 120 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}.csv > $W/bench_${s}.txt 2>&1; echo "$s rc=$? t=$SECONDS"
done
for s in decode_split decode_tail; do
  TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 timeout 120 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_off.csv > $W/bench_${s}_off.txt 2>&1; echo "$s off rc=$? t=$SECONDS"
done
if [ $SECONDS -lt 360 ]; then run_suite; else echo "suite skipped: t=$SECONDS"; fi
cd $W && python3 - <<'PY'
import csv, math
def load(f):
    v = {}
    for r in csv.DictReader(open(f)):
        sh = r['shape'].split()[:3]; m, n, k = [int(x.split('=')[1]) for x in sh]
        t = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
        v.setdefault(' '.join(sh), {})[r['provider']] = (t, float(r['ratio_to_cublas']), r['kernel'])
    return v
for s in ('decode_split', 'decode_tail', 'smallm', 'skinny', 'random'):
    a = load('bench_%s.csv' % s)
    try: b = load('bench_%s_off.csv' % s)
    except OSError: b = {}
    g = [x['tcgemm_gemm_pick'][1] for x in a.values()]
    line = '%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g))
    if b:
        h = [x['tcgemm_gemm_pick'][1] for x in b.values()]
        line += ' (slabs/unsplit tails: %.3fx)' % math.exp(sum(map(math.log, h)) / len(h))
    print(line)
    for k, x in a.items():
        if s.startswith('decode') or 'swapab' in x['tcgemm_gemm_pick'][2]:
            o = ' | off %.1f us %.3f' % (b[k]['tcgemm_gemm_pick'][0], b[k]['tcgemm_gemm_pick'][1]) if k in b else ''
            print('  %-22s %.1f us %.3f (cuBLAS %.1f)%s' % (k, x['tcgemm_gemm_pick'][0], x['tcgemm_gemm_pick'][1], x['cublas'][0], o))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
