#!/usr/bin/env bash
# Session 11, call 11 (final main's binaries): the whole GPU suite, then the cliffs and smallm
# suites through gemm() against cuBLAS (4 interleaved windows each), with the bandwidth probe
# beside them for the floors.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
echo "=== GPU suite $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B2 -A10 -m3 'Failure' $OUT/gpu_tests.log | head -30
gzip -f $OUT/gpu_tests.log
echo "=== suites $(date +%T)"
for s in cliffs smallm; do
  timeout 200 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$OUT/bench_$s.csv > $OUT/bench_$s.txt 2>&1; echo "rc=$? $s"
  tail -n 20 $OUT/bench_$s.txt
done
echo "=== bandwidth $(date +%T)"
$B/tcgemm bandwidth --bytes=134217728 --grids=128,132,528 | tee $OUT/bw.txt
