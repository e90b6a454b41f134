#!/usr/bin/env bash
# Session 31 call 1 (run 224): where our swapped 128x64 multicast pair loses 10% against cuBLAS's
# nvjet 128x64_64x8_1x2 at 128x8192x8192 (run 217): ncu warp-state and per-instruction stall
# sampling for it, the same swapped tile without a cluster, our plain 128x64 s9 and cuBLAS's
# kernel; then the whole GPU suite on main (839e507, the swapped_args cleanup, had not run on a GPU),
# sanitizers on the swap/multicast/split-K small cases, and the cliffs suite through gemm() (4224^3).
# As run: "swap" passed a bare name, a substring, so ncu's launch came from a multicast entry
# (results/2026-12-04_h200_ncu_swap_vs_plain_run224.txt); ..._swapa? would have selected it alone.
# ncu_prof and stall_summary (common.sh) are the inline code this call ran, moved out unchanged.
source "$(dirname "$0")/../session17/common.sh"
ncu_prof swapmc 128 8192 8192 tcgemm wgmma_tma_ws sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1
ncu_prof swap 128 8192 8192 tcgemm wgmma_tma_ws sm90_wgmma_bf16_64x128x64_s9_swapab
ncu_prof ws128x64 128 8192 8192 tcgemm wgmma_tma_ws sm90_wgmma_bf16_128x64x64_s9_ws
ncu_prof cublas 128 8192 8192 cublas 'nvjet|sm90|gemm'
stall_summary
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*' $W 90
[ $SECONDS -lt 500 ] && bench_suites cliffs
[ -f $W/bench_cliffs.txt ] && tail -14 $W/bench_cliffs.txt
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
