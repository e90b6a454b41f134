#!/usr/bin/env bash
# Session 23 call 1 (diagnosis of session 22's cp.async skinny kernel, run 184: 1x8192x8192 aligned
# 54 us against 37 on the swap tile, 697x15x12270 38 us against cuBLAS 21): ncu's stall reasons,
# occupancy and memory charts on both; the L2 fetch size of the copies (TCGEMM_DIAG_SKINNY_PREFETCH
# 0/1/2: sector, 128 B, 256 B) on skinny.txt by name; a forced cluster-size sweep on four shapes.
source "$(dirname "$0")/../session17/common.sh"
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats"
P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --providers=tcgemm"
timeout 60 ncu --clock-control none $S --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
  $P --m=1 --n=8192 --k=8192 --kernels=sm90_mma_bf16_16x64_skinny > $W/ncu_decode.txt 2>&1; echo "ncu1 rc=$? t=$SECONDS"
timeout 60 ncu --clock-control none $S --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
  $P --m=697 --n=15 --k=12270 --A=f16:row --B=f16:column --C=f16 --kernels=sm90_mma_f16_16x64_skinny > $W/ncu_697.txt 2>&1; echo "ncu2 rc=$? t=$SECONDS"
for pf in 0 1 2; do
  TCGEMM_DIAG_SKINNY_PREFETCH=$pf timeout 120 $B/tcgemm bench --suite=bench/suites/skinny.txt --kernels=sm90_mma_bf16_16x64_skinny,sm90_mma_f16_16x64_skinny --output=$W/bench_pf$pf.csv > $W/bench_pf$pf.txt 2>&1; echo "pf$pf rc=$? t=$SECONDS"
done
Q="$B/tcgemm profile --profiling-rounds=2 --profiling-duration=60 --split_k_slices=1,2,4,8"
$Q --m=1 --n=8192 --k=8192 --kernels=sm90_mma_bf16_16x64_skinny --output=$W/sweep_decode.csv > $W/sweep.txt 2>&1
$Q --m=697 --n=15 --k=12270 --A=f16:row --B=f16:column --C=f16 --kernels=sm90_mma_f16_16x64_skinny --output=$W/sweep_697.csv >> $W/sweep.txt 2>&1
$Q --m=491 --n=7 --k=3129 --A=f16:row --B=f16:column --C=f16 --kernels=sm90_mma_f16_16x64_skinny --output=$W/sweep_491.csv >> $W/sweep.txt 2>&1
$Q --m=16 --n=8191 --k=8191 --kernels=sm90_mma_bf16_16x64_skinny --output=$W/sweep_16.csv >> $W/sweep.txt 2>&1
echo "sweep t=$SECONDS"
grep -hE "Duration|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Block Limit|Warp Cycles Per Issued|Issued Warp|No Eligible|L2 Hit|Registers Per|Dynamic Shared|Waves Per SM|One or More|Stall|stall" $W/ncu_decode.txt $W/ncu_697.txt | cut -c1-150 | head -60
cd $W && python3 - <<'PY'
import csv, glob
def load(f):
    out = {}
    for r in csv.DictReader(open(f)):
        if r['provider'] == 'tcgemm': out[r['shape']] = (float(r['tflops']), float(r['ratio_to_cublas']))
    return out
d = [load('bench_pf%d.csv' % i) for i in range(3)]
print('ratio to cuBLAS by name: pf0 pf1 pf2 | shape')
for s in d[0]:
    print(' '.join('%6.3f' % x.get(s, (0, 0))[1] for x in d), '|', ' '.join(s.split()[:4]))
for f in sorted(glob.glob('sweep_*.csv')):
    for r in csv.DictReader(open(f)):
        print(f, r['problem'][:70], r['provider'], r['runtime_ms'], r['ratio_to_cublas'], r['detail'][:60])
PY
tar -C $W -czf $OUT/s23_1.tar.gz .
