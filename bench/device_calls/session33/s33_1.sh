#!/usr/bin/env bash
# Session 33 call 1 (prepared in session 33, no device lent then). Supersedes session32/s32_1.sh:
# the same checks of main's moved kernels (session 32) plus the new 192x176 tile.
# 1. The whole GPU suite (the 192x176 cases among it) and memcheck/racecheck/synccheck on the small
#    cases of the kernels session 32 moved and of the 192x176 tile (Sm90PersistentClusterSmall).
# 2. Two passes of narrow_square.txt: the 192x176 entries by name beside the 192x192 ones and
#    gemm()'s pick (the 192x192 `_fit`), cuBLAS in the same process. Prediction (rounds x area,
#    with the partial-round clock credit of explain's model): 4224^3 ~5% faster than 192x192
#    (4 whole rounds of 264 pair-tiles against 3.67 of 242), up to 8% if the idle third of the last
#    round earns nothing; 3072^3 and 4096^3 slower (more rounds).
# 3. The cliffs suite through gemm(), if time is left.
source "$(dirname "$0")/../session17/common.sh"
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*:*Sm90PersistentClusterSmall*' $W 90
KS='sm90_wgmma_*_192x176x64_s3_pc2x1_tmastore,sm90_wgmma_*_192x192x64_s*_pc2x1_tmastore*,sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastor?'
for pass in 1 2; do
  [ $SECONDS -gt 420 ] && { echo "pass $pass skipped t=$SECONDS"; break; }
  timeout 110 $B/tcgemm bench --suite=bench/device_calls/session33/narrow_square.txt --kernels="$KS" \
    --output=$W/bench_narrow_square_pass$pass.csv > $W/bench_narrow_square_pass$pass.txt 2>&1
  echo "narrow_square pass $pass rc=$? t=$SECONDS"
done
[ $SECONDS -lt 470 ] && bench_suites cliffs
# Every kernel's row (bench's own CSV keeps the best, the pick and cuBLAS only), and a short table.
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
python3 bench/device_calls/session33/table_to_csv.py $W/narrow_square_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
  "tcgemm bench --suite=bench/device_calls/session33/narrow_square.txt --kernels=$KS" $W/bench_narrow_square_pass*.txt
[ -f $W/bench_cliffs.txt ] && tail -14 $W/bench_cliffs.txt
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
