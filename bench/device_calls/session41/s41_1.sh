#!/usr/bin/env bash
# Prepared in session 40 (its device time ran out after run 249). Binaries in .device/xz: main's
# (1bf788c SASS), exp/ws-meeting's (*_exp, 93c06bf) and exp/diag-end-barrier's tests binary
# (*_diag, 2b80511+: TCGEMM_DIAG_END_BARRIER=1 puts the release cluster barrier back at the pc kernel's
# end; TCGEMM_DIAG_WATCHDOG=1 makes its waits print their site and trap after 3 s).
#  1. Run 249: memcheck stalls in 4 of 12 passes in Sm90PcStreamKSmall.ThreadsStoreD (no earlier
#     memcheck of this test on record). Does the test hang outside memcheck (x300 plain)?
#     Does the end barrier's return stop the stalls (memcheck x8 each, main against diag)? Where
#     does a stall wait (diag with the watchdog and without the end barrier, i.e. main's code)?
#  2. exp/ws-meeting, owed before a merge: sanitizers on its small multicast tests, the whole suite.
#  3. s40_4's ncu stall profiles (tall and 192x192 fit tiles against cuBLAS) if time is left.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
export TCGEMM_TEST_SMALL=1
T='Sm90PcStreamKSmall.ThreadsStoreD'
timeout 40 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter=$T --gtest_repeat=300 > $W/sk_plain.log 2>&1
echo "plain x300 rc=$? t=$SECONDS $(grep -c FAILED $W/sk_plain.log) FAILED lines"
for v in main end_barrier watchdog; do
  bin=$B/tcgemm_gpu_tests_diag; eb=0; wd=0
  [ $v = main ] && bin=$B/tcgemm_gpu_tests
  [ $v = end_barrier ] && eb=1
  [ $v = watchdog ] && wd=1
  for i in 1 2 3 4 5 6 7 8; do
    TCGEMM_DIAG_END_BARRIER=$eb TCGEMM_DIAG_WATCHDOG=$wd timeout 15 compute-sanitizer --tool memcheck \
      --error-exitcode 9 $bin --gtest_brief=1 --gtest_filter=$T > $W/sk_memcheck_${v}_$i.log 2>&1
    echo "memcheck $v $i rc=$? t=$SECONDS"; grep -h 'watchdog:' $W/sk_memcheck_${v}_$i.log | head -4
  done
done
save
BE=/tmp/bin_exp; mkdir -p $BE; cp $B/tcgemm_gpu_tests_exp $BE/tcgemm_gpu_tests
B=$BE run_sanitizers '*Multicast*' $W 60
unset TCGEMM_TEST_SMALL
if [ $SECONDS -lt 380 ]; then
  timeout 200 $BE/tcgemm_gpu_tests --gtest_brief=1 > $W/gpu_tests_exp.log 2>&1; echo "exp suite rc=$? t=$SECONDS"
fi
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests_exp.log | head -8
save
[ $SECONDS -lt 420 ] && bash "$(dirname "$0")/../session40/s40_4.sh"
