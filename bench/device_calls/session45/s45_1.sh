#!/usr/bin/env bash
# Run 258: the check run 257 left for exp/pair-plan's merge. Binaries (carry .device) as run 257:
# tcgemm_old = main c8bf23e, tcgemm / tcgemm_gpu_tests = exp/pair-plan 866f1fb. In run 257
# 512x1024x32768 (-5%) and 128x2048x8192 (-1.9%) read slower on the branch with the same plan and
# kernel as main's; two more passes in alternating order say whether that is run-to-run spread.
# Then memcheck, racecheck and synccheck on the planned pair's GPU test.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
bench_one tcgemm cliffs pair2; bench_one tcgemm_old cliffs main2
bench_one tcgemm_old cliffs main3; bench_one tcgemm cliffs pair3; save
bench_one tcgemm midm128_split pair2; bench_one tcgemm_old midm128_split main2
bench_one tcgemm_old midm128_split main3; bench_one tcgemm midm128_split pair3; save
mkdir -p $W/san; run_sanitizers 'Sm90PlannedPair.*' $W/san 90
echo "done t=$SECONDS"; save
