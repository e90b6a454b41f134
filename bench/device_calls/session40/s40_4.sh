#!/usr/bin/env bash
# Where the tall class's time goes after the release-free barriers (1bf788c; run 246 measured only
# SpeedOfLight): ncu with stall sampling of the 256x128 tall tile and cuBLAS's nvjet at
# 6656x624x64 (all prologue, one k-block and the epilogue), and of the 192x192 fit tile, now the
# class's floor (0.80-0.92x in run 247), and cuBLAS at 6656x520x256. Main's binaries.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
ncu_prof tall64 6656 624 64 tcgemm persistent_cluster sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall
ncu_prof cublas64 6656 624 64 cublas nvjet
ncu_prof fit520 6656 520 256 tcgemm persistent_cluster sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit
ncu_prof cublas520 6656 520 256 cublas nvjet
save
for n in tall64 cublas64 fit520 cublas520; do echo "== $n"; grep -E 'Duration|Grid Size|Cluster Size|Block Size|Registers Per|SM Active Cycles' $W/ncu_$n.txt | head -8; done
stall_summary
save
