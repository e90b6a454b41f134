#!/usr/bin/env bash
# Run 257 (prepared in session 43, not run: no machine came in sessions 43-44). Binaries (carry
# .device): tcgemm_old / tcgemm_gpu_tests_main = main c8bf23e; tcgemm / tcgemm_gpu_tests =
# exp/pair-plan 866f1fb (session 44; kernels and planner as ab960d1: the unsplit 128x64 pair
# sharing A as a planner candidate, taken at M <= 128, N = 8192 from K = 12288 by the model).
# ~4 minutes, in order of need, saved after each step: 1. the branch's pair test and multicast
# tests; 2. bench/suites/midm128_ksweep.txt through gemm() main / branch and by name (the pair, the
# plain 128x64), two interleaved passes; 3. midm128_split and cliffs main / branch; 4. the branch's
# whole GPU suite.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests 'Sm90PlannedPair.*:*Multicast*' 120
save
for p in 1 2; do
  bench_one tcgemm_old midm128_ksweep main$p; bench_one tcgemm midm128_ksweep pair$p
  pair_by_name tcgemm_old midm128_ksweep $p
  save
done
[ $SECONDS -lt 200 ] && { bench_one tcgemm_old midm128_split main1; bench_one tcgemm midm128_split pair1; save; }
[ $SECONDS -lt 240 ] && { bench_one tcgemm_old cliffs main1; bench_one tcgemm cliffs pair1; save; }
[ $SECONDS -lt 300 ] && suite_of tcgemm_gpu_tests pair
echo "done t=$SECONDS"; save
