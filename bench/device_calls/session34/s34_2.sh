#!/usr/bin/env bash
# Session 34 call 2: the fold with explicit epilogue roundings (bitwise equal to the reduce now,
# run 229 differed by FMA contraction where beta != 0) and up to 32 loads / 8 positions a thread.
# 1. The fold and split-K tests; the sanitizers on the fold's small cases.
# 2. The cliffs suite in three modes, one process each, order fold nofold foldpdl foldpdl nofold
#    fold: the fold cooperative (default), the fold under PDL alone (TCGEMM_DIAG_FUSED_LAUNCH=pdl:
#    also the in-copy grids' launch), no fold. Run 229 measured the fold 10% slower at
#    256x256x65536 and 4% at 128x8192x28672; if the launch is why, foldpdl recovers it; if the
#    reduce's parallelism is, the wider batches do (prediction: 128x8192x28672 level or better).
# 3. The whole GPU suite.
# (Then the fold was on by default and TCGEMM_DIAG_NO_FOLD=1 turned it off; since the end of session 34
# it is off unless TCGEMM_DIAG_FOLD=1.)
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*SlabFold*:*Sm90SplitKTiles*:*Sm90Planned*'; cp $W/tests.log $W/tests_fold.log
grep -E 'Failure' -A8 $W/tests_fold.log | head -30
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 80 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests \
    --gtest_filter='*Sm90SlabFoldSmall*' > $W/san_$t.log 2>&1
  echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san_$t.log | head -2
done
save
n=0
for mode in fold nofold foldpdl foldpdl nofold fold; do
  n=$((n + 1))
  unset TCGEMM_DIAG_NO_FOLD TCGEMM_DIAG_FUSED_LAUNCH
  [ $mode = nofold ] && export TCGEMM_DIAG_NO_FOLD=1
  [ $mode = foldpdl ] && export TCGEMM_DIAG_FUSED_LAUNCH=pdl
  timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/bench_cliffs_${mode}_$n.csv \
    > $W/bench_cliffs_${mode}_$n.txt 2>&1
  echo "cliffs $mode pass $n rc=$? t=$SECONDS"
  save
done
unset TCGEMM_DIAG_NO_FOLD TCGEMM_DIAG_FUSED_LAUNCH
python3 bench/device_calls/session34/cliffs_ab.py $W/bench_cliffs_*.csv > $W/cliffs_ab.txt
save
[ $SECONDS -lt 420 ] && { run_suite; save; }
cat $W/cliffs_ab.txt
