#!/usr/bin/env bash
# Session 38 call 6 (not run: device time ran out; superseded by s38_7.sh, which carries both binaries): the
# persistent cluster kernel's CTAs end on cp.async.bulk.wait_group.read (smem
# read out) instead of the full wait for D's writes. The pc tests and memcheck on the small cases,
# then call 5's K sweep again (the fixed cost: 2.7 us over cuBLAS's at K = 64 before), per-CTA traces at
# K = 64 and 1024, and the tall suite.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*PersistentCluster*:*Sm90Pc*'
mkdir -p $W/san
TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='*Sm90PersistentClusterSmall*' > $W/san/memcheck.log 2>&1
echo "memcheck rc=$?"; grep -E 'ERROR SUMMARY' $W/san/memcheck.log | head -2
save
bash bench/device_calls/session38/s38_5.sh 2>&1 | tail -5
TCGEMM_TRACE_SHAPES=6656x624x64,6656x624x1024 TCGEMM_RESULTS_DIR=$W timeout 60 $B/tcgemm_gpu_tests \
  --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace.log 2>&1
echo "trace rc=$?"; grep '\[trace\]' $W/trace.log
save
bench_suites tall
save
grep -A22 'Best tcgemm' $W/bench_tall.txt | cut -c1-150 | tail -22
