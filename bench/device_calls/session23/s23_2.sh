#!/usr/bin/env bash
# Session 23 call 2: the skinny kernel's loop made lean (run 185's ncu: 1 instruction in 5 cycles at
# one warp a scheduler, ~190 instructions a warp-step): unrolled blocks of 8 steps with immediate
# slot and source offsets, element-wise loads out of line and only in a checked tail, a
# realign-free instance for aligned operands, ranks down to 256 k. Smoke, its GPU tests,
# sanitizers, skinny.txt through gemm() with and without the gate and by name, ncu on two shapes,
# then the whole GPU suite. Summary last.
source "$(dirname "$0")/../session17/common.sh"
timeout 30 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='All/Sm90Skinny.*/bf16_2x777x4097_ArowBcol_oddld_splitsauto' > $W/smoke.log 2>&1
echo "smoke rc=$? t=$SECONDS"; tail -2 $W/smoke.log
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Skinny*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
mkdir -p $W/san; TCGEMM_TEST_SMALL=1 run_sanitizers '*Skinny*bf16_*tight*:*Skinny*f16_9x200x300*:*SkinnyPhases*:*Skinny*8x64x8192*' $W/san 150
echo "sanitizers t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=gemm --output=$W/bench_gate.csv > $W/bench_gate.txt 2>&1; echo "gate rc=$? t=$SECONDS"
TCGEMM_DIAG_NO_SKINNY_GATE=1 timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=gemm --output=$W/bench_nogate.csv > $W/bench_nogate.txt 2>&1; echo "nogate rc=$? t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=sm90_mma_bf16_16x64_skinny,sm90_mma_f16_16x64_skinny --output=$W/bench_byname.csv > $W/bench_byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats"
P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --providers=tcgemm"
timeout 60 ncu --clock-control none $S --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
  $P --m=1 --n=8192 --k=8192 --kernels=sm90_mma_bf16_16x64_skinny > $W/ncu_decode.txt 2>&1; echo "ncu1 rc=$? t=$SECONDS"
timeout 60 ncu --clock-control none $S --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
  $P --m=697 --n=15 --k=12270 --A=f16:row --B=f16:column --C=f16 --kernels=sm90_mma_f16_16x64_skinny > $W/ncu_697.txt 2>&1; echo "ncu2 rc=$? t=$SECONDS"
run_suite
for f in ncu_decode ncu_697; do echo "== $f"; grep -E "Duration|DRAM Throughput|Issued Warp|Warp Cycles Per Issued|Achieved Active Warps" $W/$f.txt | cut -c1-100; done
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
b = load('bench_byname.csv', 'tcgemm'); c = load('bench_byname.csv', 'cublas')
print('ratio to cuBLAS: gate nogate byname (us byname, cuBLAS) | shape | previous pick')
for s in n:
    m, nn, k = (int(t.split('=')[1]) for t in s.split()[:3])
    us = lambda d: 2 * m * nn * k / (d[s][0] * 1e6) if s in d and d[s][0] > 0 else float('nan')
    print('%6.3f %6.3f %6.3f (%7.1f %7.1f) | %s | %s' % (g.get(s, (0, 0))[1], n[s][1], b.get(s, (0, 0))[1], us(b), us(c), ' '.join(s.split()[:4]), n[s][2]))
for name, d in (('gate', g), ('nogate', n), ('byname', b)):
    v = [x[1] for x in d.values() if x[1] > 0]
    if v: print('%s geomean %.3fx over %d' % (name, math.exp(sum(map(math.log, v)) / len(v)), len(v)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
