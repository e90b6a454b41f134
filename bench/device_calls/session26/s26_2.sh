#!/usr/bin/env bash
# Session 26 call 2: the one-consumer narrow tiles unswapped (*_64x{16,32,64}x64_*_narrow: 64 rows
# of M by 16/32/64 of N, the swap plan; cuBLAS runs 64x4096x4096 on 64x32 tiles over all of K, run
# 198). Their sweep tests and sanitizers; midm_split by name beside the 64x64 swap tile and gemm();
# per-CTA traces of 64x4096x4096 on both tiles; ncu on the 64x32 one. Summary last.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*narrow*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*narrow*' $W 90
K='sm90_wgmma_bf16_64x*_narrow,sm90_wgmma_bf16_64x64x64_s14_swapab'
timeout 200 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels="$K" --output=$W/bench_midm_narrow.csv > $W/bench_midm_narrow.txt 2>&1; echo "midm narrow rc=$? t=$SECONDS"
bench_suites midm_split
for k in sm90_wgmma_bf16_64x64x64_s14_swapab sm90_wgmma_bf16_64x32x64_s16_narrow; do
  TCGEMM_TRACE_SHAPES=64x4096x4096,64x2048x8192 TCGEMM_TRACE_KERNEL=$k timeout 60 $B/tcgemm_gpu_tests \
    --gtest_filter='Sm90WsTrace.TimelineOfRequestedShapes' > $W/trace_$k.txt 2>&1; echo "trace $k rc=$?"
  grep '\[trace\]' $W/trace_$k.txt
done
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=64 --n=4096 --k=4096"
timeout 60 ncu --clock-control none $S --kernel-name regex:wgmma_tma_ws --launch-skip 2 --launch-count 1 \
  $P --providers=tcgemm --kernels=sm90_wgmma_bf16_64x32x64_s16_narrow > $W/ncu_64x4096_narrow32.txt 2>&1; echo "ncu rc=$? t=$SECONDS"
grep -E 'Duration|DRAM Throughput|Elapsed Cycles|SM Active|Grid Size|Cluster Size|Registers' $W/ncu_64x4096_narrow32.txt
run_suite_if_time 330
cd $W && python3 - <<'PY'
import csv, math, collections
for f in ('bench_midm_narrow', 'bench_midm_split'):
    t = collections.defaultdict(dict)
    for r in csv.DictReader(open(f + '.csv')):
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        name = 'cublas' if r['provider'] == 'cublas' else ('gemm' if r['provider'] == 'tcgemm_gemm_pick' else r['kernel'].replace('sm90_wgmma_bf16_', ''))
        t['%dx%dx%d' % (m, n, k)][name] = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
    cols = sorted({c for v in t.values() for c in v})
    print(f, ' | '.join(cols))
    for s, v in t.items(): print('  %-15s' % s, ' '.join('%7.1f' % v.get(c, 0) for c in cols))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
