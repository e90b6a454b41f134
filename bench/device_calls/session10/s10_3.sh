#!/usr/bin/env bash
# Session 10, call 3 (diagnosis only): why a small unsplit 128x64 ws GEMM (288x1648x1128: 78 CTAs,
# 18 k-blocks) takes ~0.67 us a k-block against an MMA floor of ~0.16: ncu sections (speed of
# light, warp states, memory, launch) on ours and on cuBLAS's nvjet 64x72 kernel, base clock.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
S="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy"
timeout 120 ncu --clock-control base $S --kernel-name regex:'wgmma' --launch-count 1 --launch-skip 2 \
  $B/tcgemm profile --m=288 --n=1648 --k=1128 --providers=tcgemm --verification-enabled=false --warmup-iterations=0 --profiling-iterations=3 --profiling-rounds=1 > $OUT/ncu_ours.txt 2>&1
timeout 120 ncu --clock-control base $S --kernel-name regex:'nvjet' --launch-count 1 --launch-skip 2 \
  $B/tcgemm profile --m=288 --n=1648 --k=1128 --providers=cublas --verification-enabled=false --warmup-iterations=0 --profiling-iterations=3 --profiling-rounds=1 > $OUT/ncu_cublas.txt 2>&1
for f in ours cublas; do echo "===== $f"; grep -vE '^==PROF|^ *-{5,}|^ *$|OPT|INF |^device|^Problem|^m=|^notes' $OUT/ncu_$f.txt | cut -c1-130 | head -120; done
