#!/usr/bin/env bash
# Session 18 call 5 (run 168): run 167's random-suite comparison of the fused gate was across processes
# (gate / no gate), where these ~10 us problems swing by 20-30% against cuBLAS. Here the twelve shapes
# the gate moved run through both entries in one process (the gated fused entry and the copies
# kernel's `_repack_splitk`, gemm()'s pick without the gate), two processes.
source "$(dirname "$0")/../session17/common.sh"
K='*bf16_128xN_ws_repack_fused_small,*bf16_128xN_ws_repack_splitk'
for pass in a b; do
  for s in "21 4 1457" "51 162 837" "16 105 173" "124 4 171" "24 27 500" "2 12 2006" "14 3 650" "6 9 257" "6 298 173" "260 79 1508" "196 511 198" "495 178 198"; do
    set -- $s
    timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --lda=$3 --ldb=$3 --kernels="$K" \
      --output=$W/t_${pass}_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? for $*"
  done
  echo "pass $pass t=$SECONDS"
done
cd $W && head -1 $(ls t_*.csv | head -1) > moved.csv && for f in t_*.csv; do tail -n +2 $f >> moved.csv; done
python3 - <<'PY'
import csv, statistics as st
rows = {}
for r in csv.DictReader(open('moved.csv')):
    if r['disposition'] != 'passed': continue
    k = r['kernel'].replace('sm90_wgmma_bf16_128xN_ws_', '') if r['provider'] == 'tcgemm' else 'cublas'
    rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('shape: us in two processes, fused_small | repack_splitk | cublas; fused faster in n of 2')
wins = 0; total = 0
for s, d in rows.items():
    f, c = d.get('repack_fused_small', []), d.get('repack_splitk', [])
    n = sum(1 for x, y in zip(f, c) if x < y); wins += n; total += min(len(f), len(c))
    g = lambda k: ' '.join('%5.1f' % x for x in d.get(k, []))
    print(f"{s:>13} {g('repack_fused_small'):>17} | {g('repack_splitk'):>17} | {g('cublas'):>17}  {n}")
print(f'fused faster in {wins} of {total} same-process pairs')
PY
tar -C $W -czf $OUT/run168.tar.gz .
