#!/usr/bin/env bash
# The stream-K memcheck stall (run 250: a consumer's full wait on the ghost tile's first stage, in
# ThreadsStoreD at M = 384, 1-3 of 8 passes). With main's test binary (tcgemm_gpu_tests_main, main 65a1e11 rebuilt in session 42):
# memcheck x8 on ThreadsStoreD (M = 384, ghost row) and on ThreadsStoreDNoGhost (M = 512), 15 s each,
# then each x200 without a sanitizer. A stall only with the ghost implicates the ghost's path.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
export TCGEMM_TEST_SMALL=1
for t in ThreadsStoreD ThreadsStoreDNoGhost; do
  n=0
  for i in 1 2 3 4 5 6 7 8; do
    timeout 15 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests_main --gtest_brief=1 \
      --gtest_filter=Sm90PcStreamKSmall.$t > $W/mc_${t}_$i.log 2>&1
    rc=$?; [ $rc -eq 124 ] && n=$((n + 1))
  done
  echo "memcheck $t: $n of 8 stalled t=$SECONDS"
  timeout 40 $B/tcgemm_gpu_tests_main --gtest_brief=1 --gtest_filter=Sm90PcStreamKSmall.$t --gtest_repeat=200 > $W/plain_$t.log 2>&1
  echo "plain $t x200 rc=$? passed=$(grep -c PASSED $W/plain_$t.log)"
done
# The capped and small stream-K cases (TMA store; 384x512x200 has the same ghost row), which no
# memcheck filter of runs 246-251 selected (they are Shapes/Sm90PcStreamK.*_Small).
n=0
for i in 1 2 3 4 5 6 7 8; do
  timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests_main --gtest_brief=1 \
    --gtest_filter='Shapes/Sm90PcStreamK.*_Small' > $W/mc_shapes_$i.log 2>&1
  rc=$?; [ $rc -eq 124 ] && n=$((n + 1)); echo "memcheck Shapes/Sm90PcStreamK.*_Small pass $i rc=$rc"
done
echo "memcheck small stream-K shapes: $n of 8 stalled t=$SECONDS"
save
