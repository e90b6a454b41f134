#!/usr/bin/env bash
# Run 253 (session 43): the steps of session 42's s42_4.sh (never run there, removed since):
# memcheck x8 on ThreadsStoreD with main's ghost barrier, main's whole GPU suite, the tall suite
# main / exp/producer-prologue, the branch's suite, the sanitizers on the small pc / pingpong /
# stream-K / repack tests, memcheck x4 on ThreadsStoreDNoGhost; then while time is left the cliffs
# suite main / branch and a second tall pair. Binaries (carry .device): tcgemm_old /
# tcgemm_gpu_tests_main = main c8bf23e, tcgemm / tcgemm_gpu_tests = exp/producer-prologue 4c393fc.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TCGEMM_TEST_SMALL=1 memcheck_x tcgemm_gpu_tests_main 8 15 'Sm90PcStreamKSmall.ThreadsStoreD' threads384
save
suite_of tcgemm_gpu_tests_main main
save
[ $SECONDS -lt 170 ] && { bench_one tcgemm_old tall old1; bench_one tcgemm tall new1; }
save
[ $SECONDS -lt 240 ] && suite_of tcgemm_gpu_tests branch
save
if [ $SECONDS -lt 260 ]; then
  for t in memcheck racecheck synccheck; do
    TCGEMM_TEST_SMALL=1 timeout 25 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests_main --gtest_brief=1 \
      --gtest_filter='*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*:Shapes/Sm90PcStreamK.*_Small' > $W/san_$t.log 2>&1
    echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' $W/san_$t.log | head -3
  done
fi
save
[ $SECONDS -lt 310 ] && TCGEMM_TEST_SMALL=1 memcheck_x tcgemm_gpu_tests_main 4 10 'Sm90PcStreamKSmall.ThreadsStoreDNoGhost' threads512
save
[ $SECONDS -lt 380 ] && { bench_one tcgemm_old cliffs old1; bench_one tcgemm cliffs new1; }
save
[ $SECONDS -lt 450 ] && { bench_one tcgemm tall new2; bench_one tcgemm_old tall old2; }
echo "done t=$SECONDS"
save
