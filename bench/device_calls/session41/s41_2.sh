#!/usr/bin/env bash
# Run 251: main at dc45bff + the end-of-CTA .read wait (pc and pingpong kernels), against main's
# binary before both (tcgemm_old: 1bf788c's SASS). 1. the tall suite old / new / old / new (cuBLAS in
# each process); 2. the whole GPU suite and the sanitizers on the small pc, pingpong, stream-K and
# repack tests (memcheck without the one test whose memcheck stalls, run 250); 3. cliffs old / new.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
bench_one() {  # bench_one BIN SUITE TAG
  timeout 150 $B/$1 bench --suite=bench/suites/$2.txt --kernels=gemm --output=$W/bench_$2_$3.csv > $W/bench_$2_$3.txt 2>&1
  echo "$2 $3 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_$2_$3.txt)"
}
bench_one tcgemm_old tall old1
bench_one tcgemm tall new1
[ $SECONDS -lt 150 ] && { bench_one tcgemm_old tall old2; bench_one tcgemm tall new2; }
save
run_suite
save
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*-*ThreadsStoreD*' $W 60
unset TCGEMM_TEST_SMALL
save
if [ $SECONDS -lt 280 ]; then bench_one tcgemm_old cliffs old1; bench_one tcgemm cliffs new1; fi
save
