#!/usr/bin/env bash
# Run 267 (session 47): main c87200a's final binaries. The whole GPU suite; `tcgemm tune` on one
# shape (its plan column after the profile's forced count is restored); explain's plan line with
# the plans file.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_suite
save
timeout 120 $B/tcgemm tune --m=256 --n=512 --k=16384 --splits=4,6,8,16 --output=$W/t1.txt > $W/tune1.txt 2>&1
echo "tune rc=$? t=$SECONDS"; sed -n '/^problem/,/in .*t1.txt/p' $W/tune1.txt; cat $W/t1.txt
TCGEMM_TUNED_PLANS=$W/t1.txt $B/tcgemm explain --m=256 --n=512 --k=16384 | grep "its plan" | cut -c1-160
echo "done t=$SECONDS"; save
