#!/usr/bin/env bash
# Session 35 call 2 (s35_1 split in two after the device was taken back mid-call): the trace tests,
# the per-CTA traces at sustained clocks, and the tall and cliffs suites through gemm().
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*Sm90WsTrace*'
TCGEMM_TRACE_SHAPES=6144x640x2048,6656x520x2048,6656x624x1024,4224x4224x4224,512x1024x32768,256x256x65536 \
  TCGEMM_TRACE_BEFORE=2000 TCGEMM_RESULTS_DIR=$W timeout 120 $B/tcgemm_gpu_tests \
  --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace.log 2>&1
echo "trace rc=$? t=$SECONDS"; grep '\[trace\]' $W/trace.log; save
bench_suites tall cliffs
save
for s in tall cliffs; do echo "== $s"; tail -24 $W/bench_$s.txt | cut -c1-160; done
