#!/usr/bin/env bash
# Session 30 call 6 (run 221): mbarrier waits with a 10 ms suspend-time hint (the warp sleeps in
# hardware until the phase completes; run 220: sustained loops sit at the 700 W cap, 1250-1700 MHz,
# and a grid's streaming time follows the SM clock). The whole suite and sanitizers on the hinted
# build, then the build before (tcgemm_old) against it in alternating processes through gemm().
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session30
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*' $W 100
for pass in 1 2; do
  for bin in tcgemm_old tcgemm; do
    for s in swapmc decode_split midm_split cliffs peak; do
      [ $SECONDS -gt 470 ] && { echo "pass $pass $bin $s skipped t=$SECONDS"; break 3; }
      f=$D/$s.txt; [ -f $f ] || f=bench/suites/$s.txt
      timeout 90 $B/$bin bench --suite=$f --kernels=gemm --output=$W/ab_${s}_${bin}_$pass.csv > /dev/null 2>&1
      echo "$bin $s pass $pass rc=$? t=$SECONDS"
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('swapmc', 'decode_split', 'midm_split', 'cliffs', 'peak'):
    line = []
    for b in ('tcgemm_old', 'tcgemm'):
        for f in sorted(glob.glob('ab_%s_%s_[0-9].csv' % (s, b))):
            g = [float(r['ratio_to_cublas']) for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
            if g: line.append('%s %.3f' % ('old' if b.endswith('old') else 'new', math.exp(sum(map(math.log, g)) / len(g))))
    print('%-13s geomean vs cuBLAS: %s' % (s, ' | '.join(line)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
