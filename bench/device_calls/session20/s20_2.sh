#!/usr/bin/env bash
# Session 20 call 2 (run 175): the whole GPU suite with the three new rules (128-row swap tiles for one
# round, the tiny kernel's row-block gate, stream-K's shared tail only from 16 k-blocks); the new
# cases under the sanitizers; stream-K against the plain cluster kernel at short K (the bound lifted
# by TCGEMM_DIAG_STREAMK_MIN_KTILES=1); the swaprows and tinyrows suites through gemm(). Summary last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run175.log.gz; rm $W/gpu_tests.log
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90Tiny.*bf16_42x40x456_Arow*splitsauto:*Sm90Tiny.*f16_17x64x1_AcolBrow*:*Sm90Tiny.*bf16_1000x33x77_ArowBcol_oddld*:*SwapABOneRound*' $W 150
unset TCGEMM_TEST_SMALL
export TCGEMM_DIAG_STREAMK_MIN_KTILES=1
timeout 120 $B/tcgemm profile --providers=tcgemm,cublas --m=6656 --n=624 --k=256,512,1024,2048 \
  --kernels=sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore,sm90_wgmma_bf16_128x256x64_s3_pc2x1_streamk --output=$W/sk_aligned.csv > /dev/null 2>&1
echo "sk aligned rc=$? t=$SECONDS"
timeout 120 $B/tcgemm profile --providers=tcgemm,cublas --m=4224 --n=4224 --k=256,512,1024 \
  --kernels=sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore,sm90_wgmma_bf16_128x256x64_s3_pc2x1_streamk --output=$W/sk_square.csv > /dev/null 2>&1
echo "sk square rc=$? t=$SECONDS"
timeout 120 $B/tcgemm profile --providers=tcgemm,cublas --m=6642 --n=625 --k=250,500,1000,2000 \
  --kernels=sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack,sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_streamk --output=$W/sk_repack.csv > /dev/null 2>&1
echo "sk repack rc=$? t=$SECONDS"
unset TCGEMM_DIAG_STREAMK_MIN_KTILES
for s in swaprows tinyrows; do
  timeout 100 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"
done
cd $W && python3 - <<'PY'
import csv, math
print('stream-K at short K, us: plain | shared | cublas')
for f in ('sk_aligned.csv', 'sk_square.csv', 'sk_repack.csv'):
    d = {}
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('sk' if 'streamk' in r['kernel'] else 'plain')
        d.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {})[k] = float(r['runtime_ms']) * 1e3
    for s, v in d.items(): print(f"{s:>16} {v.get('plain', 0):7.1f} | {v.get('sk', 0):7.1f} | {v.get('cublas', 0):7.1f}")
for s in ('swaprows', 'tinyrows'):
    pk = [(r['shape'][:40], r['kernel'], float(r['ratio_to_cublas'])) for r in csv.DictReader(open(f'bench_{s}.csv')) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s: geomean %.3fx' % (s, math.exp(sum(math.log(x[2]) for x in pk) / max(1, len(pk)))))
    for x in pk: print('  %-40s %-48s %.3f' % x)
PY
tar -C $W -czf $OUT/run175.tar.gz .
