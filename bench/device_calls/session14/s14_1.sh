#!/usr/bin/env bash
# Session 14, call 1 (diagnosis): what the split-K reduce costs on a real timeline. gemm() at the
# issue's split shapes, then the same with TCGEMM_DIAG_SKIP_REDUCE=1 (the pass alone, D unwritten,
# so unverified), then per-CTA traces of the pass.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
SHAPES="333x777x4099 256x256x65536 512x1024x32768 1024x1024x8192 128x8192x28672 768x768x8192"
for s in $SHAPES; do
  IFS=x read m n k <<< "$s"
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --output=$OUT/full_$s.csv 2>&1 | grep -E "^m=" | awk '{print "full", $1,$2,$3,$7,$8,$9,$10,$NF}'
  TCGEMM_DIAG_SKIP_REDUCE=1 timeout 60 $B/tcgemm profile --providers=tcgemm --verification-enabled=false --m=$m --n=$n --k=$k --output=$OUT/skip_$s.csv 2>&1 | grep -E "^m=" | awk '{print "skip", $1,$2,$3,$7,$8,$9,$10}'
done
echo "=== traces $(date +%T)"
TCGEMM_TRACE_SHAPES=333x777x4099,256x256x65536,512x1024x32768,1024x1024x8192 timeout 120 $B/tcgemm_gpu_tests --gtest_filter='Sm90WsTrace.TimelineOfRequestedShapes' > $OUT/trace.log 2>&1; echo rc=$?
grep "\[trace\]" $OUT/trace.log | head -50
cd $OUT && head -1 full_333x777x4099.csv > profiles.csv && for f in full_*.csv skip_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f full_*.csv skip_*.csv
