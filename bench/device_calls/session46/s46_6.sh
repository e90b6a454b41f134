#!/usr/bin/env bash
# Run 264 (session 46): main ead1748's final binaries (the rule entries on one template) once more:
# the persistent-cluster tests, fit176.txt and cliffs through gemm().
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*PersistentCluster*:*SquareRules*' 100; save
timeout 100 $B/tcgemm bench --suite=bench/device_calls/session46/fit176.txt --kernels=gemm --output=$W/bench_fit176_final.csv > $W/bench_fit176_final.txt 2>&1
echo "fit176 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_fit176_final.txt)"; save
bench_one tcgemm cliffs final; save
echo "done t=$SECONDS"; save
