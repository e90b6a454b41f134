#!/usr/bin/env bash
# Session 36 call 2: call 1's by-name passes selected none of the tall fitting widths (the kernel
# glob has no [..] class), so the two passes again with their names spelled out; then racecheck on
# the three persistent-cluster small cases unverified since run 226, one process each, together.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
KS='*_256x104x64_s3_pc2x1_tmastore,*_256x112x64_s3_pc2x1_tmastore,*_256x120x64_s3_pc2x1_tmastore,sm90_wgmma_*_256x128x64_s4_pc2x1_tmastor?,sm90_wgmma_*_192x192x64_s4_pc2x1_tmastore_fit'
n=$($B/tcgemm kernels --kernels="$KS" 2>/dev/null | awk 'NR > 1 && $1 ~ /^sm90/' | wc -l); echo "KS selects $n entries"
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
for pass in 1 2; do
  timeout 150 $B/tcgemm bench --suite=bench/device_calls/session36/tallfit.txt --kernels="$KS" \
    --output=$W/bench_tallfit_pass$pass.csv > $W/bench_tallfit_pass$pass.txt 2>&1
  echo "tallfit pass $pass rc=$? t=$SECONDS"
  save
done
python3 bench/device_calls/session33/table_to_csv.py $W/tallfit_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
  "tcgemm bench --suite=bench/device_calls/session36/tallfit.txt --kernels=$KS" $W/bench_tallfit_pass*.txt
save
for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
  TCGEMM_TEST_SMALL=1 timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tcgemm_gpu_tests \
    --gtest_brief=1 --gtest_filter="Sm90PersistentClusterSmall.$t" > $W/race_$t.log 2>&1 &
done
wait
for t in RingAndGhostAcrossTiles SquareRingAndGhostAcrossTiles Tf32RingAndGhostAcrossTiles; do
  echo "racecheck $t: $(grep -E 'RACECHECK SUMMARY|PASSED|FAILED' $W/race_$t.log | tr '\n' ' ')"
done
echo "t=$SECONDS"; save
for p in 1 2; do echo "== tallfit pass $p"; grep -A30 'Best tcgemm' $W/bench_tallfit_pass$p.txt | cut -c1-150; done
