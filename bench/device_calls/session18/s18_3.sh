#!/usr/bin/env bash
# Session 18 call 3 (run 166): gemm()'s gate onto the fused repack path (`_repack_fused_small`: K-major
# A/B breaking TMA's rule, at most 1 MiB of copies). Its tests and the fused tests, sanitizers on two
# small gated cases; the tiny K-major shapes of runs 155/162 through the gated entry and the copies
# kernel's path (`_repack_splitk`, gemm()'s pick before) beside cuBLAS, two processes; then the random
# and unaligned suites through gemm() with the gate and without (TCGEMM_DIAG_NO_FUSED_GATE=1).
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*FusedGate*:*RepackFused*' > $W/gate_tests.log 2>&1
echo "gate+fused tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $W/gate_tests.log | head -8
grep -m4 -B2 -A8 "Failure" $W/gate_tests.log | head -40
run_sanitizers '*Sm90FusedGatePick*21x4x1457*:*Sm90FusedGatePick*6x9x257*' $W 90
echo "t=$SECONDS"
P() { timeout 60 $B/tcgemm profile --providers=tcgemm,cublas "$@" > /dev/null 2>&1 || echo "rc=$? for $*"; }
K='*bf16_128xN_ws_repack_fused_small,*bf16_128xN_ws_repack_splitk'
for pass in a b; do
  for s in "21 4 1457" "260 79 1508" "2 12 2006" "495 178 198" "6 9 257" "438 190 642" "196 511 198" "300 200 1001" "64 1200 333"; do
    set -- $s
    P --m=$1 --n=$2 --k=$3 --lda=$3 --ldb=$3 --kernels="$K" --output=$W/t_${pass}_${1}x${2}x${3}.csv
  done
done
echo "tiny t=$SECONDS"
for s in random unaligned; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_gate.csv > $W/bench_${s}_gate.txt 2>&1
  echo "$s gate rc=$? t=$SECONDS"; grep -E 'geomean' $W/bench_${s}_gate.txt
  TCGEMM_DIAG_NO_FUSED_GATE=1 timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_nogate.csv > $W/bench_${s}_nogate.txt 2>&1
  echo "$s no gate rc=$? t=$SECONDS"; grep -E 'geomean' $W/bench_${s}_nogate.txt
done
cd $W && head -1 $(ls t_*.csv | head -1) > tiny.csv && for f in t_*.csv; do tail -n +2 $f >> tiny.csv; done
python3 - <<'PY'
import csv
rows = {}
for r in csv.DictReader(open('tiny.csv')):
    if r['disposition'] != 'passed': continue
    k = r['kernel'].replace('sm90_wgmma_bf16_128xN_ws_', '') if r['provider'] == 'tcgemm' else 'cublas'
    rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('tiny K-major misaligned, us (two processes): fused_small | repack_splitk | cublas')
for s, d in rows.items():
    f = lambda k: ' '.join('%5.1f' % x for x in d.get(k, []))
    print(f"{s:>14} {f('repack_fused_small'):>12} | {f('repack_splitk'):>12} | {f('cublas'):>12}")
PY
python3 - <<'PY'
import csv, math
for s in ('random', 'unaligned'):
    pick = {}
    for which in ('gate', 'nogate'):
        for r in csv.DictReader(open(f'bench_{s}_{which}.csv')):
            if r['provider'] != 'tcgemm_gemm_pick': continue
            pick.setdefault(r['shape'], {})[which] = (float(r['ratio_to_cublas']), r['kernel'])
    moved = [(k, v) for k, v in pick.items() if 'gate' in v and 'nogate' in v and v['gate'][1] != v['nogate'][1]]
    print(f'{s}: {len(moved)} shapes change kernel; ratio to cuBLAS with gate / without:')
    for k, v in moved:
        print(f"  {k[:44]:>44} {v['gate'][0]:5.2f} / {v['nogate'][0]:5.2f}")
    if moved:
        g = math.exp(sum(math.log(v['gate'][0]) for _, v in moved) / len(moved))
        n = math.exp(sum(math.log(v['nogate'][0]) for _, v in moved) / len(moved))
        print(f'  geomean over the moved shapes: {g:.3f} / {n:.3f}')
PY
tar -C $W -czf $OUT/run166.tar.gz .
