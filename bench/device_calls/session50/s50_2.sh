#!/usr/bin/env bash
# Run 277 (session 50): gemm()'s split planner on the two-k-block-stage 64x64 tile (exp/stage2), the
# same binary with TCGEMM_DIAG_TILE64X64_S14=1 as the old plans (14 one-k-block stages). 1. The new and
# planned split tests, sanitizers. 2. `tcgemm bench --kernels=gemm` on tile64 and splitk new/old, then old/new,
# narrow16 new/old. 3. The whole GPU suite if time is left.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*Sm90WideStage*:*Sm90SplitKTiles*:*Sm90Planned*:*Tuned*' 150
TCGEMM_TEST_SMALL=1 run_sanitizers 'Sm90WideStageSmall*:Sm90SplitKTilesSmall*' $W 90
save
b() {  # b SUITE-PATH TAG [ENV]: gemm() over a suite, its geomean line
  local s; s=$(basename $1 .txt)
  env ${3:-X=1} timeout 150 $B/tcgemm bench --suite=$1 --kernels=gemm --output=$W/bench_${s}_$2.csv > $W/bench_${s}_$2.txt 2>&1
  echo "$s $2 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_${s}_$2.txt)"
}
OLD=TCGEMM_DIAG_TILE64X64_S14=1
T=bench/suites/tile64.txt S=bench/suites/splitk.txt
b $T new; b $T old $OLD; b $S new; b $S old $OLD; save
b $T old2 $OLD; b $T new2; b $S old2 $OLD; b $S new2; save
b bench/device_calls/session48/narrow16.txt new; b bench/device_calls/session48/narrow16.txt old $OLD
save
run_suite_if_time 420
save
echo "done t=$SECONDS"
