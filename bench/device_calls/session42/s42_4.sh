#!/usr/bin/env bash
# Run 253 (prepared in session 42, ~330 s; no machine started that session).
# Binaries: tcgemm_old / tcgemm_gpu_tests_main = main c8bf23e (the ghost's named barrier before a
# stage release); tcgemm / tcgemm_gpu_tests = exp/producer-prologue 4c393fc (c8bf23e merged in).
# 1. memcheck x8 on ThreadsStoreD (main; 1-3 of 8 stalled before the cure, run 250);
# 2. the whole GPU suite with main's test binary; 3. the tall suite old / new (producer-prologue);
# then, while time is left: the branch's whole suite, the sanitizers on the small pc / pingpong /
# stream-K (incl. the capped Shapes cases) / repack tests with main's binary, memcheck x4 on
# ThreadsStoreDNoGhost.
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
export TCGEMM_TEST_SMALL=1
if [ $SECONDS -lt 260 ]; then
  for t in memcheck racecheck synccheck; do
    timeout 25 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests_main --gtest_brief=1 \
      --gtest_filter='*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*:Shapes/Sm90PcStreamK.*_Small' > $W/san_$t.log 2>&1
    echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' $W/san_$t.log | head -3
  done
fi
save
[ $SECONDS -lt 310 ] && memcheck_x tcgemm_gpu_tests_main 4 10 'Sm90PcStreamKSmall.ThreadsStoreDNoGhost' threads512
echo "done t=$SECONDS"
save
