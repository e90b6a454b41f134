#!/usr/bin/env bash
# Session 19 call 4 (run 172): the generic property test fixed for the tiny kernel (run 171's four
# failures: it assumed every non-wgmma kernel takes any shape), the tiny NaN/Inf test; the random suite
# through gemm() with the tiny gate and without (run 171's random comparison left the gate off in both:
# the variable stayed exported). Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*KernelProperty*:*Tiny*:*FusedGate*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
for which in gate nogate; do
  if [ $which = nogate ]; then export TCGEMM_DIAG_NO_TINY_GATE=1; else unset TCGEMM_DIAG_NO_TINY_GATE; fi
  timeout 100 $B/tcgemm bench --suite=bench/suites/random.txt --kernels=gemm --output=$W/bench_random_$which.csv > $W/bench_random_$which.txt 2>&1
  echo "random $which rc=$? t=$SECONDS"
done
unset TCGEMM_DIAG_NO_TINY_GATE
cd $W && python3 - <<'PY'
import csv, math
pick = {}
for which in ('gate', 'nogate'):
    for r in csv.DictReader(open(f'bench_random_{which}.csv')):
        if r['provider'] == 'tcgemm_gemm_pick': pick.setdefault(r['shape'], {})[which] = (float(r['ratio_to_cublas']), r['kernel'])
both = [v for v in pick.values() if len(v) == 2]
gm = lambda w, vs: math.exp(sum(math.log(v[w][0]) for v in vs) / max(1, len(vs)))
moved = [(k, v) for k, v in pick.items() if len(v) == 2 and v['gate'][1] != v['nogate'][1]]
print(f'random: geomean to cuBLAS with the gate {gm("gate", both):.3f}x, without {gm("nogate", both):.3f}x; '
      f'{len(moved)} shapes moved ({gm("gate", [v for _, v in moved]):.3f}x / {gm("nogate", [v for _, v in moved]):.3f}x):')
for k, v in moved: print(f"  {k[:40]:>40} {v['gate'][0]:5.2f} / {v['nogate'][0]:5.2f}")
print('below 0.8x with the gate:', sum(1 for v in both if v['gate'][0] < 0.8), 'without:', sum(1 for v in both if v['nogate'][0] < 0.8))
PY
tar -C $W -czf $OUT/run172.tar.gz .
