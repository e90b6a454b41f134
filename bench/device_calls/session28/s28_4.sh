#!/usr/bin/env bash
# Session 28 call 4: run 209's ncu showed the one-consumer tiles' consumers waiting on the full
# barrier (data late) with the ring full of loads, at 46% of DRAM where cuBLAS's same-shaped tile
# reaches 56%. TCGEMM_DIAG_L2_HINT puts L2 eviction policies on the plain TMA loads: 1 = the shared
# operand evict_last and the streamed one evict_first, 2 = both evict_first. The whole suite with
# h = 1, then h = 0/1/2 in alternating processes: the one-consumer entries by name and four suites
# through gemm().
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session28
TCGEMM_DIAG_L2_HINT=1 run_suite
K=sm90_wgmma_bf16_64x32x64_s16_narrow,sm90_wgmma_bf16_64x64x64_s14_narrow,sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_64x64x64_s14_swapab,sm90_wgmma_bf16_128x128x64_s7_ws_splitk,sm90_wgmma_bf16_128x64x64_s9_ws_splitk
for pass in 1 2; do
  for h in 0 1 2; do
    [ $SECONDS -gt 500 ] && { echo "pass $pass h=$h skipped t=$SECONDS"; break 2; }
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
d = collections.defaultdict(list)
for f in glob.glob('byname_h*_*.txt'):
    h = f.split('_')[1]
    for l in open(f):
        t = l.split()
        if len(t) > 10 and t[0].startswith('m=') and 'passed' in t:
            d[(t[0] + t[1] + t[2], t[7], h)].append(float(t[t.index('passed') + 1]) * 1000)
for s, k in sorted(set((a, b) for a, b, _ in d)):
    m = [sum(d.get((s, k, h), [0])) / max(len(d.get((s, k, h), [0])), 1) for h in ('h0', 'h1', 'h2')]
    print('%-22s %-44s h0 %6.2f h1 %6.2f h2 %6.2f' % (s, k, *m))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
