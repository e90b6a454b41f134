#!/usr/bin/env bash
# Session 17 call 6 (run 163, branch exp/fused-cooperative): the fused entry launched cooperatively
# (co-residency guaranteed beside other grids), with PDL (default) and without (TCGEMM_DIAG_FUSED_LAUNCH=coop),
# against the old PDL-only launch (=pdl): the fused GPU tests, sanitizers on a few cases, then six small
# K-major misaligned shapes through the fused entry and gemm()'s pick in each mode.
source "$(dirname "$0")/common.sh"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90RepackFused*' > $W/fused_tests.log 2>&1
echo "fused tests (coop+pdl) rc=$?"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $W/fused_tests.log | head -6
grep -m3 -B3 "Failure" $W/fused_tests.log
TCGEMM_DIAG_FUSED_LAUNCH=coop timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90RepackFused*' > $W/fused_tests_coop.log 2>&1
echo "fused tests (coop) rc=$?"; grep -E '^\[  FAILED|^\[  PASSED' $W/fused_tests_coop.log | head -3
SAN='Small/Sm90RepackFused*1x1x1*:Small/Sm90RepackFused*196x511x198*'
run_sanitizers "$SAN" $W 100
echo "t=$SECONDS"
K='*bf16_128xN_ws_repack_fused,*bf16_128xN_ws_repack_splitk'
for mode in pdl coop both; do
  for s in "21 4 1457" "260 79 1508" "495 178 198" "196 511 198" "2 12 2006" "333 777 4099"; do set -- $s
    TCGEMM_DIAG_FUSED_LAUNCH=$mode timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --kernels="$K" --m=$1 --n=$2 --k=$3 \
      --output=$W/p_${mode}_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? for $mode $*"
  done
  echo "mode $mode t=$SECONDS"
done
cd $W && head -1 $(ls p_*.csv | head -1) > coop.csv && for f in p_*.csv; do m=${f#p_}; m=${m%%_*}; tail -n +2 $f | sed "s/^/$m,/" >> coop.csv; done
sed -i '1s/^/mode,/' coop.csv
python3 - <<'PY'
import csv
rows = {}
for r in csv.DictReader(open('coop.csv')):
    if r['disposition'] != 'passed': continue
    k = r['kernel'].replace('sm90_wgmma_bf16_128xN_ws_', '') if r['provider'] == 'tcgemm' else 'cublas'
    rows.setdefault(('%sx%sx%s' % (r['m'], r['n'], r['k']), k), {})[r['mode']] = float(r['runtime_ms']) * 1e3
print('shape, path: us in modes pdl / coop / both')
for (s, k), v in sorted(rows.items()):
    print(f"{s:>13} {k:>16} " + ' / '.join(f"{v.get(m, 0):6.1f}" for m in ('pdl', 'coop', 'both')))
PY
tar -C $W -czf $OUT/run163.tar.gz .
