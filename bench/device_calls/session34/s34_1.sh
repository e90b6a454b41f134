#!/usr/bin/env bash
# Session 34 call 1: split-K's reduce folded into the split pass (slab_fold.cuh).
# 1. The fold's own tests (bitwise against the separate reduce, split counts 2..64, every tile),
#    the split-K and planned-entry tests.
# 2. The cliffs suite through gemm(), folded and not (TCGEMM_DIAG_NO_FOLD=1), each in its own
#    process, in the order fold, nofold, nofold, fold (the in-process order bias of run 226).
#    Prediction: 512x1024x32768 ~8-9% faster (0.93x -> ~1.0x cuBLAS), 256x256x65536 ~15-20%
#    (28 -> ~23 us), 128x8192x28672 ~3%; shapes that do not split unchanged.
# 3. memcheck/racecheck/synccheck on the small cases, then the whole GPU suite if time is left.
# (Then the fold was on by default and TCGEMM_DIAG_NO_FOLD=1 turned it off; since the end of session 34
# it is off unless TCGEMM_DIAG_FOLD=1.)
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*SlabFold*:*Sm90SplitKTiles*:*Sm90Planned*'; cp $W/tests.log $W/tests_fold.log
grep -E 'FAILED|Failure' -A3 $W/tests_fold.log | head -30
save
for mode in fold nofold nofold fold; do
  n=$(ls $W/bench_cliffs_*.txt 2>/dev/null | wc -l); n=$((n + 1))
  if [ $mode = nofold ]; then export TCGEMM_DIAG_NO_FOLD=1; else unset TCGEMM_DIAG_NO_FOLD; fi
  timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/bench_cliffs_${mode}_$n.csv \
    > $W/bench_cliffs_${mode}_$n.txt 2>&1
  echo "cliffs $mode pass $n rc=$? t=$SECONDS"
  save
done
unset TCGEMM_DIAG_NO_FOLD
python3 bench/device_calls/session34/cliffs_ab.py $W/bench_cliffs_*.csv | tee $W/cliffs_ab.txt
save
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 80 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests \
    --gtest_filter='*Sm90SlabFoldSmall*' > $W/san_$t.log 2>&1
  echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $W/san_$t.log | head -4
done
save
[ $SECONDS -lt 400 ] && { run_suite; save; }
cat $W/cliffs_ab.txt
