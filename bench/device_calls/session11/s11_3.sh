#!/usr/bin/env bash
# Session 11, call 3: the ws kernel's L2 prefetch of its first ring-full before the PDL wait.
# Whole GPU suite; then the wsprefetch suite through gemm() with the prefetch on and off
# (TCGEMM_NO_L2_PREFETCH=1), alternating processes, 2 each; then the traces again.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "=== GPU suite $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -40
echo "=== A/B $(date +%T)"
for pass in 1 2; do for pf in 1 0; do
  if [ $pf = 0 ]; then export TCGEMM_NO_L2_PREFETCH=1; else unset TCGEMM_NO_L2_PREFETCH; fi
  $B/tcgemm bench --suite=bench/suites/wsprefetch.txt --kernels=gemm --output=$OUT/ab_pf${pf}_p${pass}.csv > $OUT/ab_pf${pf}_p${pass}.txt 2>&1; echo "rc=$? pf=$pf pass=$pass"
done; done
unset TCGEMM_NO_L2_PREFETCH
python3 - <<'PY'
import csv, os, collections
O = os.environ['OUT']; r = collections.defaultdict(dict)
for pf in (1, 0):
    for p in (1, 2):
        for row in csv.DictReader(open(f'{O}/ab_pf{pf}_p{p}.csv')):
            if row['provider'] != 'tcgemm_gemm_pick': continue
            r[row['shape'].split(' A=')[0]][(pf, p)] = float(row['ratio_to_cublas'])
print('shape | prefetch p1 p2 | none p1 p2')
for s, v in r.items():
    print(s, '|', v.get((1, 1)), v.get((1, 2)), '|', v.get((0, 1)), v.get((0, 2)))
PY
echo "=== traces $(date +%T)"
TCGEMM_RESULTS_DIR=$OUT TCGEMM_TRACE_SHAPES=16x8192x8192,128x8192x28672 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace*' 2>&1 | grep -E '\[trace|FAILED' | head -30
