#!/usr/bin/env bash
# Session 11, call 1 (diagnosis): what a plain stream reaches on this board (tcgemm bandwidth) beside
# the decode and long-K small-M GEMMs, and how their time splits into a fixed part and a per-byte
# part (a K sweep at fixed M, N): is the 90%-of-copy-floor target (issue 5) a stream-rate limit or
# our kernels' fixed costs?
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
echo "=== bandwidth $(date +%T)"
$B/tcgemm bandwidth --bytes=134217728 --grids=128,132,264,528,1056 | tee $OUT/bw.txt
$B/tcgemm bandwidth --bytes=33554432 --grids=132,528 | tail -n +2 | tee -a $OUT/bw.txt
$B/tcgemm bandwidth --bytes=469762048 --grids=128,132,528 | tail -n +2 | tee -a $OUT/bw.txt
P="$B/tcgemm profile --providers=tcgemm,cublas --A=bf16:row --B=bf16:column --C=bf16 --verification-enabled=false --profiling-duration=120"
echo "=== K sweeps through gemm() $(date +%T)"
$P --m=16 --n=8192 --k=2048,4096,8192,16384 --output=$OUT/ksweep_16x8192.csv > $OUT/ksweep_16.txt 2>&1; echo rc=$?
$P --m=128 --n=8192 --k=7168,14336,28672 --output=$OUT/ksweep_128x8192.csv > $OUT/ksweep_128.txt 2>&1; echo rc=$?
echo "=== every kernel $(date +%T)"
for s in "16 8192 8192" "16 28672 8192" "128 8192 28672"; do set -- $s
  $P --m=$1 --n=$2 --k=$3 --kernels='*' --profiling-rounds=2 --profiling-duration=60 --output=$OUT/all_${1}x${2}x${3}.csv > /dev/null 2>&1; echo "rc=$? $s"
done
echo "=== ncu dram $(date +%T)"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_active.avg,sm__throughput.avg.pct_of_peak_sustained_elapsed
for pr in tcgemm cublas; do
  timeout 90 ncu --clock-control none --metrics $M --launch-skip 3 --launch-count 3 \
    $B/tcgemm profile --m=16 --n=8192 --k=8192 --providers=$pr --verification-enabled=false --warmup-iterations=3 --profiling-iterations=3 --profiling-rounds=1 > $OUT/ncu16_$pr.txt 2>&1
  timeout 90 ncu --clock-control none --metrics $M --launch-skip 3 --launch-count 4 \
    $B/tcgemm profile --m=128 --n=8192 --k=28672 --providers=$pr --verification-enabled=false --warmup-iterations=3 --profiling-iterations=3 --profiling-rounds=1 > $OUT/ncu128_$pr.txt 2>&1
done
grep -hE '^  [a-zA-Z_]|gpu__time|dram__|sm__' $OUT/ncu16_*.txt $OUT/ncu128_*.txt | cut -c1-140 | head -80
echo "=== tables $(date +%T)"
python3 - <<'PY'
import csv, glob, os
O = os.environ['OUT']
for f in sorted(glob.glob(O + '/*.csv')):
    rows = list(csv.DictReader(open(f)))
    if not rows: continue
    print('##', os.path.basename(f))
    keys = [k for k in ('m','n','k','provider','kernel','runtime_ms','gbps','ratio_to_cublas') if k in rows[0]]
    if not keys: keys = list(rows[0])[:8]
    for r in rows: print(' | '.join(str(r[k])[:60] for k in keys))
PY
