#!/usr/bin/env bash
# Session 35 call 1: racecheck on the persistent-cluster small cases (one process a test, run
# together: run 226's one process stopped at its limit), the per-CTA trace of the persistent cluster
# kernel (new) and of the ws split pass's slab stores at sustained clocks, the tall and cliffs
# suites through gemm(), then the whole GPU suite (the trace hooks touch both kernels).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
  TCGEMM_TEST_SMALL=1 timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests \
    --gtest_brief=1 --gtest_filter="Sm90PersistentClusterSmall.$t" > $W/race_$t.log 2>&1 &
done
wait
for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
  echo "racecheck $t: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $W/race_$t.log | tr '\n' ' ')"
done
echo "t=$SECONDS"; save
run_tests '*Sm90WsTrace*'
TCGEMM_TRACE_SHAPES=6144x640x2048,6656x520x2048,6656x624x1024,4224x4224x4224,512x1024x32768,256x256x65536 \
  TCGEMM_TRACE_BEFORE=2000 TCGEMM_RESULTS_DIR=$W timeout 120 $B/tcgemm_gpu_tests \
  --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace.log 2>&1
echo "trace rc=$? t=$SECONDS"; grep '\[trace\]' $W/trace.log; save
bench_suites tall cliffs
save
run_suite_if_time 480
save
for s in tall cliffs; do echo "== $s"; tail -22 $W/bench_$s.txt | cut -c1-150; done
