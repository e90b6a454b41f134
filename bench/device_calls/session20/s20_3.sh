#!/usr/bin/env bash
# Session 20 call 3 (run 176): the tests touched after run 175 (stream-K's bound at 64 k-blocks);
# the tiny kernel by name beside the ungated pick (tiny_pairs.txt, picked here with
# TCGEMM_DIAG_NO_TINY_GATE=1) and cuBLAS, two processes; the 64- and 128-row swap tiles at long K;
# a short-K survey of our tiles (the next cliff class); the random2, random, tiny and cliffs suites
# through gemm(). Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*PcBeta*:*PcStreamK*:*RepackStrips*:*SwapAB*:*Tiny*:*KernelProperty*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
for pass in 1 2; do
  i=0
  while IFS='|' read -r args pick; do
    i=$((i+1)); dt=$(echo "$args" | grep -q f16: && echo f16 || echo bf16)
    timeout 60 $B/tcgemm profile --providers=tcgemm,cublas $args --kernels="$pick,sm90_simt_${dt}_16x32_tiny" \
      --output=$W/p${pass}_$i.csv > /dev/null 2>&1 || echo "rc=$? for $args"
  done < bench/device_calls/session20/tiny_pairs.txt
done
echo "pairs t=$SECONDS"
timeout 120 $B/tcgemm profile --providers=tcgemm,cublas --m=16,32 --n=9000,12288,16384 --k=4096,8192 \
  --kernels='sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_16x128x64_s12_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_32x128x64_s11_swapab' \
  --output=$W/swap_longk.csv > /dev/null 2>&1
echo "swap long-K rc=$? t=$SECONDS"
timeout 150 $B/tcgemm profile --providers=tcgemm,cublas --m=4096,8192 --n=4096,8192 --k=128,256,512 \
  --kernels='sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore,sm90_wgmma_bf16_128x256x64_s4_ws,sm90_wgmma_bf16_128x256x64_s4_ws_ds,sm90_wgmma_bf16_128x128x64_s4_ws,sm90_wgmma_bf16_128x64x64_s4_ws,sm90_wgmma_bf16_64x256x64_s4_pingpong,sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore' \
  --output=$W/shortk.csv > /dev/null 2>&1
echo "short-K rc=$? t=$SECONDS"
for s in random2 random tiny cliffs; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"
done
cd $W && python3 - <<'PY'
import csv, glob, math
rows = {}
for f in sorted(glob.glob('p[12]_*.csv')):
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('tiny' if '_tiny' in r['kernel'] else 'pick')
        rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('tiny pairs, same process, two passes, us: ungated pick | tiny | cublas')
for s, d in rows.items():
    g = lambda k: ' '.join('%5.1f' % x for x in d.get(k, []))
    print(f"{s:>14} {g('pick'):>11} | {g('tiny'):>11} | {g('cublas'):>11}")
def table(f, key):
    d = {}
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        d.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {})[key(r)] = float(r['runtime_ms']) * 1e3
    return d
sw = table('swap_longk.csv', lambda r: 'cublas' if r['provider'] == 'cublas' else ('128' if 'x128x64' in r['kernel'] else '64'))
print('swap long K, us: 64-row | 128-row | cublas')
for s, v in sw.items(): print(f"{s:>16} {v.get('64', 0):7.1f} | {v.get('128', 0):7.1f} | {v.get('cublas', 0):7.1f}")
sk = table('shortk.csv', lambda r: 'cublas' if r['provider'] == 'cublas' else r['kernel'].replace('sm90_wgmma_bf16_', ''))
names = sorted({k for v in sk.values() for k in v if k != 'cublas'})
print('short K, us: ' + ' | '.join(names) + ' | cublas')
for s, v in sk.items(): print(f"{s:>16} " + ' '.join('%6.1f' % v.get(n, 0) for n in names) + ' | %6.1f' % v.get('cublas', 0))
for s in ('random2', 'random', 'tiny', 'cliffs'):
    pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open(f'bench_{s}.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s: %d shapes, geomean %.3fx, %d below 0.8x' % (s, len(pk), math.exp(sum(math.log(x[0]) for x in pk) / max(1, len(pk))), sum(1 for x in pk if x[0] < 0.8)))
    for x in sorted(pk)[:6 if s != 'cliffs' else 10]: print('  %.3f %s %s' % x)
PY
tar -C $W -czf $OUT/run176.tar.gz .
