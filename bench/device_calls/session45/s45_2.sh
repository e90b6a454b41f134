#!/usr/bin/env bash
# Run 259 (session 45): `explain --measure` with main's binary after the pair-plan merge (tcgemm =
# exp/pair-plan 866f1fb, main's src as fcc6c16) at every cliffs target: does the top advice name
# the technique that measured fastest (run 255 checked five shapes on the old main)? Then the tall
# suite once. Each step saved as it ends; about 3 minutes at most (time guards: the failed starts left little device time).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
for s in "128 8192 28672" "4097 4097 4097" "4095 4095 4095" "1000 1000 1001" "333 777 4099" "64 28672 8192" \
         "16 8192 8192" "256 256 65536" "512 1024 32768" "4224 4224 4224"; do
  [ $SECONDS -lt 150 ] || break
  explain_measure tcgemm $s; save
done
[ $SECONDS -lt 170 ] && bench_one tcgemm tall merged1
echo "done t=$SECONDS"; save
