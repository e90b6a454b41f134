#!/usr/bin/env bash
# Session 33 call 1 (prepared in session 33, no device lent then). Supersedes session32/s32_1.sh:
# the same checks of main's moved kernels (session 32) plus the new 192-row fitting widths.
# 1. The whole GPU suite (the 192x160/176 cases among it) and memcheck/racecheck/synccheck on the
#    small cases of the kernels session 32 moved and of the new tiles (Sm90PersistentClusterSmall).
# 2. Two passes of fit192.txt: the 192x160 and 192x176 entries by name beside 192x192 s3/s4,
#    gemm()'s pick and 128x256, cuBLAS in the same process. Prediction (rounds x area; explain's
#    partial-round clock credit): 4224^3 ~5% faster on 192x176 than 192x192 (4 whole rounds of 264
#    pair-tiles against 3.67 of 242), up to 8% without the credit; 6144x640 and 4232x800 ~10-17%
#    faster on 192x160 (N padded 0-8% against 20%; a 160-wide MMA reads ~5% more shared memory a
#    FLOP); 3072^3 and 4096^3 slower (more rounds).
# 3. The cliffs suite through gemm(), if time is left. $OUT is refreshed after each step.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_suite; save
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*:*Sm90PersistentClusterSmall*' $W 90
save
KS='sm90_wgmma_*_192x160x64_s3_pc2x1_tmastore,sm90_wgmma_*_192x176x64_s3_pc2x1_tmastore,sm90_wgmma_*_192x192x64_s*_pc2x1_tmastore*,sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastor?'
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
for pass in 1 2; do
  [ $SECONDS -gt 400 ] && { echo "pass $pass skipped t=$SECONDS"; break; }
  timeout 150 $B/tcgemm bench --suite=bench/device_calls/session33/fit192.txt --kernels="$KS" \
    --output=$W/bench_fit192_pass$pass.csv > $W/bench_fit192_pass$pass.txt 2>&1
  echo "fit192 pass $pass rc=$? t=$SECONDS"
  # Every kernel's row (bench's own CSV keeps the best, the pick and cuBLAS only), and a short table.
  python3 bench/device_calls/session33/table_to_csv.py $W/fit192_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
    "tcgemm bench --suite=bench/device_calls/session33/fit192.txt --kernels=$KS" $W/bench_fit192_pass*.txt
  save
done
[ $SECONDS -lt 470 ] && { bench_suites cliffs; save; }
[ -f $W/bench_cliffs.txt ] && tail -14 $W/bench_cliffs.txt
