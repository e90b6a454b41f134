#!/usr/bin/env bash
# Session 18 call 4 (run 167, final main): the fused gate with its per-CTA bound (<= 64 KiB of copies a
# CTA of the plan, after run 166's three losses at 74-95 KB). The whole GPU suite; the random suite
# through gemm() with the gate and without (TCGEMM_DIAG_NO_FUSED_GATE=1), the unaligned and cliffs
# suites with it. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run167.log.gz
for which in gate nogate; do
  if [ $which = nogate ]; then export TCGEMM_DIAG_NO_FUSED_GATE=1; fi
  timeout 150 $B/tcgemm bench --suite=bench/suites/random.txt --kernels=gemm --output=$W/bench_random_$which.csv > $W/bench_random_$which.txt 2>&1
  echo "random $which rc=$? t=$SECONDS"; grep -E 'pick' $W/bench_random_$which.txt
done
unset TCGEMM_DIAG_NO_FUSED_GATE
for s in unaligned cliffs; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"; grep -E 'pick' $W/bench_$s.txt
done
tail -14 $W/bench_cliffs.txt
cd $W && python3 - <<'PY'
import csv, math
pick = {}
for which in ('gate', 'nogate'):
    for r in csv.DictReader(open(f'bench_random_{which}.csv')):
        if r['provider'] != 'tcgemm_gemm_pick': continue
        pick.setdefault(r['shape'], {})[which] = (float(r['ratio_to_cublas']), r['kernel'])
moved = [(k, v) for k, v in pick.items() if 'gate' in v and 'nogate' in v and v['gate'][1] != v['nogate'][1]]
print(f'random: {len(moved)} shapes change kernel; ratio to cuBLAS with gate / without:')
for k, v in moved:
    print(f"  {k[:44]:>44} {v['gate'][0]:5.2f} / {v['nogate'][0]:5.2f}")
if moved:
    g = math.exp(sum(math.log(v['gate'][0]) for _, v in moved) / len(moved))
    n = math.exp(sum(math.log(v['nogate'][0]) for _, v in moved) / len(moved))
    print(f'  geomean over the moved shapes: {g:.3f} / {n:.3f}')
PY
tar -C $W -czf $OUT/run167.tar.gz --exclude=gpu_tests.log .
