#!/usr/bin/env bash
# Run 257 if it comes: s44_1.sh cut again to ~150 s (most of session 44's device time went on
# calls that got no machine): the pair tests, one pass of the K sweep and midm128_split through
# gemm() main / branch, cliffs if time is left. No whole suite: not enough to merge on, only to
# measure.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
timeout 60 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90PlannedPair.*' > $W/tests_pair.log 2>&1
echo "pair tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|tests from .* ran' $W/tests_pair.log | head -6
save
bench_one tcgemm_old midm128_ksweep main1; bench_one tcgemm midm128_ksweep pair1; save
bench_one tcgemm midm128_split pair1; bench_one tcgemm_old midm128_split main1; save
[ $SECONDS -lt 110 ] && { bench_one tcgemm_old cliffs main1; bench_one tcgemm cliffs pair1; save; }
echo "done t=$SECONDS"; save
