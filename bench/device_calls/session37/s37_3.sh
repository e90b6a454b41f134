#!/usr/bin/env bash
# Session 37 call 3 (binaries of call 2: the tall fitting widths still in them, and the slab bulk
# patch, which ncu's split-pass profile below runs with TCGEMM_DIAG_NO_SLAB_BULK=1, i.e. main's
# register stores). Two questions from runs 233-234:
# 1. Why 256x104 runs 11% slower than 192x192 at 6656x520x2048 with 28% less MMA work a SM:
#    ncu (stall sampling) of both and of cuBLAS's kernel there.
# 2. Where the split pass's slab bytes go at 512x1024x32768: DRAM bytes written by the pass
#    (16.8 MB of slabs; ~1 MB of it if they stayed in L2).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
ncu_prof tall104 6656 520 2048 tcgemm persistent_cluster 'sm90_wgmma_bf16_256x104x64_s3_pc2x1_tmastore'
ncu_prof sq192 6656 520 2048 tcgemm persistent_cluster 'sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit'
ncu_prof cublas_tall 6656 520 2048 cublas 'nvjet|sm90|gemm'
save
TCGEMM_DIAG_NO_SLAB_BULK=1 ncu_prof split512 512 1024 32768 tcgemm wgmma_tma_ws 'sm90_wgmma_bf16_128xN_ws_splitk'
save
for n in tall104 sq192 cublas_tall split512; do
  echo "== $n"; grep -E 'Duration|DRAM Throughput|Memory Throughput|L2 Hit Rate|L1/TEX Hit|Compute \(SM\)|Warp Cycles Per Issued|Issued Warp|No Eligible|Registers Per|Block Size|Grid Size|Dynamic Shared' $W/ncu_$n.txt | head -16
done
for n in tall104 sq192 split512; do
  ncu --import $W/$n.ncu-rep --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum --page raw 2>/dev/null | grep -E 'dram__bytes|lts__t_bytes|sm__throughput|wavefronts' | head -6
done
stall_summary 2>&1 | head -60
