#!/usr/bin/env bash
# Session 21 call 3 (run 181): call 2 again after the hang's fix (the consumers' setmaxnreg.inc
# asked for more registers than the 640-thread CTA was launched with), with gemm()'s tall rule:
# a smoke launch first (the call stops if it hangs), the tile's sweep and property tests, the three
# sanitizers on its small cases, the tiles by name on tall.txt, then tall.txt through gemm().
source "$(dirname "$0")/../session17/common.sh"
timeout 20 $B/tcgemm profile --providers=tcgemm --m=6656 --n=624 --k=256 --kernels=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore > $W/smoke.txt 2>&1
rc=$?; echo "smoke rc=$rc"; tail -3 $W/smoke.txt; [ $rc = 0 ] || { tar -C $W -czf $OUT/run181.tar.gz .; exit 1; }
timeout 100 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*256x128x64_s4_pc2x1*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
export TCGEMM_TEST_SMALL=1
run_sanitizers '*bf16_256x128x64_s4_pc2x1*' $W 50
unset TCGEMM_TEST_SMALL
# By name, one process a shape: the tall 256x128 tile, the cluster kernel (plain, stream-K, two fitting
# widths), ping-pong 64x256, the unclustered 128x128, and cuBLAS.
i=0
grep -vE '^#|^$' bench/suites/tall.txt | while read -r m n k lay; do
  i=$((i+1)); dt=bf16; [ -n "${lay:-}" ] && dt=f16
  P=sm90_wgmma_${dt}_
  timeout 25 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --A=$dt:row --B=$dt:column --C=$dt --D=$dt \
    --kernels=${P}256x128x64_s4_pc2x1_tmastore,${P}128x256x64_s3_pc2x1_tmastore,${P}128x256x64_s3_pc2x1_streamk,${P}64x256x64_s4_pingpong,${P}128x128x64_s4_ws,${P}128x144x64_s4_pc2x1_tmastore,${P}128x192x64_s4_pc2x1_tmastore,${P}192x192x64_s4_pc2x1_tmastore \
    --output=$W/tall_$i.csv > /dev/null 2>&1 || echo "rc=$? for $m $n $k"
done
echo "tall by name t=$SECONDS"
timeout 60 $B/tcgemm bench --suite=bench/suites/tall.txt --kernels=gemm --output=$W/bench_tall.csv > $W/bench_tall.txt 2>&1
echo "tall through gemm() rc=$? t=$SECONDS"
cd $W && python3 - <<'PY'
import csv, math
rows = {}
import glob
for r in (r for f in sorted(glob.glob('tall_*.csv')) for r in csv.DictReader(open(f))):
    if r['disposition'] != 'passed': continue
    k = 'cublas' if r['provider'] == 'cublas' else r['kernel'].replace('sm90_wgmma_bf16_', '').replace('sm90_wgmma_f16_', '')
    rows.setdefault('%s %sx%sx%s' % (r['A'][:4], r['m'], r['n'], r['k']), {})[k] = float(r['runtime_ms']) * 1e3
names = sorted({k for d in rows.values() for k in d})
print('tall, same process, us: ' + ' | '.join(names))
for s, d in rows.items(): print('%16s ' % s + ' '.join('%7.1f' % d.get(k, 0) for k in names))
for s in ('tall',):
    pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open(f'bench_{s}.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s: %d shapes, geomean %.3fx, %d below 0.8x' % (s, len(pk), math.exp(sum(math.log(x[0]) for x in pk) / max(1, len(pk))), sum(1 for x in pk if x[0] < 0.8)))
    for x in sorted(pk)[:12]: print('  %.3f %s %s' % x)
PY
tar -C $W -czf $OUT/run181.tar.gz .
