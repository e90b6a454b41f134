#!/usr/bin/env bash
# Session 23 call 4 (final): call 2's lean skinny kernel (call 3's 128-byte loads made no difference
# and are not kept) with gemm()'s gate narrowed from call 2's numbers (K >= 1024, >= 64 CTAs, not
# where the row-class kernel applies). Its GPU tests, sanitizers, skinny.txt and tiny.txt through
# gemm() with and without the gate, then the whole GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Skinny*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
mkdir -p $W/san; TCGEMM_TEST_SMALL=1 run_sanitizers '*Skinny*bf16_*tight*:*Skinny*f16_9x200x300*:*SkinnyPhases*:*SkinnyNan*' $W/san 150
echo "sanitizers t=$SECONDS"
for s in skinny tiny; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_gate.csv > $W/bench_${s}_gate.txt 2>&1; echo "$s gate rc=$? t=$SECONDS"
  TCGEMM_DIAG_NO_SKINNY_GATE=1 timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_nogate.csv > $W/bench_${s}_nogate.txt 2>&1; echo "$s nogate rc=$? t=$SECONDS"
done
run_suite
cd $W && python3 - <<'PY'
import csv, math
def load(f):
    out = {}
    for r in csv.DictReader(open(f)):
        if r['provider'] == 'tcgemm_gemm_pick': out[r['shape']] = (float(r['tflops']), float(r['ratio_to_cublas']), r['kernel'])
    return out
for s in ('skinny', 'tiny'):
    g = load('bench_%s_gate.csv' % s); n = load('bench_%s_nogate.csv' % s)
    print('== %s: ratio to cuBLAS, gate then without | shape | pick' % s)
    for k in n:
        if g.get(k, (0, 0, ''))[2] != n[k][2]:
            print('%6.3f %6.3f | %s | %s (was %s)' % (g[k][1], n[k][1], ' '.join(k.split()[:4]), g[k][2], n[k][2]))
    for name, d in (('gate', g), ('nogate', n)):
        v = [x[1] for x in d.values() if x[1] > 0]
        print('%s geomean %.3fx over %d' % (name, math.exp(sum(map(math.log, v)) / len(v)), len(v)))
PY
tar -C $W -czf $OUT/s23_4.tar.gz .
