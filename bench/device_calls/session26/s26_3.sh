#!/usr/bin/env bash
# Session 26 call 3: gemm() runs the unswapped 64x64 tile for M of 33-64 where its tiles fit one
# round (*_64x64x64_s14_narrow_midm). Its tests and the swap/cluster ones, sanitizers on the narrow
# entries' small cases; midm_split, smallm, skinny, random and decode_split through gemm(); by name,
# whether the unswapped tiles also win past the gate: midm128_split (M 65-128, two row tiles) and
# decode_split (M <= 32, 64x16/64x32 against the swap tiles); the swapped tiles' epilogue now stores
# a column-major 16-bit D in 16-byte columns (midm_split: the swapped 64x64 tile beside the
# unswapped one again, 18.5 against 15.7 us at 64x4096x4096 in run 199); the whole suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*NarrowMidM*:*narrow*:*SwapAB*:*SwapCluster*'
TCGEMM_TEST_SMALL=1 run_sanitizers 'AllKernels/*narrow*:*NarrowMidM*' $W 120
bench_suites midm_split smallm skinny random decode_split
N='sm90_wgmma_bf16_64x16x64_s16_narrow,sm90_wgmma_bf16_64x32x64_s16_narrow,sm90_wgmma_bf16_64x64x64_s14_narrow'
timeout 150 $B/tcgemm bench --suite=bench/suites/midm128_split.txt --kernels="$N,sm90_wgmma_bf16_128xN_ws_splitk" --output=$W/bench_midm128_narrow.csv > $W/bench_midm128_narrow.txt 2>&1; echo "midm128 narrow rc=$? t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/decode_split.txt --kernels="$N,sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab" --output=$W/bench_decode_narrow.csv > $W/bench_decode_narrow.txt 2>&1; echo "decode narrow rc=$? t=$SECONDS"
timeout 150 $B/tcgemm bench --suite=bench/suites/midm_split.txt --kernels='sm90_wgmma_bf16_64x64x64_s14_narrow,sm90_wgmma_bf16_64x64x64_s14_swapab' --output=$W/bench_midm_swap_vs_narrow.csv > $W/bench_midm_swap_vs_narrow.txt 2>&1; echo "midm swap/narrow rc=$? t=$SECONDS"
run_suite_if_time 400
cd $W && python3 - <<'PY'
import csv, math, collections
for f in ('bench_midm_split', 'bench_smallm', 'bench_skinny', 'bench_random', 'bench_decode_split'):
    g = [float(r['ratio_to_cublas']) for r in csv.DictReader(open(f + '.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%-20s geomean %.3fx over %d' % (f, math.exp(sum(map(math.log, g)) / len(g)), len(g)))
for f in ('bench_midm_split', 'bench_midm_swap_vs_narrow', 'bench_midm128_narrow', 'bench_decode_narrow'):
    t = collections.defaultdict(dict)
    for r in csv.DictReader(open(f + '.csv')):
        m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
        name = {'cublas': 'cublas', 'tcgemm_gemm_pick': 'gemm'}.get(r['provider'], r['kernel'].replace('sm90_wgmma_bf16_', '')[:14])
        t['%dx%dx%d' % (m, n, k)][name] = 2 * m * n * k / float(r['tflops']) / 1e6 if float(r['tflops']) > 0 else 0
    cols = sorted({c for v in t.values() for c in v})
    print(f, ' | '.join(cols))
    for s, v in t.items(): print('  %-15s' % s, ' '.join('%7.1f' % v.get(c, 0) for c in cols))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
