#!/usr/bin/env bash
# Session 37 call 2: split-K's f32 slabs stored by bulk copies through shared memory
# (slab_bulk_store.cuh) in place of 8-byte register stores. Correctness first (the split-K, fold
# and cluster-split tests, sanitizers on their small cases), then the A/B through gemm() on the
# split-K suite in four processes, bulk on / off / off / on (TCGEMM_DIAG_NO_SLAB_BULK=1 is off),
# the per-CTA trace of three split shapes with it on, the whole GPU suite, racecheck on the
# persistent-cluster small cases (unverified since run 226) if time is left.
# Prediction: run 232's slab epilogue at 512x1024x32768 (median 6.1 us of ~60) falls to ~3 us,
# the pass ~5% faster (0.945x -> ~0.99x); 256x256x65536 (2.3 us) ~3%; no split shape slower.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*SplitK*:*Slab*:*Fold*:*SwapClusterSplit*:*StreamK*'
grep -B2 -A8 -m3 Failure $W/tests.log | head -30
TCGEMM_TEST_SMALL=1 run_sanitizers '*Sm90SplitKTilesSmall*:*SlabFoldSmall*' $W 100
save
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
pass=0
for mode in on off off on; do
  pass=$((pass + 1))
  if [ $mode = off ]; then export TCGEMM_DIAG_NO_SLAB_BULK=1; else unset TCGEMM_DIAG_NO_SLAB_BULK; fi
  timeout 100 $B/tcgemm bench --suite=bench/suites/splitk.txt --kernels=gemm \
    --output=$W/bench_splitk_${mode}_pass$pass.csv > $W/bench_splitk_${mode}_pass$pass.txt 2>&1
  echo "splitk pass $pass ($mode) rc=$? t=$SECONDS"
done
unset TCGEMM_DIAG_NO_SLAB_BULK
save
TCGEMM_TRACE_SHAPES=512x1024x32768,256x256x65536,128x8192x28672 TCGEMM_TRACE_BEFORE=2000 TCGEMM_RESULTS_DIR=$W \
  timeout 60 $B/tcgemm_gpu_tests --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace.log 2>&1
echo "trace rc=$? t=$SECONDS"; grep -E '\[trace\].*(CTAs|epilogue|last MMA done|clock)' $W/trace.log
save
run_suite
save
if [ $SECONDS -lt 360 ]; then
  for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
    TCGEMM_TEST_SMALL=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests \
      --gtest_brief=1 --gtest_filter="Sm90PersistentClusterSmall.$t" > $W/race_$t.log 2>&1 &
  done
  wait
  for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
    echo "racecheck $t: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $W/race_$t.log | tr '\n' ' ')"
  done
fi
echo "t=$SECONDS"; save
python3 bench/device_calls/session37/ab_table.py $W/bench_splitk_on_pass*.csv -- $W/bench_splitk_off_pass*.csv
