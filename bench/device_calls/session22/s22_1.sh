#!/usr/bin/env bash
# Session 22 call 1: the skinny kernel (mma.sync, 16-byte loads along K realigned in registers).
# A smoke launch first (short timeout), its GPU tests, memcheck/racecheck/synccheck on its small
# cases, then skinny.txt three ways in interleaved-window benches: gemm() with the new gate, gemm()
# without it (TCGEMM_DIAG_NO_SKINNY_GATE=1: the previous picks), and the skinny kernel by name;
# cuBLAS in each process. Then the whole GPU suite. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 30 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='All/Sm90Skinny.*/bf16_2x777x4097_ArowBcol_oddld_splitsauto' > $W/smoke.log 2>&1
echo "smoke rc=$? t=$SECONDS"; tail -3 $W/smoke.log
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Skinny*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
mkdir -p $W/san; TCGEMM_TEST_SMALL=1 run_sanitizers '*Skinny*bf16_*tight*:*Skinny*f16_9x200x300*:*SkinnyPhases*' $W/san 120
echo "sanitizers t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=gemm --output=$W/bench_gate.csv > $W/bench_gate.txt 2>&1; echo "gate rc=$? t=$SECONDS"
TCGEMM_DIAG_NO_SKINNY_GATE=1 timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=gemm --output=$W/bench_nogate.csv > $W/bench_nogate.txt 2>&1; echo "nogate rc=$? t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=sm90_mma_bf16_16x64_skinny,sm90_mma_f16_16x64_skinny --output=$W/bench_byname.csv > $W/bench_byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
run_suite
cd $W && python3 - <<'PY'
import csv, math
def load(f, prov):
    out = {}
    try:
        for r in csv.DictReader(open(f)):
            if r['provider'] == prov: out[r['shape']] = (float(r['tflops']), float(r['ratio_to_cublas']), r['kernel'])
    except Exception as e: print(f, e)
    return out
g = load('bench_gate.csv', 'tcgemm_gemm_pick'); n = load('bench_nogate.csv', 'tcgemm_gemm_pick')
b = load('bench_byname.csv', 'tcgemm')
print('ratio to cuBLAS (us of the byname run) | shape | previous pick')
for s in n:
    m, nn, k = (int(t.split('=')[1]) for t in s.split()[:3])
    us = lambda d: 2 * m * nn * k / (d.get(s, (1e-30,))[0] * 1e6)
    print('gate %6.3f nogate %6.3f byname %6.3f (%7.1f us) | %s | %s' % (g.get(s, (0, 0))[1], n[s][1], b.get(s, (0, 0))[1], us(b), s, n[s][2]))
for name, d in (('gate', g), ('nogate', n), ('byname', b)):
    v = [x[1] for x in d.values() if x[1] > 0]
    if v: print('%s geomean %.3fx over %d' % (name, math.exp(sum(map(math.log, v)) / len(v)), len(v)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
