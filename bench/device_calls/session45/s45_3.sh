#!/usr/bin/env bash
# For the next H200 (the targets' card; no run since 229 has had one): the pair's question there.
# On the H100 (runs 257-258) gemm()'s new unsplit 128x64 pair ran 3-8% ahead of the old split plans
# from K = 12288 on, and the plain 128x64 s9 tile over all of K ran level with it; on the H200 run
# 156 had the plain tile level with the x3 split. Binaries (carry .device): tcgemm = main after the
# merge (exp/pair-plan 866f1fb), tcgemm_old = main c8bf23e (the split plans). Two interleaved
# passes of the K sweep through gemm() new / old and by name (the pair, the plain tile), then cliffs
# new / old; ~2.5 minutes.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
for p in 1 2; do
  bench_one tcgemm midm128_ksweep new$p; bench_one tcgemm_old midm128_ksweep old$p
  pair_by_name tcgemm midm128_ksweep $p
  save
done
bench_one tcgemm cliffs new1; bench_one tcgemm_old cliffs old1
echo "done t=$SECONDS"; save
