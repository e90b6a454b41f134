#!/usr/bin/env bash
# Session 23 call 5: the committed tree after run 188's host-only changes (the tiny and skinny
# kernels' shared element-pointer checks and test sweep body, the 9-16-row K < 2048 exclusion):
# their GPU tests, skinny.txt and tiny.txt through gemm(), the whole GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Skinny*:*Tiny*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
for s in skinny tiny; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}.csv > $W/bench_${s}.txt 2>&1; echo "$s rc=$? t=$SECONDS"
done
run_suite
cd $W && python3 - <<'PY'
import csv, math
for s in ('skinny', 'tiny'):
    v = {}
    for r in csv.DictReader(open('bench_%s.csv' % s)):
        if r['provider'] == 'tcgemm_gemm_pick': v[r['shape']] = (float(r['ratio_to_cublas']), r['kernel'])
    g = [x[0] for x in v.values() if x[0] > 0]
    print('%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    for k, x in v.items():
        if 'skinny' in x[1] or '2049' in k: print('  %.3f %s %s' % (x[0], ' '.join(k.split()[:3]), x[1]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
