#!/usr/bin/env bash
# Session 29 call 1 (run 211): the one-consumer tiles now put L2 policies on their plain TMA loads
# by default (mode 3: the operand more tiles share evict_last, the streamed one evict_first; run
# 210 measured 2.5-4% by name with mode 1 on every tile, but smallm 1% slower). The whole suite
# and sanitizers on the default build, then mode 0 (off) against the default in alternating
# processes: the one-consumer entries by name and four suites through gemm(), three passes.
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session29
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90Multicast*64x32*' $W 50
K=sm90_wgmma_bf16_64x32x64_s16_narrow,sm90_wgmma_bf16_64x64x64_s14_narrow,sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_64x64x64_s14_swapab,sm90_wgmma_bf16_128x128x64_s7_ws_splitk
for pass in 1 2 3; do
  for h in 0 3; do
    [ $SECONDS -gt 520 ] && { echo "pass $pass h=$h skipped t=$SECONDS"; break 2; }
    TCGEMM_DIAG_L2_HINT=$h timeout 60 $B/tcgemm bench --suite=$D/byname.txt --kernels=$K --output=$W/byname_h${h}_$pass.csv > $W/byname_h${h}_$pass.txt 2>&1
    echo "h=$h byname pass $pass rc=$? t=$SECONDS"
    for s in smallm decode_split midm_split multicast; do
      TCGEMM_DIAG_L2_HINT=$h timeout 70 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/ab_${s}_h${h}_$pass.csv > /dev/null 2>&1
      rc=$?; echo "h=$h $s pass $pass rc=$rc t=$SECONDS"; [ $rc = 124 ] && break 3
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('smallm', 'decode_split', 'midm_split', 'multicast'):
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-30s geomean %.3fx  %s' % (f, math.exp(sum(map(math.log, g)) / len(g)), ' '.join('%.3f' % x for x in g)))
        if s == 'smallm' and f.endswith('_1.csv'): print('   picks:', ' | '.join(r['kernel'] for r in rows))
d = collections.defaultdict(list)
for f in glob.glob('byname_h*_*.csv'):
    h = f.split('_')[1]
    for r in csv.DictReader(open(f)):
        k = r['kernel'] if r['provider'] == 'tcgemm' else r['provider']
        d[(r['shape'].split(' A=')[0], k, h)].append(float(r['tflops']))
for s, k in sorted(set((a, b) for a, b, _ in d)):
    m = [sum(d[(s, k, h)]) / len(d[(s, k, h)]) if d.get((s, k, h)) else 0 for h in ('h0', 'h3')]
    print('%-16s %-44s TFLOP/s h0 %7.1f h3 %7.1f  %+.1f%%' % (s, k, m[0], m[1], 100 * (m[1] / m[0] - 1) if m[0] else 0))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
