#!/usr/bin/env bash
# One device call for branch pcsk (stream-K + run-time raster of the persistent cluster kernel):
# the new GPU tests, the sanitizers on their Small cases, two sustained bench passes (stream-K vs
# the plain cluster kernel vs cuBLAS, SM clock and power logged alongside), and the raster/swizzle
# sweep at 4096^3 and 8192^3; sanitizers last (slowest). Everything lands in $OUT/pcsk.tar.gz,
# re-archived after each part (the tool returns 8 files at most, and what a timeout leaves).
# PASSES: bench pass numbers (default "1 2"; every pass but number 2 verifies); RASTER=0 skips
# the sweep.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.device_pcsk}
R=/tmp/pcsk_out
mkdir -p "$R" "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
step() { echo; echo "=== $* ($(date +%T))"; }
finish() { tar -C "$R" -czf "$OUT/pcsk.tar.gz" . ; }
trap finish EXIT

step device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee "$R/gpu.txt"

step "GPU tests"
timeout 120 "$BIN/tcgemm_gpu_tests" --gtest_filter='*PcStreamK*:*PcRaster*:*PcRepackStreamK*' >"$R/gpu_tests.log" 2>&1
echo "rc=$?"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' "$R/gpu_tests.log" | head -30
grep -B2 -A10 -m3 'Failure' "$R/gpu_tests.log" | head -40

K='*_s3_pc2x1_tmastore,*_s3_pc2x1_streamk,*_pc2x1_repack,*_pc2x1_repack_streamk'
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 250 >"$R/smi.csv" 2>&1 &
SMI=$!
for pass in ${PASSES:-1 2}; do
  step "bench pass $pass"
  v=true; [ "$pass" = 2 ] && v=false
  timeout 80 "$BIN/tcgemm" bench --suite=pcsk --kernels="$K" --verification-enabled=$v \
    --output="$R/bench_pass$pass.csv" >"$R/bench_pass$pass.txt" 2>&1
  echo "rc=$?"; finish; grep -E 'streamk|tmastore|repack|cublas|cuBLAS' "$R/bench_pass$pass.txt" | grep -v not_supported | head -30
done
[ "${RASTER:-1}" = 0 ] || for n in 4096 8192; do
  step "raster sweep $n"
  timeout 50 "$BIN/tcgemm" profile --m=$n --n=$n --k=$n --kernels='*bf16*_s3_pc2x1_tmastore' \
    --raster_order=along_m,along_n --swizzle_size=1,2,4,8,16 --verification-enabled=false \
    --warmup-iterations=20 --profiling-iterations=50 --output="$R/raster_$n.csv" >"$R/raster_$n.txt" 2>&1
  echo "rc=$?"; grep -E 'tmastore|cublas' "$R/raster_$n.txt" | grep -v not_supported | head -24
done
kill $SMI 2>/dev/null
finish

for tool in memcheck racecheck synccheck; do
  step "compute-sanitizer $tool"
  TCGEMM_TEST_SMALL=1 timeout 45 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$BIN/tcgemm_gpu_tests" --gtest_filter='*PcStreamK*Small*' >"$R/san_$tool.log" 2>&1
  echo "$tool rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED|FAILED' "$R/san_$tool.log" | head -5
done

