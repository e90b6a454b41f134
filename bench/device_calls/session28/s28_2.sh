#!/usr/bin/env bash
# Session 28 call 2: TCGEMM_DIAG_K_ROTATE=1 starts each plain TMA tile at k-block (tm + tn) of
# its range, so the co-resident CTAs that share A (decode: all of them) ask L2 for different
# k-blocks of it at a time. The whole suite with it on (correctness of every rotated path), then
# off/on in alternating processes: the one-consumer entries by name and five suites through gemm().
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session28
TCGEMM_DIAG_K_ROTATE=1 run_suite
K=sm90_wgmma_bf16_64x32x64_s16_narrow,sm90_wgmma_bf16_64x64x64_s14_narrow,sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_64x64x64_s14_swapab,sm90_wgmma_bf16_128x128x64_s7_ws_splitk,sm90_wgmma_bf16_128x64x64_s9_ws_splitk
for pass in 1 2; do
  [ $SECONDS -gt 420 ] && { echo "pass $pass skipped t=$SECONDS"; break; }
  for r in 0 1; do
    TCGEMM_DIAG_K_ROTATE=$r timeout 60 $B/tcgemm bench --suite=$D/byname.txt --kernels=$K --output=$W/byname_r${r}_$pass.csv > $W/byname_r${r}_$pass.txt 2>&1
    echo "r=$r byname pass $pass rc=$? t=$SECONDS"
    for s in smallm decode_split midm_split multicast peak; do
      TCGEMM_DIAG_K_ROTATE=$r timeout 70 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/ab_${s}_r${r}_$pass.csv > /dev/null 2>&1
      rc=$?; echo "r=$r $s pass $pass rc=$rc t=$SECONDS"; [ $rc = 124 ] && break 3
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob, collections
for s in ('smallm', 'decode_split', 'midm_split', 'multicast', 'peak'):
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-30s geomean %.3fx  %s' % (f, math.exp(sum(map(math.log, g)) / len(g)), ' '.join('%.3f' % x for x in g)))
d = collections.defaultdict(list)
for f in glob.glob('byname_r*_*.txt'):
    r = f.split('_')[1]
    for l in open(f):
        t = l.split()
        if len(t) > 10 and t[0].startswith('m=') and 'passed' in t:
            d[(t[0] + t[1] + t[2], t[7], r)].append(float(t[t.index('passed') + 1]) * 1000)
for s, k in sorted(set((a, b) for a, b, _ in d)):
    o, n = d.get((s, k, 'r0'), [0]), d.get((s, k, 'r1'), [0])
    mo, mn = sum(o) / len(o), sum(n) / len(n)
    print('%-22s %-44s r0 %6.2f r1 %6.2f %.3f' % (s, k, mo, mn, mn / mo if mo else 0))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
