#!/usr/bin/env bash
# Session 29 call 4 (run 214): the L2 policies now also on the ws tiles' MN-major box loads (A
# column-major, B row-major). The whole suite and sanitizers on the new build, then the build
# before it (tcgemm_old: policies on the K-major loads only) against it in alternating processes:
# three passes of the MN-major layout suite, two of midm_split (K-major: the control).
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session29
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90SplitKTilesSmall*' $W 80
for pass in 1 2 3; do
  for bin in tcgemm_old tcgemm; do
    [ $SECONDS -gt 420 ] && { echo "pass $pass $bin skipped t=$SECONDS"; break 2; }
    timeout 70 $B/$bin bench --suite=$D/layouts.txt --kernels=gemm --output=$W/ab_layouts_${bin}_$pass.csv > /dev/null 2>&1
    echo "$bin layouts pass $pass rc=$? t=$SECONDS"
    if [ $pass -le 2 ]; then
      timeout 70 $B/$bin bench --suite=bench/suites/midm_split.txt --kernels=gemm --output=$W/ab_midm_split_${bin}_$pass.csv > /dev/null 2>&1
      echo "$bin midm_split pass $pass rc=$? t=$SECONDS"
    fi
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('layouts', 'midm_split'):
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        b = 'old' if '_old_' in f else 'new'
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-34s geomean %.3fx' % (f, math.exp(sum(map(math.log, g)) / len(g))))
        for r in rows: per[(r['shape'].replace(' D=bf16:row', ''), r['kernel'])][b].append(float(r['tflops']))
    if s == 'layouts':
        for (sh, k), v in per.items():
            o, n = (sum(v[x]) / len(v[x]) for x in ('old', 'new'))
            print('  %-56s %-36s TFLOP/s old %6.1f new %6.1f %+5.1f%%' % (sh, k[:36], o, n, 100 * (n / o - 1)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
