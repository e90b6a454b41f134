#!/usr/bin/env bash
# Session 29 call 3 (run 213): the default L2 policy mode is now 4 (the one-consumer tiles keep the
# shared operand, evict the streamed one first; the two-consumer tiles evict both first: run 212's
# best on each kind). The whole suite and sanitizers on it, then mode 4 against 3 (run 211's
# default) in alternating processes: three passes of the split-K-heavy suites, one of the
# one-consumer suites, and one pass of mode 0 (no policy) beside them.
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session29
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90Multicast*64x32*:*Sm90SplitKTilesSmall*' $W 80
ab() {  # mode suite pass
  [ $SECONDS -gt 540 ] && { echo "h=$1 $2 pass $3 skipped t=$SECONDS"; return 1; }
  TCGEMM_DIAG_L2_HINT=$1 timeout 70 $B/tcgemm bench --suite=bench/suites/$2.txt --kernels=gemm --output=$W/ab_${2}_h${1}_$3.csv > /dev/null 2>&1
  echo "h=$1 $2 pass $3 rc=$? t=$SECONDS"
}
for pass in 1 2 3; do for h in 4 3; do for s in cliffs multicast midm128_split; do ab $h $s $pass; done; done; done
for h in 4 3 0; do for s in smallm decode_split midm_split; do ab $h $s 1; done; done
for s in cliffs multicast midm128_split; do ab 0 $s 1; done
if [ $SECONDS -lt 480 ]; then  # every entry by name on the weakest split-K picks (mode 4)
  timeout 100 $B/tcgemm bench --suite=$D/weak_splitk.txt --output=$W/weak_all.csv > $W/weak_all.txt 2>&1; echo "weak all rc=$? t=$SECONDS"
fi
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('cliffs', 'multicast', 'midm128_split', 'smallm', 'decode_split', 'midm_split'):
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        h = f.split('_')[-2]
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-32s geomean %.3fx' % (f, math.exp(sum(map(math.log, g)) / len(g))))
        for r in rows: per[(r['shape'].split(' A=')[0], r['kernel'])][h].append(float(r['ratio_to_cublas']))
    if s in ('cliffs', 'multicast', 'midm128_split'):
        for (sh, k), v in per.items():
            print('  %-24s %-40s %s' % (sh, k[:40], ' '.join('%s %.3f' % (h, sum(v[h]) / len(v[h])) for h in ('h4', 'h3', 'h0') if v[h])))
PY
[ -f weak_all.txt ] && python3 - <<'PY'
import collections
rows = collections.defaultdict(list)
for l in open('weak_all.txt'):
    t = l.split()
    if len(t) > 10 and t[0].startswith('m=') and 'passed' in t:
        rows[' '.join(t[:3])].append((float(t[t.index('passed') + 1]) * 1000, t[6], t[7] if t[6] != 'cublas' else 'cuBLAS'))
for s, v in rows.items():
    v.sort()
    print(s, ' | '.join('%s %.2f' % (k[:44], us) for us, p, k in v[:6]), '| cuBLAS %.2f' % min(us for us, p, k in v if p == 'cublas'))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
