#!/usr/bin/env bash
# Session 11, calls 4, 5 and 7-10 (runs 112-118): swap A/B with a shared tail (swap_steal.cu), one
# script for every version of the kernel that was carried. Its GPU tests and sanitizers, then
# same-process profiles against the plain swap tile and cuBLAS at eight decode shapes, the trace of
# its CTAs, the plan sweeps named in KNOBS (';'-separated env assignments, each its own process),
# and with SUITE=1 the whole GPU suite. What each call passed (bench/results/README.md):
#   call 4 (run 112): SUITE=1, no KNOBS     call 5 (113): SUITE=1
#   call 7 (115): KNOBS='TCGEMM_STEAL_TAIL=1000 TCGEMM_STEAL_CHUNK=1;TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=4;
#                 TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=8;TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=2;TCGEMM_STEAL_TILE_MAJOR=1'
#   call 8 (116): SUITE=1 KNOBS='TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=4;TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=8;
#                 TCGEMM_STEAL_TAIL=3 TCGEMM_STEAL_CHUNK=4'
#   call 9 (117): KNOBS='TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=4;TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=8;
#                 TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=16;TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=8'
#   call 10 (118): KNOBS='TCGEMM_STEAL_TAIL=4 TCGEMM_STEAL_CHUNK=8;TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=16;
#                  TCGEMM_STEAL_TAIL=3 TCGEMM_STEAL_CHUNK=16'
# (TCGEMM_STEAL_TILE_MAJOR has since been removed; its runs are in the knobs file.)
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
echo "=== steal tests $(date +%T)"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SwapSteal*:*WsTrace*' > $OUT/steal_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/steal_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/steal_tests.log | head -50
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*Sm90SwapSteal.*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== profiles $(date +%T)"
P="$B/tcgemm profile --providers=tcgemm,cublas --verification-enabled=true"
for s in "16 8192 8192 bf16" "1 8192 8192 bf16" "16 8448 8192 bf16" "16 8192 4096 bf16" "16 8192 16384 bf16" "32 8192 8192 bf16" "16 8192 8192 f16" "8 7000 8192 bf16"; do set -- $s
  w=$([ $1 -le 16 ] && echo 16 || echo 32)
  $P --m=$1 --n=$2 --k=$3 --A=$4:row --B=$4:column --C=$4 --kernels="*${4}_${w}x64x64_s16_swapab*" --output=$OUT/st_${1}x${2}x${3}_$4.csv > /dev/null 2>&1 || echo "rc=$? $s"
done
python3 - <<'PY'
import csv, glob, os
O = os.environ['OUT']; out = open(O + '/steal_profiles.csv', 'w'); w = None
for f in sorted(glob.glob(O + '/st_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    for r in rows:
        if w is None: w = csv.DictWriter(out, fieldnames=list(r)); w.writeheader()
        w.writerow(r)
        print(r['m'], r['n'], r['k'], r['A'][:4], r['kernel'][:48].ljust(48), r['disposition'][:7], '%.2f us' % (1e3 * float(r['runtime_ms'])), r['ratio_to_cublas'])
PY
echo "=== trace $(date +%T)"
$B/tcgemm bandwidth --bytes=469762048 --grids=528 --iterations=200 > /dev/null
TCGEMM_RESULTS_DIR=$OUT TCGEMM_TRACE_SHAPES=16x8192x8192,16x8192x8192 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace|FAILED' | head -20
echo "=== knobs $(date +%T)"
P="$B/tcgemm profile --providers=tcgemm,cublas --verification-enabled=false --m=16 --n=8192 --k=8192 --kernels=*bf16_16x64x64_s16_swapab*"
run() { echo "--- $*"; env "$@" $P --output=$OUT/x.csv > /dev/null 2>&1; python3 -c "
import csv; [print('   ', r['kernel'][:44].ljust(44), '%.2f us' % (1e3*float(r['runtime_ms'])), r['ratio_to_cublas']) for r in csv.DictReader(open('$OUT/x.csv'))]"; }
IFS=';' read -ra sets <<< "${KNOBS:-}"
for k in "${sets[@]}"; do [ -n "$k" ] && run $k; done
if [ "${SUITE:-0}" = 1 ]; then
  echo "=== GPU suite $(date +%T)"
  timeout 240 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
  grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
fi
