#!/usr/bin/env bash
# Session 29 call 2 (run 212): do L2 policies help the two-consumer ws tiles (the 128xN split-K
# picks of the cliff and multicast suites, 0.78-0.96x)? Mode 3 (the default: policies on the
# one-consumer tiles only) against 1 (shared operand evict_last, streamed evict_first, on every
# plain-TMA ws tile) and 2 (both evict_first, every tile), alternating processes, three passes,
# three suites through gemm().
source "$(dirname "$0")/../session17/common.sh"
for pass in 1 2 3; do
  for h in 3 1 2; do
    for s in cliffs multicast midm128_split; do
      [ $SECONDS -gt 540 ] && { echo "pass $pass h=$h $s skipped t=$SECONDS"; break 3; }
      TCGEMM_DIAG_L2_HINT=$h timeout 70 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/ab_${s}_h${h}_$pass.csv > /dev/null 2>&1
      rc=$?; echo "h=$h $s pass $pass rc=$rc t=$SECONDS"; [ $rc = 124 ] && break 3
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('cliffs', 'multicast', 'midm128_split'):
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        h = f.split('_')[-2]
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-32s geomean %.3fx' % (f, math.exp(sum(map(math.log, g)) / len(g))))
        for r in rows: per[(r['shape'].split(' A=')[0], r['kernel'])][h].append(float(r['ratio_to_cublas']))
    for (sh, k), v in per.items():
        print('  %-24s %-46s %s' % (sh, k[:46], ' '.join('%s %.3f' % (h, sum(v[h]) / len(v[h])) for h in ('h3', 'h1', 'h2') if v[h])))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
