#!/usr/bin/env bash
# Session 33 call 2 (run 226), from branch exp/early-release-2 with main's binaries carried too
# (.device/gz: tcgemm*, and the branch's as er_tcgemm*).
# 1. racecheck on main's small cases: run 225's stopped at its 90 s limit.
# 2. Run 225 timed the 192x192 s4 kernel 4-10% slower through gemm()'s `_fit` entry than by name
#    at 4232x800x7784 and 4224x2112x4224, in both passes; the two entries launch the same kernel.
#    Each alone in its own process, twice in alternating order: an order effect or a real difference.
# 3. The branch (TCGEMM_DIAG_EARLY_RELEASE): the whole suite in mode 3, memcheck and synccheck on
#    the ws small cases in mode 3 (s31_2.sh's checks; its passes are call 3).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
F='*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*:*Sm90PersistentClusterSmall*'
TCGEMM_TEST_SMALL=1 timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests \
  --gtest_brief=1 --gtest_filter="$F" > $W/san_racecheck_main.log 2>&1
echo "racecheck (main) rc=$? t=$SECONDS"; grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED' $W/san_racecheck_main.log | head -5
save
NAME='sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastor?'; FIT=sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit
for order in "$NAME $FIT" "$FIT $NAME"; do
  for shp in 4232x800x7784 4224x2112x4224; do
    IFS=x read m n k <<< "$shp"
    for kern in $order; do
      tag=$([ "$kern" = "$FIT" ] && echo fit || echo name)
      timeout 40 $B/tcgemm profile --m=$m --n=$n --k=$k --kernels="$kern" >> $W/s4fit_${shp}_$tag.txt 2>&1
      grep -E '^m=' $W/s4fit_${shp}_$tag.txt | tail -2 | awk '{print $1, $2, $3, $7, $8, $10, $NF}'
    done
  done
done
save
cp $B/er_tcgemm $B/tcgemm; cp $B/er_tcgemm_gpu_tests $B/tcgemm_gpu_tests
TCGEMM_DIAG_EARLY_RELEASE=3 run_suite; mv $W/gpu_tests.log $W/gpu_tests_er_mode3.log
save
for t in memcheck synccheck; do
  TCGEMM_DIAG_EARLY_RELEASE=3 TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests \
    --gtest_brief=1 --gtest_filter='*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*' > $W/san_${t}_er_mode3.log 2>&1
  echo "$t (branch, mode 3) rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|PASSED|FAILED' $W/san_${t}_er_mode3.log | head -3
done
save
