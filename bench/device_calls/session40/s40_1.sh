#!/usr/bin/env bash
# Prepared in session 39 for the next device time, on main's binaries (.device/xz, built from
# 1bf788c's sources: the cluster barriers without the release fence, run 246).
#  1. what run 246 owed: memcheck on the small pc and pingpong tests, with time to finish (its 40 s
#     limit cut it), then racecheck and synccheck on the stream-K and repack pc tests too;
#  2. the target suites on this card (cliffs, tall, smallm), cuBLAS in each process, for the
#     issue's table (H200 when the call lands on one).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*' $W 150
unset TCGEMM_TEST_SMALL
save
bench_suites cliffs tall smallm smallm2
grep -H 'geomean ratio to cuBLAS over' $W/bench_*.txt
save
run_suite_if_time 420
save
