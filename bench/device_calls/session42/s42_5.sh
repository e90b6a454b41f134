#!/usr/bin/env bash
# Run 253 (session 42), the last try with 299 s of device time: memcheck x8 on ThreadsStoreD with
# main c8bf23e's test binary (the ghost barrier; 1-3 of 8 stalled before it, run 250), then main's
# whole GPU suite while time is left.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
n=0
for i in 1 2 3 4 5 6 7 8; do
  TCGEMM_TEST_SMALL=1 timeout 15 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests_main \
    --gtest_brief=1 --gtest_filter=Sm90PcStreamKSmall.ThreadsStoreD > $W/mc_threads384_$i.log 2>&1
  rc=$?; [ $rc -eq 124 ] && n=$((n + 1))
  echo "memcheck pass $i rc=$rc t=$SECONDS $(grep -h 'ERROR SUMMARY' $W/mc_threads384_$i.log)"
done
echo "memcheck ThreadsStoreD: $n of 8 stalled t=$SECONDS"
save
timeout 100 $B/tcgemm_gpu_tests_main --gtest_brief=1 > $W/gpu_tests_main.log 2>&1; echo "suite main rc=$? t=$SECONDS"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests_main.log | head -8
save
