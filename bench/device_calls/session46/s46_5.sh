#!/usr/bin/env bash
# Run 263 (session 46): gemm() on 192x176 where square176_wins (exp/fit176: 4224³ and shapes whose
# 192x192 grid leaves the last of two or more rounds part-full where 176 fills them). Binaries
# (carry .device): tcgemm, tcgemm_gpu_tests = exp/fit176; tcgemm_main = main 64392e6.
# 1. The persistent-cluster tests (the new entry at 4224³ bf16/f16 and a K tail; the host rules).
# 2. fit176.txt and cliffs through gemm(), new/main/main/new.
# 3. explain --measure at 4224³ (the advice against the fastest path), then the whole suite if time.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*PersistentCluster*' 100; save
S=bench/device_calls/session46/fit176.txt
b() { timeout 100 $B/$1 bench --suite=$S --kernels=gemm --output=$W/bench_fit176_$2.csv > $W/bench_fit176_$2.txt 2>&1
      echo "fit176 $2 rc=$? t=$SECONDS $(grep -h 'geomean ratio' $W/bench_fit176_$2.txt)"; }
b tcgemm new1; b tcgemm_main main1; bench_one tcgemm cliffs new1; bench_one tcgemm_main cliffs main1; save
b tcgemm_main main2; b tcgemm new2; bench_one tcgemm_main cliffs main2; bench_one tcgemm cliffs new2; save
[ $SECONDS -lt 300 ] && explain_measure tcgemm 4224 4224 4224 60; save
run_suite_if_time 330; save
echo "done t=$SECONDS"; save
