#!/usr/bin/env bash
# Session 17 call 3 (run 160): main as merged (padded slab rows, the 64x64 candidate): the whole GPU
# suite; `tcgemm explain --measure` (predicted against measured for every path) at four split shapes;
# the remaining suites through gemm() as a regression sweep. Everything in one tarball.
source "$(dirname "$0")/common.sh"
run_suite
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
