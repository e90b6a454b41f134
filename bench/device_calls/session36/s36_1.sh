#!/usr/bin/env bash
# Session 36 call 1: the tall tile's fitting widths (256x104/112/120, new): their GPU tests and the
# sanitizers on their small cases, then two passes of tallfit.txt by name (cuBLAS in the same
# process). Prediction (rounds x area): 6656x520 ~15-20% faster than the 192x192 pick (one round of
# 130 CTAs, no N padding, against 108 CTAs of 192x192 with N padded 11%); 11000x336x768 ~10%;
# 6144x640 and 4096^3 (controls) slower or level.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*TallFit*:*Sm90PcEpilogue*256x1*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*Sm90PersistentClusterSmall.TallFit*' $W 90
save
KS='sm90_wgmma_*_256x1?[04]x64_s3_pc2x1_tmastore,sm90_wgmma_*_256x128x64_s4_pc2x1_tmastor?,sm90_wgmma_*_192x192x64_s4_pc2x1_tmastore_fit'
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
for pass in 1 2; do
  timeout 150 $B/tcgemm bench --suite=bench/device_calls/session36/tallfit.txt --kernels="$KS" \
    --output=$W/bench_tallfit_pass$pass.csv > $W/bench_tallfit_pass$pass.txt 2>&1
  echo "tallfit pass $pass rc=$? t=$SECONDS"
  python3 bench/device_calls/session33/table_to_csv.py $W/tallfit_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
    "tcgemm bench --suite=bench/device_calls/session36/tallfit.txt --kernels=$KS" $W/bench_tallfit_pass*.txt
  save
done
run_suite_if_time 330
save
for p in 1 2; do echo "== tallfit pass $p"; grep -vE '^\s*$' $W/bench_tallfit_pass$p.txt | tail -40 | cut -c1-160; done
