#!/usr/bin/env bash
# Session 13, call 2 (diagnosis only): where the 4-byte-load realign's k-block goes (0.8 us a 128x128 k-block, call 1). ncu at base clock on
# gemm()'s row-class launch at 64x8192x8193 (128x128 tile, TCGEMM's plan): warp states, then a full
# report whose SASS page carries the stall samples per instruction (analysed on the build machine).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
P="$B/tcgemm profile --m=64 --n=8192 --k=8193 --kernels=*bf16_128xN_ws_rowclass --providers=tcgemm --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1"
timeout 150 ncu --clock-control base --section SpeedOfLight --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis_Tables --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,sm__cycles_elapsed.max --kernel-name regex:'wgmma' --launch-skip 1 --launch-count 1 \
  --import-source no --page details --print-details all $P > $OUT/ncu_rowclass_details.txt 2>&1
echo rc=$?
grep -vE '^==PROF|^ *-{5,}|^ *$|^device|^Problem|^m=|^notes' $OUT/ncu_rowclass_details.txt | cut -c1-160 | head -80
timeout 150 ncu --clock-control base --set full --import-source no --kernel-name regex:'wgmma' --launch-skip 1 --launch-count 1 -o $OUT/rc_report $P > /dev/null 2>&1
echo "report rc=$?"
ncu --import $OUT/rc_report.ncu-rep --page source --csv --print-source sass 2>/dev/null > $OUT/rc_sass.csv; echo "sass rc=$? $(wc -l < $OUT/rc_sass.csv)"
rm -f $OUT/rc_report.ncu-rep; gzip -f $OUT/rc_sass.csv; ls -la $OUT
