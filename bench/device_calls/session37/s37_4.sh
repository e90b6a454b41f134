#!/usr/bin/env bash
# Session 37 call 4: the tall fitting widths at 4 stages (one 64-column C box a consumer, two store
# chunks, the second partial) in place of 3 stages and whole-row C buffers. Run 235 had their
# consumers waiting on the full barriers for 38% of the stall samples at 6656x520x2048.
# Prediction: those waits fall toward 192x192's 7%, and 256x104 runs 6656x520x2048 in ~26-29 us
# (run 233: 37.7-38.0 at 3 stages, 192x192 33.9-34.2, cuBLAS 27.7-28.2), 11000x336x768 on 256x112
# below 192x192's 19.5-19.8. Built with 15-29 LDL/STL in these kernels (the Sass test's no-spill
# rule fails for them; the 256x128 tall tile has spilled since session 21, exempted): a measurement, not a merge.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*TallFit*:*Sm90PcEpilogue*256x1*'
grep -B2 -A8 -m3 Failure $W/tests.log | head -30
TCGEMM_TEST_SMALL=1 run_sanitizers '*Sm90PersistentClusterSmall.TallFit*' $W 90
save
KS='*_256x104x64_s4_pc2x1_tmastore,*_256x112x64_s4_pc2x1_tmastore,*_256x120x64_s4_pc2x1_tmastore,sm90_wgmma_*_256x128x64_s4_pc2x1_tmastore_tall,sm90_wgmma_*_192x192x64_s4_pc2x1_tmastore_fit'
n=$($B/tcgemm kernels --kernels="$KS" 2>/dev/null | awk 'NR > 1 && $1 ~ /^sm90/' | wc -l); echo "KS selects $n entries"
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
for pass in 1 2; do
  timeout 120 $B/tcgemm bench --suite=bench/device_calls/session37/tallfit.txt --kernels="$KS" \
    --output=$W/bench_tallfit4_pass$pass.csv > $W/bench_tallfit4_pass$pass.txt 2>&1
  echo "tallfit pass $pass rc=$? t=$SECONDS"
  save
done
python3 bench/device_calls/session33/table_to_csv.py $W/tallfit4_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
  "tcgemm bench --suite=bench/device_calls/session37/tallfit.txt --kernels=$KS" $W/bench_tallfit4_pass*.txt
save
ncu_prof tall104s4 6656 520 2048 tcgemm persistent_cluster 'sm90_wgmma_bf16_256x104x64_s4_pc2x1_tmastore'
save
stall_summary 2>&1 | head -14
