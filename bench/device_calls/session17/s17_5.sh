#!/usr/bin/env bash
# Session 17 call 5 (run 162, diagnosis for the next session): the random suite's smallest
# misaligned problems, where gemm() runs 0.5-0.85x cuBLAS (run 159), through gemm()'s pick, the fused
# entry (one launch where A/B are K-major), the repack path unsplit, the one-launch wmma_tiled kernel
# (any shape and alignment) and cuBLAS, in one process, two processes.
source "$(dirname "$0")/common.sh"
K='*bf16_128xN_ws_repack_splitk,*bf16_128xN_ws_repack_fused,*bf16_128x256x64_s4_ws_repack,wmma_tiled_bf16_128x128x32'
for pass in a b; do
  while read -r m n k a b; do
    timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --kernels="$K" --m=$m --n=$n --k=$k --A=bf16:$a --B=bf16:$b \
      --output=$W/p_${pass}_${m}x${n}x${k}.csv > /dev/null 2>&1 || echo "rc=$? for $m $n $k"
  done <<'S'
1 617 633 row row
495 178 198 row column
6 9 257 row column
260 79 1508 row column
438 190 642 row column
21 4 1457 row column
10 26 199 column column
2 12 2006 row column
S
  echo "pass $pass t=$SECONDS"
done
cd $W && head -1 $(ls p_*.csv | head -1) > tiny.csv && for f in p_*.csv; do tail -n +2 $f >> tiny.csv; done
python3 - <<'PY'
import csv
rows = {}
for r in csv.DictReader(open('tiny.csv')):
    if r['disposition'] != 'passed': continue
    k = r['kernel'].replace('sm90_wgmma_bf16_', '') if r['provider'] == 'tcgemm' else 'cublas'
    rows.setdefault(('%sx%sx%s' % (r['m'], r['n'], r['k']), k), []).append(float(r['runtime_ms']) * 1e3)
for (s, k), v in sorted(rows.items()):
    print(f"{s:>13} {k[-30:]:>30} " + ' '.join(f'{x:6.1f}' for x in v))
PY
cp tiny.csv $OUT/
