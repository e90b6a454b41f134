#!/usr/bin/env bash
# Runs the GPU tests under compute-sanitizer (memcheck, racecheck, synccheck) on small sizes only
# (TCGEMM_TEST_SMALL=1 keeps every dimension <= 127), so each tool finishes in minutes.
# Usage: scripts/sanitize.sh [gtest filter]   (default: every kernel and gemm() test)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
BIN=${BUILD_DIR:-build}/tcgemm_gpu_tests
FILTER=${1:-'AllKernels/*:Gemm.*'}
[[ -x "$BIN" ]] || { echo "no test binary at $BIN (build first: scripts/build.sh)" >&2; exit 1; }
command -v compute-sanitizer >/dev/null || { echo "compute-sanitizer not found" >&2; exit 1; }
export TCGEMM_TEST_SMALL=1
status=0
for tool in memcheck racecheck synccheck; do
  echo "=== compute-sanitizer --tool $tool ==="
  extra=()
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  if ! compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 \
       "$BIN" --gtest_filter="$FILTER" --gtest_brief=1; then
    echo "!!! $tool reported errors" >&2
    status=1
  fi
done
exit $status
