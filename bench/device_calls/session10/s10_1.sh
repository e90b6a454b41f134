#!/usr/bin/env bash
# Session 10, call 1: the swapped fitting widths (pc_swap.hpp, D^T = B^T A^T on 128x144-192, a
# column-major D from the cluster kernel): their tests + sanitizers, the affected mid-size shapes
# beside the unswapped kernels and cuBLAS, the midsize suite through gemm(), the whole GPU suite
# (also the first GPU run of session 9's review refactor).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
echo "=== swap tests $(date +%T)"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*PcSwap*' > $OUT/swap_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/swap_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/swap_tests.log | head -40
for t in racecheck memcheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*Sm90PcSwap.*7x16x7*:*Sm90PcSwap.*129x264x129*:*Sm90PcSwap.*154x1136x300*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
rm -f $OUT/san_memcheck.log $OUT/san_synccheck.log
echo "=== swapped against unswapped $(date +%T)"
K='--kernels=*bf16_128xNfit_s4_pc2x1_swapab,*bf16_128xNfit_s4_pc2x1_tmastore,*bf16_128x256x64_s3_pc2x1_tmastore'
for s in "320 8192 8192" "384 8192 8192" "154 11328 13808" "640 8192 8192" "440 10768 6312"; do set -- $s
  $B/tcgemm profile --m=$1 --n=$2 --k=$3 "$K" --providers=tcgemm,cublas --verification-enabled=true \
    --output=$OUT/sw_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? $s"
done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/swap_profiles.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/sw_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, list(rows[0].keys())); w.writeheader()
    for r in rows:
        w.writerow(r)
        print('%-18s %-7s %-46s %-6s %8.1f us %7.1f TFLOP/s %s' % ('x'.join([r['m'], r['n'], r['k']]), r['provider'], r['kernel'][:46], r['disposition'][:6], 1e3 * float(r['runtime_ms']), float(r['gflops']) / 1e3, r['ratio_to_cublas']))
PY
echo "=== midsize $(date +%T)"
timeout 150 $B/tcgemm bench --suite=midsize --kernels=gemm --output=$OUT/bench_midsize.csv > $OUT/bench_midsize.txt 2>&1; echo "midsize rc=$?"
python3 - <<'PY'
import csv, math, os
rows = [r for r in csv.DictReader(open(os.environ['OUT'] + '/bench_midsize.csv')) if r['provider'] == 'tcgemm']
rs = [float(r['ratio_to_cublas']) for r in rows]
print('midsize geomean %.3f min %.3f n %d' % (math.exp(sum(map(math.log, rs)) / len(rs)), min(rs), len(rs)))
for r in rows: print('  ', r['shape'][:24], r['kernel'][11:52], r['tflops'][:6], r['ratio_to_cublas'][:5])
PY
echo "=== GPU tests $(date +%T)"
timeout 260 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/gpu_tests.log | head -40
cd $OUT && tar czf logs.tgz --remove-files *.log *.txt; ls
echo "=== done $(date +%T)"
