#!/usr/bin/env bash
# Session 27 call 4: run 203 put gemm()'s midm_split at 0.932x and decode_split at 0.947x (runs
# 200-201: 0.956-0.970x, 1.009-1.187x) with the multicast code compiled into every K-major ws
# instance behind a run-time flag. It is now its own instances (kMc); this call times main before
# session 27 (tcgemm_old) against this build in alternating processes, then the multicast tests
# and sanitizers on the new instances, and the whole suite.
source "$(dirname "$0")/../session17/common.sh"
for pass in 1 2; do
  for bin in tcgemm_old tcgemm; do
    for s in midm_split decode_split; do
      timeout 60 $B/$bin bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/ab_${s}_${bin}_$pass.csv > /dev/null 2>&1
      echo "$bin $s pass $pass rc=$? t=$SECONDS"
    done
  done
done
run_tests '*Multicast*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*Multicast*' $W 45
run_suite_if_time 330
cd $W && python3 - <<'PY'
import csv, math, glob
for s in ('midm_split', 'decode_split'):
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        g = [float(r['ratio_to_cublas']) for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        us = [2 * eval('*'.join(x.split('=')[1] for x in r['shape'].split()[:3])) / float(r['tflops']) / 1e6
              for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        print('%-40s geomean %.3fx  ours(us) %s' % (f, math.exp(sum(map(math.log, g)) / len(g)), ' '.join('%.1f' % u for u in us)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
