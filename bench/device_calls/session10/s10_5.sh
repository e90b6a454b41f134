#!/usr/bin/env bash
# Session 10, call 5: a 64x128 tile on the persistent cluster kernel (one consumer warpgroup, 8
# stages, B shared by the pair): its epilogue tests + sanitizers, then the mid-size long-K shapes
# (run 98: gemm()'s split plans at 0.79-0.92x) with it by name beside gemm()'s pick and cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*PcBeta*64x128*' > $OUT/narrow_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/narrow_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/narrow_tests.log | head -40
for t in racecheck memcheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*Sm90PcBeta.*64x128*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
rm -f $OUT/san_memcheck.log $OUT/san_synccheck.log
run() {  # tag, profile args...
  local tag=$1; shift
  $B/tcgemm profile "$@" --providers=tcgemm,cublas --verification-enabled=true --output=$OUT/p_$tag.csv > /dev/null 2>&1 || echo "rc=$? $tag"
}
T='--kernels=*bf16_128xN_ws_splitk,*bf16_64x128x64_s8_pc2x1_tmastore,*bf16_128x128x64_s7_ws'
for s in "1024 1024 8192" "1024 1024 4096" "1024 2048 8192" "2048 1024 8192" "768 768 8192" "1024 1024 16384" "2048 2048 4096" "1024 1536 8192"; do set -- $s
  run t${1}x${2}x${3} --m=$1 --n=$2 --k=$3 "$T"
done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/profiles_run99.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/p_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, list(rows[0].keys())); w.writeheader()
    for r in rows:
        w.writerow(r)
        print('%-16s %-7s %-46s %-6s %8.1f us %s' % ('x'.join([r['m'], r['n'], r['k']]), r['provider'], r['kernel'][:46], r['disposition'][:6], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
cd $OUT && tar czf logs.tgz --remove-files *.log; ls
echo "=== done $(date +%T)"
