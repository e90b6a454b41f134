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
  [ $SECONDS -lt 200 ] || break
  explain_measure tcgemm_old $s 60; save
done
echo "done t=$SECONDS"
