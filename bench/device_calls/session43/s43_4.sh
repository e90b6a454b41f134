#!/usr/bin/env bash
# Run 257 (session 43): bench/suites/midm128_ksweep.txt through gemm(), with the 128x64 s9 mc1x2
# pair and the plain 128x64 s9 tile by name (main c8bf23e's binary), two interleaved passes. ~80 s.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
byname() {
  timeout 60 $B/tcgemm_old bench --suite=bench/suites/midm128_ksweep.txt --kernels="$1" --output=$W/bench_ksweep_$2.csv > $W/bench_ksweep_$2.txt 2>&1
  echo "ksweep $2 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_ksweep_$2.txt | head -1)"
}
for p in 1 2; do
  byname gemm gemm$p; save
  byname 'sm90_wgmma_bf16_128x64x64_s9_mc1x2' mc1x2_$p; save
  byname 'sm90_wgmma_bf16_128x64x64_s9_w?' s9ws_$p; save
done
echo "done t=$SECONDS"
