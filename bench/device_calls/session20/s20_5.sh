#!/usr/bin/env bash
# Session 20 call 5 (run 178, final main): the TMA-legal tiny gate at 2^19 for at most 8 rows (run
# 177's pairs). The tiny and property tests; the tiny, random, random2 and swaprows suites through
# gemm(). Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*KernelProperty*:*Tiny*:*SwapAB*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
for s in tiny random random2 swaprows; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"
done
cd $W && python3 - <<'PY'
import csv, math
for s in ('tiny', 'random', 'random2', 'swaprows'):
    pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open(f'bench_{s}.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s: %d shapes, geomean %.3fx, %d below 0.8x' % (s, len(pk), math.exp(sum(math.log(x[0]) for x in pk) / max(1, len(pk))), sum(1 for x in pk if x[0] < 0.8)))
    for x in sorted(pk)[:4]: print('  %.3f %s %s' % x)
    for x in pk:
        if x[1].startswith('m=30 n=1 k=6856'): print('  30x1x6856: %.3f %s' % (x[0], x[2]))
PY
tar -C $W -czf $OUT/run178.tar.gz .
