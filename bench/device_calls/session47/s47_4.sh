#!/usr/bin/env bash
# Run 268 (session 47): explain --measure's split-plan table (each split tile at the counts its
# model prices lowest, predicted against measured, beside gemm()'s plan) at four splitk shapes, one
# in JSON; `tcgemm tune`'s table on one shape.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
for s in 256x512x16384 1016x1648x11344 256x256x65536 128x4096x4096; do
  IFS=x read m n k <<< "$s"
  timeout 90 $B/tcgemm explain --m=$m --n=$n --k=$k --measure > $W/explain_$s.txt 2>&1
  echo "explain $s rc=$? t=$SECONDS"; sed -n '/^Split plans/,$p' $W/explain_$s.txt; save
done
timeout 90 $B/tcgemm explain --m=512 --n=1024 --k=32768 --measure --json > $W/explain_512x1024x32768.json 2> $W/explain_json.err
echo "json rc=$? t=$SECONDS"
python3 -c "import json,sys; j=json.load(open('$W/explain_512x1024x32768.json')); print(j['gemm_split_plan'], j['fastest_split_plan'], j['tune_would_keep'], len(j['split_plans']))"
timeout 90 $B/tcgemm tune --m=1016 --n=1648 --k=11344 --splits=1,2,3 --output=$W/t.txt > $W/tune.txt 2>&1
echo "tune rc=$? t=$SECONDS"; sed -n '/^problem/,/in .*t.txt/p' $W/tune.txt
echo "done t=$SECONDS"; save
