#!/usr/bin/env bash
# One call on the H200 (device tool): GPU tests, sanitizers on small sizes, the occupancy and FP8
# checks, profiles against cuBLAS and the PyTorch baseline; the short table last.
# Binaries are built here and carried in .device/ (BIN). Logs and CSVs go to $OUT.
# STAGES selects parts: tests,sanitize,profile,torch (default all).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.device}
OUT=${OUT:-/tmp/tcgemm-out}
STAGES=${STAGES:-tests,sanitize,profile,torch}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
has() { [[ ",$STAGES," == *",$1,"* ]]; }
step() { echo; echo "=== $* ($(date +%T))"; }

step device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee "$OUT/gpu.txt"

if has tests; then
  step "GPU tests (${GTEST_FILTER:-*})"
  TCGEMM_RESULTS_DIR="$OUT" timeout "${TEST_TIMEOUT:-400}" "$BIN/tcgemm_gpu_tests" --gtest_filter="${GTEST_FILTER:-*}" \
    >"$OUT/gpu_tests${TAG:+_$TAG}.log" 2>&1
  echo "rc=$?"
  log="$OUT/gpu_tests${TAG:+_$TAG}.log"
  grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran|occupancy check|\[bench\]' "$log" | head -60
  grep -B2 -A12 -m3 'Failure' "$log" | head -80
fi

if has sanitize; then
  for tool in memcheck racecheck synccheck; do
    step "compute-sanitizer $tool"
    TCGEMM_TEST_SMALL=1 timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$BIN/tcgemm_gpu_tests" --gtest_filter="${SAN_FILTER:-*Small*}" >"$OUT/san_$tool.log" 2>&1
    echo "$tool rc=$?"; grep -E 'ERROR SUMMARY|Error|tests ran' "$OUT/san_$tool.log" | head -5
  done
fi

if has profile; then
  step "profile vs cuBLAS"
  P="$BIN/tcgemm profile --providers=tcgemm,cublas --warmup-iterations=20 --profiling-iterations=50"
  $P --m=4096 --n=4096 --k=4096 --A=bf16:row --B=bf16:column --C=bf16 --kernels='*' --output="$OUT/profile_4096_bf16.csv" 2>&1 | tail -20
  ${PROFILE_EXTRA:-true}
fi

if has torch; then
  step "PyTorch baseline"
  timeout 240 python3 bench/torch_baseline.py 4096x4096x4096 8192x8192x8192 4097x4097x4097 16x8192x8192 \
    --dtypes bf16,f16,tf32 2>&1 | tee "$OUT/torch.txt" | tail -20
fi
