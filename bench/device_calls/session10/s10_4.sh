#!/usr/bin/env bash
# Session 10, call 4: beta != 0 on the swapped fitting widths (C^T's box TMA-loaded into the
# epilogue's): the swap tests + sanitizers, beta = 1 and f16 at the swapped shapes beside the plain
# cluster kernel and cuBLAS; then a tile sweep at the mid-size long-K shapes where the split-K
# planner picks (1024x1024x8192 ran 0.86x with 2 splits of 128x128; cuBLAS runs 128x64 unsplit).
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
    --gtest_filter='*Sm90PcSwap.*7x16x7*:*Sm90PcSwap.*154x1136x300*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
rm -f $OUT/san_memcheck.log $OUT/san_synccheck.log
run() {  # tag, profile args...
  local tag=$1; shift
  $B/tcgemm profile "$@" --providers=tcgemm,cublas --verification-enabled=true --output=$OUT/p_$tag.csv > /dev/null 2>&1 || echo "rc=$? $tag"
}
echo "=== beta and f16 $(date +%T)"
P='--kernels=*bf16_128xNfit_s4_pc2x1_swapab,*bf16_128x256x64_s3_pc2x1_tmastore'
run b320 --m=320 --n=8192 --k=8192 --beta=1 "$P"
run b640 --m=640 --n=8192 --k=8192 --beta=1 "$P"
F='--kernels=*f16_128xNfit_s4_pc2x1_swapab,*f16_128x256x64_s3_pc2x1_tmastore'
run f320 --m=320 --n=8192 --k=8192 --A=f16:row --B=f16:column --C=f16 "$F"
run f384 --m=384 --n=8192 --k=8192 --A=f16:row --B=f16:column --C=f16 "$F"
echo "=== long-K tile sweep $(date +%T)"
T='--kernels=*bf16_128xN_ws_splitk,*bf16_128x64x64_s9_ws,*bf16_128x128x64_s7_ws,*bf16_128x256x64_s3_pc2x1_tmastore'
for s in "1024 1024 8192" "1024 1024 4096" "768 768 8192" "1024 2048 8192" "512 512 16384"; do set -- $s
  run t${1}x${2}x${3} --m=$1 --n=$2 --k=$3 "$T"
done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/profiles_run97.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/p_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, list(rows[0].keys())); w.writeheader()
    for r in rows:
        w.writerow(r)
        print('%-16s b=%-4s %-4s %-7s %-46s %-6s %8.1f us %s' % ('x'.join([r['m'], r['n'], r['k']]), r['beta'], r['A'][:4], r['provider'], r['kernel'][:46], r['disposition'][:6], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
cd $OUT && tar czf logs.tgz --remove-files *.log; ls
echo "=== done $(date +%T)"
