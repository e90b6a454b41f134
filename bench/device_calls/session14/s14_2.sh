#!/usr/bin/env bash
# Session 14, calls 2-3 (built from branch exp/split-fixup): split-K's in-kernel fix-up. The split suites (the fix-up's own bitwise
# comparison with the reduce pass included), compute-sanitizer on the small split cases, then
# gemm() at the issue's split shapes with the fix-up (default) and without (TCGEMM_SPLITK_FIXUP=0),
# alternating processes, two passes.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== split suites $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SplitFixup*:*SplitK*:*Planned*:*SwapAB*:*Cliffs*:*Splitk*' > $OUT/split_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|Failure|differ' $OUT/split_tests.log | head -30
echo "=== sanitizers $(date +%T)"
for tool in memcheck racecheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*SplitFixupSmall*:*SplitKTilesSmall*' > $OUT/san_$tool.log 2>&1; echo "$tool rc=$?"
  grep -E "ERROR SUMMARY|PASSED|FAILED|hazard" $OUT/san_$tool.log | head -4
done
echo "=== profiles $(date +%T)"
SHAPES="333x777x4099 256x256x65536 512x1024x32768 1024x1024x8192 128x8192x28672 768x768x8192"
for pass in 1 2; do
  for s in $SHAPES; do
    IFS=x read m n k <<< "$s"
    for mode in 1 0; do
      TCGEMM_SPLITK_FIXUP=$mode timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --output=$OUT/p${pass}_${mode}_$s.csv 2>&1 | grep -E "^m=" | awk -v md=$mode -v ps=$pass '{print "pass" ps, "fixup=" md, $1,$2,$3,$7,$9,$10,$NF}'
    done
  done
done
cd $OUT && head -1 $(ls p1_1_*.csv | head -1) > profiles.csv && for f in p*_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p?_?_*.csv
gzip -f split_tests.log
