#!/usr/bin/env bash
# Prepared in session 20, NOT RUN (the device budget was spent): a diagnosis call for the next session: `explain --measure` (every path that
# takes the problem, and cuBLAS, predicted against measured) at two shapes still below 0.8x after
# run 178, one of them the short-K, two-round 6656x624x256 left by stream-K's bound. Written straight
# into $OUT (little device time was left).
source "$(dirname "$0")/../session17/common.sh"
while read -r name args; do
  timeout 45 $B/tcgemm explain $args --measure > $OUT/explain_measure_${name}_run179.txt 2>&1
  echo "== $name rc=$? t=$SECONDS"; grep -iE "fastest|cuBLAS" $OUT/explain_measure_${name}_run179.txt | head -4
done <<'LIST'
6656x624x256 --m=6656 --n=624 --k=256
365x74x414 --m=365 --n=74 --k=414 --B=bf16:row
LIST
