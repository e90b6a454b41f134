#!/usr/bin/env bash
# Session 14, call 8: 333x777x4099 on the copies at their new 128-byte pitch, every repack split
# entry (128x64 s9, 128x128 s7, 128x256 s4) at 1-8 forced splits beside cuBLAS: is gemm()'s 128x64 x3
# still the best plan?
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
timeout 200 $B/tcgemm profile --providers=tcgemm,cublas --m=333 --n=777 --k=4099 --split_k_slices=1,2,3,4,5,6,8 \
  --kernels='*bf16_128x64x64_s9_ws_repack_splitk,*bf16_128x128x64_s7_ws_repack_splitk,*bf16_128x256x64_s4_ws_repack_splitk' \
  --output=$OUT/sweep_333.csv 2>&1 | grep -E "^m=" | awk '{print $7,$8,$9,$10,$11,$NF}'
timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=333 --n=777 --k=4099 --output=$OUT/gemm_333.csv 2>&1 | grep -E "^m=" | awk '{print "gemm()", $7,$8,$10,$NF}'
