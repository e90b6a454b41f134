#!/usr/bin/env bash
# Session 33 call 4 (run 228), from branch exp/early-release-2: the second pass of the release
# modes in the reverse order (3 2 1 0), the table over both passes, then racecheck with per-test
# output on the rest of main's persistent-cluster small cases (run 226's combined run timed out).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
cp $B/tcgemm_gpu_tests $B/main_tcgemm_gpu_tests
cp $B/er_tcgemm $B/tcgemm; cp $B/er_tcgemm_gpu_tests $B/tcgemm_gpu_tests
D=bench/device_calls/session31
source $D/release_passes.sh 2 3 2 1 0; save
python3 $D/release_table.py $W
save
TCGEMM_TEST_SMALL=1 timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 $B/main_tcgemm_gpu_tests \
  --gtest_filter='*Sm90PersistentClusterSmall*:-*Fit192*' > $W/san_racecheck_pc.log 2>&1
echo "racecheck pc small (main) rc=$? t=$SECONDS"; grep -E 'RACECHECK SUMMARY|PASSED|FAILED|OK \]' $W/san_racecheck_pc.log | head -12
save
