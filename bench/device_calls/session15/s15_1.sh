#!/usr/bin/env bash
# Session 15, call 1: the GEMM grid's own copies (`_ws_repack_fused`, in_kernel_copy.hpp). The new
# tests and the whole GPU suite; memcheck, racecheck and synccheck on small fused cases; then the
# fused entry beside the copies kernel + the same plan (`_ws_repack_splitk`) and cuBLAS, same
# process, on misaligned shapes of one round; last a short table.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "=== fused tests $(date +%T)"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90RepackFused*' > $OUT/fused_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/fused_tests.log | head -12
grep -B2 -A12 -m3 'Failure' $OUT/fused_tests.log | head -40
SAN='*Sm90RepackFused*7x33x65_ArowBcol*:*Sm90RepackFused*129x65x300_ArowBcol_oddld*:*Sm90RepackFused*130x200x129_ArowBcol_Bonly*:*Sm90RepackFused*bf16_1x1x1_ArowBcol*'
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter="$SAN" > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
echo "=== by name $(date +%T)"
K='*bf16_128xN_ws_repack_fused,*bf16_128xN_ws_repack_splitk'
for s in "333 777 4099" "1000 1000 1001" "1024 1024 8193" "768 768 8193" "2048 512 16385" "512 1024 32769" \
         "87 6819 47" "426 2589 36" "196 511 198" "42 40 456" "78 1096 28" "64 1024 4097"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv > /dev/null 2>&1
  echo "rc=$? $1x$2x$3"
done
echo "=== GPU suite $(date +%T)"
timeout 300 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/gpu_tests.log | head -12
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
gzip -f gpu_tests.log
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('profiles.csv')))
print(f"{'shape':>16} {'fused us':>9} {'copies us':>9} {'cublas us':>9} {'fused/cublas':>12}")
by = {}
for r in rows:
    if r['disposition'] != 'passed': continue
    by.setdefault(r['problem'].split(' A=')[0], {})[r['kernel'] if r['provider'] == 'tcgemm' else 'cublas'] = float(r['runtime_ms']) * 1e3
for p, d in by.items():
    f = next((v for k, v in d.items() if 'fused' in k), float('nan'))
    c = next((v for k, v in d.items() if 'repack_splitk' in k), float('nan'))
    cb = d.get('cublas', float('nan'))
    print(f"{p.replace('m=','').replace(' n=','x').replace(' k=','x'):>16} {f:9.1f} {c:9.1f} {cb:9.1f} {cb/f if f == f and f > 0 else float('nan'):12.3f}")
PY
