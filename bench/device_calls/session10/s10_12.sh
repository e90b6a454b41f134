#!/usr/bin/env bash
# Session 10, call 12 (final main): the whole GPU suite and the midsize suite through gemm() after
# the swapped entries' orientation and the M = 192 rule change.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|^\[==========\]' $OUT/gpu_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/gpu_tests.log | head -40
gzip -f $OUT/gpu_tests.log
timeout 150 $B/tcgemm bench --suite=midsize --kernels=gemm --output=$OUT/bench_midsize.csv > /dev/null 2>&1; echo "midsize rc=$?"
python3 - <<'PY'
import csv, math, os
rows = [r for r in csv.DictReader(open(os.environ['OUT'] + '/bench_midsize.csv')) if r['provider'] == 'tcgemm']
rs = [float(r['ratio_to_cublas']) for r in rows]
print('midsize geomean %.3f min %.3f n %d' % (math.exp(sum(map(math.log, rs)) / len(rs)), min(rs), len(rs)))
for r in rows: print('  ', r['shape'][:24], r['kernel'][11:52], r['tflops'][:6], r['ratio_to_cublas'][:5])
PY
