#!/usr/bin/env bash
# Session 10, call 10 (diagnosis only): where the GEMM pass loses at 1024x1024x8192 (run 100: ours
# 128x128 in 2-CTA cluster splits 38.5 us with no reduce; cuBLAS's nvjet 128x64 1x2 33 us). ncu at the
# base clock: tensor-pipe activity, issue-stall reasons, L2 traffic, for ours (planned split, and the
# plain 128x64 s9 unsplit) and cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
M="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,smsp__inst_executed.sum,lts__t_sectors_op_read.sum,lts__t_bytes.sum.per_second,l1tex__m_xbar2l1tex_read_bytes.sum,dram__bytes_read.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z"
S="regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio"
one() {  # tag kernels providers
  timeout 90 ncu --clock-control base --metrics "$M,$S" --kernel-name regex:'wgmma|nvjet' --launch-skip 1 --launch-count 1 \
    $B/tcgemm profile --m=1024 --n=1024 --k=8192 --kernels="$2" --providers=$3 --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_$1.txt 2>&1
  echo "----- $1"; grep -E '^\s+(gpu__|sm__|smsp__inst|lts__|l1tex__|dram__|launch__)' $OUT/ncu_$1.txt | awk '{print "  " $1, $(NF)}'
  grep -E 'smsp__average_warps_issue_stalled' $OUT/ncu_$1.txt | awk '{v=$(NF); gsub(",","",v); if (v+0 > 0.05) print "  " $1, $(NF)}' | sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//'
}
one plan '*bf16_128xN_ws_splitk' tcgemm
one ws64 '*bf16_128x64x64_s9_ws' tcgemm
one cublas '*bf16_128xN_ws_splitk' cublas
