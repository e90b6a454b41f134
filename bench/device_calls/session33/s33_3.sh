#!/usr/bin/env bash
# Session 33 call 3 (run 227), from branch exp/early-release-2 (main's binaries carried as
# tcgemm*, the branch's as er_tcgemm*).
# 1. racecheck on the 192-row fitting widths' small cases alone, on main's tests, with per-test
#    output: run 226's racecheck over every small case stopped at its 250 s limit.
# 2. s31_2.sh's passes of gemm()'s picks on release.txt in modes 0-3, one process each (the
#    branch), and release_table.py's table of each mode over mode 0.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TCGEMM_TEST_SMALL=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests \
  --gtest_filter='*Sm90PersistentClusterSmall.Fit192*' > $W/san_racecheck_fit192.log 2>&1
echo "racecheck fit192 (main) rc=$? t=$SECONDS"; grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|PASSED|FAILED|OK \]' $W/san_racecheck_fit192.log | head -5
save
cp $B/er_tcgemm $B/tcgemm; cp $B/er_tcgemm_gpu_tests $B/tcgemm_gpu_tests
D=bench/device_calls/session31
source $D/release_passes.sh 1 0 1 2 3; save
python3 $D/release_table.py $W
save
