#!/usr/bin/env bash
# Session 11, call 6 (diagnosis): why swap-steal streams at ~2.5 TB/s (call 5: 54 us from first to
# last full stage on every CTA, against ~30 us for the plain swap tile). The pool's order and
# chunk size by the experiment knobs, each in its own process beside the plain tile and cuBLAS,
# and traces with the head's end stamped.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
P="$B/tcgemm profile --providers=tcgemm,cublas --verification-enabled=false --m=16 --n=8192 --k=8192 --kernels=*bf16_16x64x64_s16_swapab*"
run() { echo "--- $*"; env "$@" $P --output=$OUT/x.csv > /dev/null 2>&1; python3 -c "
import csv; [print('   ', r['kernel'][:44].ljust(44), '%.2f us' % (1e3*float(r['runtime_ms'])), r['ratio_to_cublas']) for r in csv.DictReader(open('$OUT/x.csv'))]"; }
run X=1
run TCGEMM_STEAL_TILE_MAJOR=1
run TCGEMM_STEAL_CHUNK=16
run TCGEMM_STEAL_CHUNK=16 TCGEMM_STEAL_TILE_MAJOR=1
run TCGEMM_STEAL_TAIL=8 TCGEMM_STEAL_CHUNK=8
run TCGEMM_STEAL_TAIL=1000 TCGEMM_STEAL_CHUNK=1
run TCGEMM_STEAL_TAIL=2 TCGEMM_STEAL_CHUNK=16 TCGEMM_STEAL_TILE_MAJOR=1
echo "=== traces $(date +%T)"
for e in X=1 TCGEMM_STEAL_TILE_MAJOR=1 TCGEMM_STEAL_TAIL=1000; do echo "--- $e"
  env $e TCGEMM_TRACE_SHAPES=16x8192x8192 $B/tcgemm_gpu_tests --gtest_filter='*WsTrace.Timeline*' 2>&1 | grep -E '\[trace' | head -12
done
