#!/usr/bin/env bash
# Session 29 call 5 (run 215): the unswapped narrow tiles take a column-major A (MN-major 64x64
# boxes). The whole suite and sanitizers on the new build, then the build before (tcgemm_old, run
# 214's) against it in alternating processes: two passes of the column-major-A suite and of
# midm_split (the K-major control).
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session29
run_suite
grep -E "ColumnMajorA|WhoTakesMOf128" $W/gpu_tests.log | head -5
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*' $W 100
for pass in 1 2; do
  for bin in tcgemm_old tcgemm; do
    for s in colmajor_a midm_split; do
      [ $SECONDS -gt 330 ] && { echo "pass $pass $bin $s skipped t=$SECONDS"; break 3; }
      f=$D/$s.txt; [ -f $f ] || f=bench/suites/$s.txt
      timeout 60 $B/$bin bench --suite=$f --kernels=gemm --output=$W/ab_${s}_${bin}_$pass.csv > /dev/null 2>&1
      echo "$bin $s pass $pass rc=$? t=$SECONDS"
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('colmajor_a', 'midm_split'):
    per = collections.defaultdict(lambda: collections.defaultdict(list))
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        b = 'old' if '_old_' in f else 'new'
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] in ('tcgemm_gemm_pick', 'cublas')]
        g = [float(r['ratio_to_cublas']) for r in rows if r['provider'] == 'tcgemm_gemm_pick']
        if g: print('%-34s geomean %.3fx' % (f, math.exp(sum(map(math.log, g)) / len(g))))
        for r in rows: per[r['shape'].split(' D=')[0]][(b, r['provider'][:6], r['kernel'][:34])].append(float(r['tflops']))
    if s == 'colmajor_a':
        for sh, v in per.items():
            print('  %-44s' % sh, ' | '.join('%s %s %s' % (k[0], k[2], '/'.join('%.0f' % x for x in v[k])) for k in sorted(v)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
