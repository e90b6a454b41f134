#!/usr/bin/env bash
# Session 12, call 10 (final main: call 6's kernels; the row-class and thread-load tests share one
# case helper, the row-class cases force their split counts): whole GPU suite, sanitizers on the
# row-class and thread-load cases.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
echo "=== GPU suite $(date +%T)"
timeout 240 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -30
for t in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='Small/Sm90RowClasses.*:Small/Sm90ThreadLoads.*bf16*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
cd $OUT && tar czf logs.tgz *.log && rm -f *.log
