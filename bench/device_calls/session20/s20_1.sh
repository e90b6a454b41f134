#!/usr/bin/env bash
# Session 20 call 1 (run 174): the whole GPU suite (main since 447e4b0 had not run on the device, plus
# the tiny kernel's row blocks: min(M, N) up to 64 by name); the new row-block cases under the
# sanitizers; a fresh random suite (random2.txt, seed 2026) through gemm(); the tiny kernel by name
# beside gemm()'s pick and cuBLAS at min(M, N) of 17..64 (tinyrows.txt); the 64- and 128-row swap
# tiles at M <= 32 where the 64-row one needs two rounds. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run174.log.gz; rm $W/gpu_tests.log
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90Tiny.*42x40x456*:*Sm90Tiny.*17x64x1_*:*Sm90Tiny.*1000x33x77*' $W 100
unset TCGEMM_TEST_SMALL
timeout 200 $B/tcgemm bench --suite=bench/suites/random2.txt --kernels=gemm --output=$W/bench_random2.csv > $W/bench_random2.txt 2>&1
echo "random2 rc=$? t=$SECONDS"
timeout 60 $B/tcgemm bench --suite=bench/suites/tinyrows.txt --kernels=gemm --output=$W/bench_tinyrows.csv > $W/bench_tinyrows.txt 2>&1
echo "tinyrows rc=$? t=$SECONDS"
python3 - > $W/pairs.txt <<'PY'
import csv
for r in csv.DictReader(open('/tmp/w/bench_tinyrows.csv')):
    if r['provider'] == 'tcgemm_gemm_pick': print(r['shape'] + ' ' + r['kernel'])
PY
i=0
while read -r line; do
  i=$((i+1))
  m=$(echo "$line" | sed -E 's/.*m=([0-9]+).*/\1/'); n=$(echo "$line" | sed -E 's/.*n=([0-9]+).*/\1/')
  k=$(echo "$line" | sed -E 's/.*k=([0-9]+).*/\1/'); A=$(echo "$line" | sed -E 's/.*A=([a-z0-9:]+).*/\1/')
  Bs=$(echo "$line" | sed -E 's/.*B=([a-z0-9:]+).*/\1/'); D=$(echo "$line" | sed -E 's/.*D=([a-z0-9:]+).*/\1/')
  pick=$(echo "$line" | awk '{print $NF}'); dt=${A%%:*}
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --A=$A --B=$Bs --C=$D --D=$D \
    --kernels="$pick,sm90_simt_${dt}_16x32_tiny" --output=$W/p_$i.csv > /dev/null 2>&1 || echo "rc=$? for $line"
done < $W/pairs.txt
echo "pairs t=$SECONDS"
timeout 150 $B/tcgemm profile --providers=tcgemm,cublas --m=16,26 --n=9000,9666,16384 --k=32,128,512,2048 \
  --kernels='sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_16x128x64_s12_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_32x128x64_s11_swapab' \
  --output=$W/swap_widths.csv > $W/swap_widths.txt 2>&1
echo "swap widths rc=$? t=$SECONDS"
cd $W && python3 - <<'PY'
import csv, glob, math
rows = {}
for f in sorted(glob.glob('p_*.csv')):
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('tiny' if '_tiny' in r['kernel'] else 'pick')
        rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('tinyrows, same process, us: pick | tiny | cublas')
for s, d in rows.items():
    g = lambda k: ' '.join('%6.1f' % x for x in d.get(k, []))
    print(f"{s:>14} {g('pick'):>7} | {g('tiny'):>7} | {g('cublas'):>7}")
sw = {}
for r in csv.DictReader(open('swap_widths.csv')):
    if r['disposition'] != 'passed': continue
    k = 'cublas' if r['provider'] == 'cublas' else ('128' if 'x128x64' in r['kernel'] else '64')
    sw.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {})[k] = float(r['runtime_ms']) * 1e3
print('swap widths, us: 64-row | 128-row | cublas')
for s, d in sw.items(): print(f"{s:>14} {d.get('64', 0):7.1f} | {d.get('128', 0):7.1f} | {d.get('cublas', 0):7.1f}")
pk = [(float(r['ratio_to_cublas']), r['shape'][:44], r['kernel']) for r in csv.DictReader(open('bench_random2.csv')) if r['provider'] == 'tcgemm_gemm_pick']
print('random2: %d shapes, geomean %.3fx; below 0.85x:' % (len(pk), math.exp(sum(math.log(x[0]) for x in pk) / max(1, len(pk)))))
for x in sorted(pk)[:14]: print('  %.3f %s %s' % x)
PY
tar -C $W -czf $OUT/run174.tar.gz .
