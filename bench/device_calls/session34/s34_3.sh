#!/usr/bin/env bash
# Session 34 call 3 (run 231): main as committed (the fold off): the whole GPU suite, then the cliffs
# suite through gemm() for the standings.
source bench/device_calls/session17/common.sh
save() { tar -C $W -czf $OUT/s34_3.tar.gz .; }
run_suite; save
timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/bench_cliffs_final.csv > $W/bench_cliffs_final.txt 2>&1
echo "cliffs rc=$? t=$SECONDS"; save
grep -A12 "Best tcgemm kernel" $W/bench_cliffs_final.txt | cut -c1-60,100-200
