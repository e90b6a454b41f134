#!/usr/bin/env bash
# Session 17 call 4 (run 161): final main's binaries: the whole GPU suite, and `explain --measure` at
# 200x1500x3001 and 333x777x4099 with the planned entries priced on their plan's tile (tile_for).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B; W=/tmp/w; mkdir -p $W
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
SECONDS=0; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $W/gpu_tests.log 2>&1; echo "suite rc=$? t=$SECONDS"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests.log | head -12
for s in "200 1500 3001" "333 777 4099"; do set -- $s
  timeout 90 $B/tcgemm explain --m $1 --n $2 --k $3 --measure > $W/explain_measure_${1}x${2}x${3}.txt 2>&1
  echo "== ${1}x${2}x${3} rc=$?"; grep -E "128xN_ws_repack|cuBLAS \(|fastest" $W/explain_measure_${1}x${2}x${3}.txt
done
tar -C $W -czf $OUT/run161.tar.gz .
