#!/usr/bin/env bash
# Session 17 call 4 (run 161): final main's binaries: the whole GPU suite, and `explain --measure` at
# 200x1500x3001 and 333x777x4099 with the planned entries priced on their plan's tile (tile_for).
source "$(dirname "$0")/common.sh"
run_suite
for s in "200 1500 3001" "333 777 4099"; do set -- $s
  timeout 90 $B/tcgemm explain --m $1 --n $2 --k $3 --measure > $W/explain_measure_${1}x${2}x${3}.txt 2>&1
  echo "== ${1}x${2}x${3} rc=$?"; grep -E "128xN_ws_repack|cuBLAS \(|fastest" $W/explain_measure_${1}x${2}x${3}.txt
done
tar -C $W -czf $OUT/run161.tar.gz .
