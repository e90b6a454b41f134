#!/usr/bin/env bash
# Run 255 (session 43), meant for an H200 (the targets' card; every run since 229 was on an H100):
# main's binary (tcgemm_old = c8bf23e) on the cliffs suite twice and the tall suite once, then
# `explain --measure` on the split and partial-wave targets (predicted against measured for each
# candidate path), ~3 minutes.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
bench_one tcgemm_old cliffs main1
save
bench_one tcgemm_old cliffs main2
save
bench_one tcgemm_old tall main1
save
for s in "512 1024 32768" "256 256 65536" "4224 4224 4224" "16 8192 8192" "128 8192 28672"; do
  set -- $s
  [ $SECONDS -lt 200 ] || break
  timeout 60 $B/tcgemm_old explain --m $1 --n $2 --k $3 --measure > $W/explain_measure_${1}x${2}x${3}.txt 2>&1
  echo "explain --measure $1x$2x$3 rc=$? t=$SECONDS"
  save
done
echo "done t=$SECONDS"
