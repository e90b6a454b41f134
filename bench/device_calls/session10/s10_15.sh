#!/usr/bin/env bash
# Session 10, call 15 (diagnosis only): shared-memory and tensor-pipe utilisation of the split pass
# (128x128 ws) against cuBLAS's nvjet 128x64 at 1024x1024x8192, base clock (hypothesis: wgmma operand
# reads plus TMA writes saturate shared memory on the 128-wide tile).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
for v in "ours tcgemm" "cublas cublas"; do set -- $v
  timeout 60 ncu --clock-control base --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --kernel-name regex:'wgmma|nvjet' --launch-skip 1 --launch-count 1 \
    $B/tcgemm profile --m=1024 --n=1024 --k=8192 --providers=$2 --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_$1.txt 2>&1
  echo "===== $1"; grep -iE 'shared|pipe|tensor|issue slots|executed ipc|bank' $OUT/ncu_$1.txt | grep -v '^==' | cut -c1-150 | head -30
done
