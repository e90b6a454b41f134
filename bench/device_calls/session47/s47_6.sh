#!/usr/bin/env bash
# Run 270 (session 47): main 8d6a5ca's tcgemm: explain (its pointer to tune) and explain --measure's
# split-plan table at 256x512x16384, after the plan-label refactor.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
timeout 100 $B/tcgemm explain --m=256 --n=512 --k=16384 --measure > $W/explain.txt 2>&1
echo "explain rc=$? t=$SECONDS"; grep -A1 "its plan" $W/explain.txt | cut -c1-200; sed -n '/^Split plans/,$p' $W/explain.txt
echo "done t=$SECONDS"; save
