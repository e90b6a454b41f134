#!/usr/bin/env bash
# Run 257 if it comes: session43/s43_4.sh cut to ~150 s (most of session 44's device time went on
# calls that got no machine): the pair tests, one pass of the K sweep and midm128_split through
# gemm() main / branch, cliffs if time is left. No whole suite: not enough to merge on, only to
# measure.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests 'Sm90PlannedPair.*' 60
save
bench_one tcgemm_old midm128_ksweep main1; bench_one tcgemm midm128_ksweep pair1; save
bench_one tcgemm midm128_split pair1; bench_one tcgemm_old midm128_split main1; save
[ $SECONDS -lt 110 ] && { bench_one tcgemm_old cliffs main1; bench_one tcgemm cliffs pair1; save; }
echo "done t=$SECONDS"; save
