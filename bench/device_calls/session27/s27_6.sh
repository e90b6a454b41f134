#!/usr/bin/env bash
# Session 27 call 6, after the review: the multicast kernels' flag made compile-time (kMc), the
# entries' attribute function their own instance: the multicast tests and memcheck on them.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*Multicast*'
TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='*Multicast*' > $W/san_memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E 'ERROR SUMMARY|PASSED' $W/san_memcheck.log | head -2
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
