#!/usr/bin/env bash
# Session 27 call 3: multicast lost by name on every shape of run 202 (64x4096x4096: the 64x32
# tile in 1x2 clusters 20.2 us against 16.2 unshared in run 199). gemm()'s suites that the changed
# kernel serves (regression check against runs 200-201), ncu on the 64x32 tile with and without
# multicast at 64x4096x4096, then the whole suite.
source "$(dirname "$0")/../session17/common.sh"
bench_suites midm_split decode_split
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=64 --n=4096 --k=4096 --providers=tcgemm"
for k in 64x32x64_s16_narrow 64x32x64_s16_mc1x2; do
  timeout 60 ncu --clock-control none $S --kernel-name regex:wgmma_tma_ws --launch-skip 2 --launch-count 1 \
    $P --kernels=sm90_wgmma_bf16_$k > $W/ncu_64x4096_$k.txt 2>&1; echo "ncu $k rc=$? t=$SECONDS"
  grep -E 'Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Hit|L2 Hit|Registers Per|Cluster Size|Stall|No Eligible|Issued Warp' $W/ncu_64x4096_$k.txt | head -16
done
run_suite_if_time 200
cd $W && python3 - <<'PY'
import csv, math
for s in ('midm_split', 'decode_split'):
    rows = [r for r in csv.DictReader(open('bench_%s.csv' % s))]
    g = [float(r['ratio_to_cublas']) for r in rows if r['provider'] == 'tcgemm_gemm_pick']
    print('%s geomean %.3fx over %d' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
    t = {}
    for r in rows:
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        if r['provider'] in ('tcgemm_gemm_pick', 'cublas'):
            t.setdefault('%dx%dx%d' % (m, n, k), {})[r['provider']] = 2 * m * n * k / float(r['tflops']) / 1e6
    for key, v in t.items(): print('  %-15s ours %6.1f  cublas %6.1f' % (key, v['tcgemm_gemm_pick'], v['cublas']))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
