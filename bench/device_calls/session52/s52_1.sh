#!/usr/bin/env bash
# Run 280 (session 52), named nvidia-h200 (the issue's card): exp/autotune's binaries (merged to main
# in session 52). The copy rate (the floors' denominator), the cliffs suite through gemm() with
# autotune off / on / off / on, then the splitk suite off / on if time is left.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
timeout 60 $B/tcgemm bandwidth --bytes=134217728 > $W/bandwidth.txt 2>&1; echo "bandwidth rc=$?"; tail -4 $W/bandwidth.txt
b() {  # b SUITE TAG [ENV]: gemm() over a suite, its geomean line
  env ${3:-X=1} timeout 120 $B/tcgemm bench --suite=bench/suites/$1.txt --kernels=gemm --output=$W/bench_$1_$2.csv > $W/bench_$1_$2.txt 2>&1
  echo "$1 $2 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_$1_$2.txt)"
}
ON=TCGEMM_AUTOTUNE=1
b cliffs off1; b cliffs on1 $ON; save
b cliffs off2; b cliffs on2 $ON; save
if [ $SECONDS -lt 200 ]; then b splitk off1; b splitk on1 $ON; save; fi
for t in off1 on1 off2 on2; do
  awk -F, -v t=$t '$6 == "tcgemm_gemm_pick" {split($5, s, " A="); printf "%s %-22s %7.1f %6.3fx %s\n", t, s[1], $8, $9, $7}' $W/bench_cliffs_$t.csv
done
echo "done t=$SECONDS"
