#!/usr/bin/env bash
# Session 21 call 4 (run 182, final main): the whole GPU suite (the tall tile's gated entry, its rule
# test and the new instances' generic sweep included), then tall.txt through gemm(). Summary last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
grep -E 'Tall|256x128x64_s4_pc2x1' $W/gpu_tests.log | grep -E 'FAILED' | head -5
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run182.log.gz; rm $W/gpu_tests.log
timeout 60 $B/tcgemm bench --suite=bench/suites/tall.txt --kernels=gemm --output=$W/bench_tall.csv > $W/bench_tall.txt 2>&1
echo "tall rc=$? t=$SECONDS"
cd $W && python3 - <<'PY'
import csv, math
pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open('bench_tall.csv')) if r['provider'] == 'tcgemm_gemm_pick']
print('tall: %d shapes, geomean %.3fx, %d below 0.8x' % (len(pk), math.exp(sum(math.log(x[0]) for x in pk) / len(pk)), sum(1 for x in pk if x[0] < 0.8)))
for x in pk: print('  %.3f %s %s' % x)
PY
tar -C $W -czf $OUT/run182.tar.gz .
