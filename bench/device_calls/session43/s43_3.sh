#!/usr/bin/env bash
# Run 256 (session 43): is the unsplit 128x64 tile in A-multicast pairs faster than gemm()'s plans
# on M = 80-128 (run 255: 172 against 183 us at 128x8192x28672, one pass on an H100)? main's
# binary (tcgemm_old = c8bf23e): bench/suites/midm128_split.txt through gemm() and by name, two
# interleaved passes, then explain --measure at 128x8192x28672 again. ~2 minutes. (As run, the
# benches went through a local loop with the same commands, logs named bench_midm128_TAG.)
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
for p in 1 2; do
  bench_one tcgemm_old midm128_split gemm$p; save
  bench_one tcgemm_old midm128_split mc1x2_$p sm90_wgmma_bf16_128x64x64_s9_mc1x2; save
done
[ $SECONDS -lt 150 ] && timeout 60 $B/tcgemm_old explain --m 128 --n 8192 --k 28672 --measure > $W/explain_measure_128x8192x28672.txt 2>&1
echo "done t=$SECONDS"; save
