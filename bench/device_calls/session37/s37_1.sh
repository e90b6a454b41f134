#!/usr/bin/env bash
# Session 37 call 1 (session 36's two calls in one: its results never reached main). The tall
# tile's fitting widths (256x104/112/120, never run before): their GPU tests and the sanitizers on
# their small cases; two passes of tallfit.txt by name (names spelled out: a glob has no [..]
# class, which is why s36_1 selected none), cuBLAS in the same process; the whole GPU suite last.
# Prediction (rounds x area, s36_1): 6656x520 ~15-20% faster than the 192x192 pick, 11000x336 ~10%.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*TallFit*:*Sm90PcEpilogue*256x1*'
grep -B2 -A8 -m3 Failure $W/tests.log | head -30
TCGEMM_TEST_SMALL=1 run_sanitizers '*Sm90PersistentClusterSmall.TallFit*' $W 90
save
KS='*_256x104x64_s3_pc2x1_tmastore,*_256x112x64_s3_pc2x1_tmastore,*_256x120x64_s3_pc2x1_tmastore,sm90_wgmma_*_256x128x64_s4_pc2x1_tmastore_tall,sm90_wgmma_*_192x192x64_s4_pc2x1_tmastore_fit'
n=$($B/tcgemm kernels --kernels="$KS" 2>/dev/null | awk 'NR > 1 && $1 ~ /^sm90/' | wc -l); echo "KS selects $n entries"
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
for pass in 1 2; do
  timeout 120 $B/tcgemm bench --suite=bench/device_calls/session37/tallfit.txt --kernels="$KS" \
    --output=$W/bench_tallfit_pass$pass.csv > $W/bench_tallfit_pass$pass.txt 2>&1
  echo "tallfit pass $pass rc=$? t=$SECONDS"
  save
done
python3 bench/device_calls/session33/table_to_csv.py $W/tallfit_byname.csv "$(date -u +%FT%TZ)" "$DRIVER" \
  "tcgemm bench --suite=bench/device_calls/session37/tallfit.txt --kernels=$KS" $W/bench_tallfit_pass*.txt
save
run_suite_if_time 300
save
for p in 1 2; do echo "== tallfit pass $p"; grep -A16 'Best tcgemm' $W/bench_tallfit_pass$p.txt | cut -c1-150; done
