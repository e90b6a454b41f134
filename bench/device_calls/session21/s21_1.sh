#!/usr/bin/env bash
# Session 21 call 1 (run 179): a by-name 256x128 swap entry (the 128x256 ws tile on D^T; removed
# after this run, slowest at 13 of 15 shapes; the kernels list below names its successor)
# checked against the reference (every layout and size of the generic sweep, its properties), then
# beside the cluster kernel, stream-K, ping-pong, 128x128 and cuBLAS in one process on tall.txt;
# a fresh random draw (random3.txt, seed 2027) and tall.txt through gemm(); session 20's prepared
# explain --measure at 6656x624x256 and 365x74x414. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*256x128x64_s4_ws_swapab*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
# By name, one process a shape: the 256x128 swap, the cluster kernel (plain, stream-K, two fitting
# widths), ping-pong 64x256, the unclustered 128x128, and cuBLAS.
i=0
grep -vE '^#|^$' bench/suites/tall.txt | while read -r m n k lay; do
  i=$((i+1)); dt=bf16; [ -n "${lay:-}" ] && dt=f16
  P=sm90_wgmma_${dt}_
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --A=$dt:row --B=$dt:column --C=$dt --D=$dt \
    --kernels=${P}256x128x64_s4_pc2x1_tmastore,${P}128x256x64_s3_pc2x1_tmastore,${P}128x256x64_s3_pc2x1_streamk,${P}64x256x64_s4_pingpong,${P}128x128x64_s4_ws,${P}128x144x64_s4_pc2x1_tmastore,${P}128x192x64_s4_pc2x1_tmastore,${P}192x192x64_s4_pc2x1_tmastore \
    --output=$W/tall_$i.csv > /dev/null 2>&1 || echo "rc=$? for $m $n $k"
done
echo "tall by name t=$SECONDS"
for s in tall random3; do
  timeout 200 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"
done
while read -r name args; do
  timeout 45 $B/tcgemm explain $args --measure > $W/explain_measure_${name}.txt 2>&1; echo "explain $name rc=$? t=$SECONDS"
done <<'LIST'
6656x624x256 --m=6656 --n=624 --k=256
365x74x414 --m=365 --n=74 --k=414 --B=bf16:row
LIST
cd $W && python3 - <<'PY'
import csv, math
rows = {}
import glob
for r in (r for f in sorted(glob.glob('tall_*.csv')) for r in csv.DictReader(open(f))):
    if r['disposition'] != 'passed': continue
    k = 'cublas' if r['provider'] == 'cublas' else r['kernel'].replace('sm90_wgmma_bf16_', '').replace('sm90_wgmma_f16_', '')
    rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {})[k] = float(r['runtime_ms']) * 1e3
names = sorted({k for d in rows.values() for k in d})
print('tall, same process, us: ' + ' | '.join(names))
for s, d in rows.items(): print('%16s ' % s + ' '.join('%7.1f' % d.get(k, 0) for k in names))
for s in ('tall', 'random3'):
    pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open(f'bench_{s}.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s: %d shapes, geomean %.3fx, %d below 0.8x' % (s, len(pk), math.exp(sum(math.log(x[0]) for x in pk) / max(1, len(pk))), sum(1 for x in pk if x[0] < 0.8)))
    for x in sorted(pk)[:12]: print('  %.3f %s %s' % x)
PY
grep -hE 'fastest|measured' $W/explain_measure_*.txt | head -12
tar -C $W -czf $OUT/run179.tar.gz .
