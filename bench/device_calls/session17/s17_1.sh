#!/usr/bin/env bash
# Session 17 call 1 (run 158): padded slab rows (split_slab_ld: a row-major slab's ld rounded up to 4
# floats, so odd-N splits take the register-store epilogue and the float4 reduce) and the 64x64
# one-consumer tile as the planner's fourth candidate. The whole GPU suite; sanitizers on padded-slab
# cases; 333x777x4099 and its neighbours by forced plan beside gemm() and cuBLAS, two processes; the 26
# suite shapes whose plan moved to 64x64, through gemm() with and without it (TCGEMM_DIAG_NO_TILE64X64),
# alternating; the cliffs suite. A short table last.
source "$(dirname "$0")/common.sh"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "suite rc=$? t=$SECONDS"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/gpu_tests.log | head -12; gzip -f $OUT/gpu_tests.log
SAN='*Sm90SplitKTiles*130x258x3000*:*Sm90SplitKTiles*129x257x2049_splits3*:*Sm90Planned*333x777x4099*:*Sm90Planned*1000x1000x1001*'
run_sanitizers "$SAN" $OUT 150
echo "t=$SECONDS"
P() { timeout 120 $B/tcgemm profile --providers=tcgemm,cublas "$@" > /dev/null 2>&1 || echo "rc=$? for $*"; }
R='*bf16_64x64x64_s14_ws_repack_splitk,*bf16_128x64x64_s9_ws_repack_splitk'
A='*bf16_64x64x64_s14_ws_splitk,*bf16_128x64x64_s9_ws_splitk'
for pass in a b; do
  for s in "333 777 4099" "200 1500 3001" "384 641 6143"; do set -- $s
    P --m=$1 --n=$2 --k=$3 --kernels="$R" --split_k_slices=1,3 --output=$OUT/s_${pass}_${1}x${2}x${3}_r.csv
    P --m=$1 --n=$2 --k=$3 --output=$OUT/s_${pass}_${1}x${2}x${3}_g.csv
  done
  for s in "333 777 4096"; do set -- $s
    P --m=$1 --n=$2 --k=$3 --kernels="$A" --split_k_slices=1,3 --output=$OUT/s_${pass}_${1}x${2}x${3}_r.csv
    P --m=$1 --n=$2 --k=$3 --output=$OUT/s_${pass}_${1}x${2}x${3}_g.csv
  done
done
echo "t=$SECONDS"
for pass in a b; do
  timeout 150 $B/tcgemm bench --suite=bench/suites/tile64.txt --kernels=gemm --output=$OUT/tile64_new_$pass.csv > $OUT/tile64_new_$pass.txt 2>&1
  TCGEMM_DIAG_NO_TILE64X64=1 timeout 150 $B/tcgemm bench --suite=bench/suites/tile64.txt --kernels=gemm --output=$OUT/tile64_old_$pass.csv > $OUT/tile64_old_$pass.txt 2>&1
  echo "tile64 pass $pass t=$SECONDS"
done
timeout 200 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$OUT/bench_cliffs.csv > $OUT/bench_cliffs.txt 2>&1
echo "cliffs bench rc=$? t=$SECONDS"; tail -14 $OUT/bench_cliffs.txt
python3 bench/device_calls/sweep_table.py $OUT
cd $OUT
python3 - <<'PY'
import csv, glob
# tile64: gemm()'s pick with the 64x64 candidate (new) and without (old), ratio to cuBLAS per pass
t = {}
for f in sorted(glob.glob('tile64_*.csv')):
    which = f.split('_')[1]
    for r in csv.DictReader(open(f)):
        if r['provider'] != 'tcgemm_gemm_pick': continue
        t.setdefault(r['shape'], {}).setdefault(which, []).append(float(r['ratio_to_cublas']))
print('tile64 shapes: ratio to cuBLAS, new (with 64x64) | old')
for s, d in t.items():
    print(f"{s[:40]:>40} " + ' '.join(f'{x:5.2f}' for x in d.get('new', [])) + ' | ' + ' '.join(f'{x:5.2f}' for x in d.get('old', [])))
PY
