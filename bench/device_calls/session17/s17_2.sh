#!/usr/bin/env bash
# Session 17 call 2 (run 159): the fused entry planning over its in-copy tiles (WsLoads::in_copy) after
# call 1's 144 fused failures (the 64x64 plan has no in-copy instance); the whole GPU suite; memcheck
# on the fused small cases; then the random, unaligned, rowclass and cliffs suites through gemm() with
# padded slabs and the 64x64 candidate (cliffs twice, two processes). Everything in one tarball.
source "$(dirname "$0")/common.sh"
run_suite
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='Small/Sm90RepackFused*1x1x1*:Small/Sm90RepackFused*196x511x198*' > $W/san_memcheck_fused.log 2>&1
echo "memcheck fused rc=$?"; grep -E 'ERROR SUMMARY|PASSED' $W/san_memcheck_fused.log | head -2
for s in random unaligned rowclass cliffs; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"; grep -E 'geomean' $W/bench_$s.txt
done
timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/bench_cliffs_b.csv > $W/bench_cliffs_b.txt 2>&1
echo "cliffs b rc=$? t=$SECONDS"
tail -14 $W/bench_cliffs.txt; tail -13 $W/bench_cliffs_b.txt | head -10 | awk '{print $NF}' | paste -sd' '
tar -C $W -czf $OUT/run159.tar.gz .
