#!/usr/bin/env bash
# Session 14, call 9 (diagnosis): why 333x777x4099's split pass on the copies runs ~0.59 us a 128x64
# k-block at 3 splits (117 CTAs) against ~0.24 unsplit (39 CTAs). ncu on the GEMM pass of each,
# caches and clocks left alone (the copies sit in L2 as in a real run), one launch each.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_active.avg
for s in 1 3; do
  echo "=== splits $s"
  timeout 120 ncu --cache-control none --clock-control none --kernel-name regex:wgmma_tma_ws --launch-skip 20 --launch-count 1 --metrics $M \
    $B/tcgemm profile --providers=tcgemm --verification-enabled=false --m=333 --n=777 --k=4099 --split_k_slices=$s \
    --kernels='*bf16_128x64x64_s9_ws_repack_splitk' --profiling-iterations=30 --warmup-iterations=25 > $OUT/ncu_333_s$s.txt 2>&1; echo rc=$?
  grep -E "wgmma_tma_ws_kernel|gpu__time|dram__bytes|lts__|sm__pipe|sm__cycles" $OUT/ncu_333_s$s.txt | sed 's/  */ /g' | head -12
done
