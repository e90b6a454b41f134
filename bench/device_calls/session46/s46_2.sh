#!/usr/bin/env bash
# Run 260 (session 46): the split planner's DRAM rate scaled by the device's peak (H100: 3352 of
# the H200's 4814 GB/s). Binaries (carry .device): tcgemm = the change, tcgemm_main = main 64392e6.
# On the H200 no plan changes; on the H100 the long-K M = 128 plans take the plain 128x64 tile for
# the pair, and 23 of the suites' split shapes change plan (bench/NOTES.md, session 46).
# 1. The change's GPU tests (split-K, planned pair, ws), then the whole suite.
# 2. Two interleaved passes (new, main, main, new) of the suites whose plans move, geomeans last.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*SplitK*:*Planned*:*Split*' 120; save
for p in 1 2; do
  for s in midm128_ksweep midm128_split splitk cliffs midm_split; do
    if [ $p = 1 ]; then bench_one tcgemm $s new$p; bench_one tcgemm_main $s main$p
    else bench_one tcgemm_main $s main$p; bench_one tcgemm $s new$p; fi
  done
  save
done
run_suite_if_time 330; save
echo "done t=$SECONDS"; save
