#!/usr/bin/env bash
# Session 17 call 3 (run 160): main as merged (padded slab rows, the 64x64 candidate): the whole GPU
# suite; `tcgemm explain --measure` (predicted against measured for every path) at four split shapes;
# the remaining suites through gemm() as a regression sweep. Everything in one tarball.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B; W=/tmp/w; mkdir -p $W
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
SECONDS=0; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $W/gpu_tests.log 2>&1; echo "suite rc=$? t=$SECONDS"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests.log | head -12
for s in "333 777 4099" "200 1500 3001" "256 256 65536" "512 1024 32768"; do set -- $s
  timeout 90 $B/tcgemm explain --m $1 --n $2 --k $3 --measure > $W/explain_measure_${1}x${2}x${3}.txt 2>&1
  echo "explain --measure ${1}x${2}x${3} rc=$? t=$SECONDS"
done
for s in smallm smallm2 smallm3 midsize pcsk peak; do
  timeout 120 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_$s.csv > $W/bench_$s.txt 2>&1
  echo "$s rc=$? t=$SECONDS"; grep -E 'geomean ratio to cuBLAS over' $W/bench_$s.txt
done
tar -C $W -czf $OUT/run160.tar.gz .
for s in "333 777 4099" "200 1500 3001"; do set -- $s; echo "== ${1}x${2}x${3}"; grep -iE "measured|predicted" -A12 $W/explain_measure_${1}x${2}x${3}.txt | head -24; done
