#!/usr/bin/env bash
# Run 259 (session 46), for an H200 (the targets' card; no run since 229 has had one): session 45's
# two prepared calls in one. Binaries (carry .device): tcgemm = main 64392e6 (the planner's unsplit
# 128x64 pair since fcc6c16), tcgemm_old = main c8bf23e (the split plans).
# 1. The pair's question on the H200: the K sweep (M = 128, N = 8192) through gemm() new / old and
#    by name (the pair; the plain 128x64 s9 tile over all of K), two interleaved passes.
# 2. Cliffs new / old, and the copy rate (the floors' denominator on this board).
# 3. `explain --measure` at the ten cliffs targets (the top advice against the fastest measured).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
sweep_pass() {
  bench_one tcgemm midm128_ksweep new$1; bench_one tcgemm_old midm128_ksweep old$1
  pair_by_name tcgemm midm128_ksweep $1; save
}
sweep_pass 1
bench_one tcgemm cliffs new1; bench_one tcgemm_old cliffs old1; save
timeout 60 $B/tcgemm bandwidth > $W/bandwidth.txt 2>&1; echo "bandwidth rc=$? t=$SECONDS"; tail -12 $W/bandwidth.txt; save
sweep_pass 2
for s in "128 8192 28672" "16 8192 8192" "4224 4224 4224" "512 1024 32768" "256 256 65536" "64 28672 8192" \
         "4097 4097 4097" "4095 4095 4095" "1000 1000 1001" "333 777 4099"; do
  [ $SECONDS -lt 420 ] || break
  explain_measure tcgemm $s; save
done
echo "done t=$SECONDS"; save
