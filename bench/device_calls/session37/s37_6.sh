#!/usr/bin/env bash
# Session 37 call 6 (the last minutes of device time): L2 read sectors of our tall-shape kernels and
# cuBLAS's at 6656x520x2048 (192x192) and 6656x624x1024 (256x128 tall), one launch each, to test
# the reading that cuBLAS's pair moves ~0.6-0.7 of our L2 bytes (runs 235-236).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
M=gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum
prof() {
  local name=$1 m=$2 n=$3 k=$4 prov=$5 re=$6 kern=${7:-}
  local P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=$m --n=$n --k=$k --providers=$prov"
  [ -n "$kern" ] && P="$P --kernels=$kern"
  timeout 60 ncu --clock-control none --metrics $M --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 $P > $W/l2_$name.txt 2>&1
  echo "== $name rc=$?"; grep -E "gpu__time|lts__t_sectors|dram__bytes|nvjet|persistent_cluster" $W/l2_$name.txt | head -8
}
prof sq192 6656 520 2048 tcgemm persistent_cluster sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit
prof cublas520 6656 520 2048 cublas 'nvjet|sm90|gemm'
prof tall128 6656 624 1024 tcgemm persistent_cluster sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall
prof cublas624 6656 624 1024 cublas 'nvjet|sm90|gemm'
save
