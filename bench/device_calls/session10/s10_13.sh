#!/usr/bin/env bash
# Session 10, call 13 (diagnosis only): source-level stall sampling of the split pass (128x128 ws,
# 2 splits) at 1024x1024x8192, base clock: the top stall locations with their SASS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
timeout 120 ncu --clock-control base --section SourceCounters --section WarpStateStats --kernel-name regex:'wgmma' --launch-skip 1 --launch-count 1 \
  --import-source no --page details --print-details all \
  $B/tcgemm profile --m=1024 --n=1024 --k=8192 --kernels='*bf16_128xN_ws_splitk' --providers=tcgemm --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_src.txt 2>&1
echo rc=$?
grep -vE '^==PROF|^ *-{5,}|^ *$|^device|^Problem|^m=|^notes' $OUT/ncu_src.txt | cut -c1-160 | head -120
timeout 60 ncu --clock-control base --set full --kernel-name regex:'wgmma' --launch-skip 1 --launch-count 1 -o $OUT/src_report \
  $B/tcgemm profile --m=1024 --n=1024 --k=8192 --kernels='*bf16_128xN_ws_splitk' --providers=tcgemm --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1 > /dev/null 2>&1
echo "report rc=$?"
ncu --import $OUT/src_report.ncu-rep --page source --csv --print-source sass 2>/dev/null > $OUT/sass_source.csv; echo "sass rc=$? $(wc -l < $OUT/sass_source.csv)"
gzip -f $OUT/sass_source.csv; ls -la $OUT
