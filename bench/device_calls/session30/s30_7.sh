#!/usr/bin/env bash
# Session 30 call 7 (run 222): the multicast loads take the ws kernel's L2 policies too (mode 4:
# two-consumer tiles evict both first, one-consumer ones keep the shared operand). The multicast
# tests and sanitizers, then main's build (tcgemm_old) against it by name on the multicast entries,
# alternating processes, two passes.
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session30
run_tests '*Multicast*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*Multicast*' $W 60
K='_mc1x2,_mc2x1,_mc2x2,128x64x64_s9_ws,128x128x64_s7_ws_splitk'
for pass in 1 2; do
  for bin in tcgemm_old tcgemm; do
    [ $SECONDS -gt 280 ] && { echo "pass $pass $bin skipped t=$SECONDS"; break 2; }
    timeout 100 $B/$bin bench --suite=$D/swapmc.txt --kernels="$K" --output=$W/mc_${bin}_$pass.csv > $W/mc_${bin}_$pass.txt 2>&1
    echo "$bin pass $pass rc=$? t=$SECONDS"
  done
done
cd $W && python3 - <<'PY'
import glob, collections, math
t = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob('mc_*.txt')):
    b = 'old' if '_old_' in f else 'new'
    for line in open(f):
        x = line.split()
        if len(x) > 10 and x[0].startswith('m=') and x[6] == 'tcgemm' and x[8] == 'passed':
            t[(x[0] + x[1] + x[2], x[7].replace('sm90_wgmma_bf16_', ''))][b].append(float(x[10]) / 1e3)
ratios = collections.defaultdict(list)
for (sh, k), v in sorted(t.items()):
    if v['old'] and v['new']:
        r = (sum(v['new']) / len(v['new'])) / (sum(v['old']) / len(v['old']))
        ratios[k].append(r)
        if '_mc' in k: print('%-22s %-34s new/old %.3f (old %s | new %s TFLOP/s)' % (sh, k, r, '/'.join('%.0f' % y for y in v['old']), '/'.join('%.0f' % y for y in v['new'])))
for k, rs in sorted(ratios.items()):
    print('%-36s geomean new/old %.3f over %d shapes' % (k, math.exp(sum(map(math.log, rs)) / len(rs)), len(rs)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
