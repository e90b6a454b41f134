#!/usr/bin/env bash
# Session 16 call 1, on branch exp/in-copy-streams (s15_3_next.sh as written in session 15, with timestamps). The
# in-grid copies with cp.async landing slots: the fused tests, sanitizers on
# small fused cases, traces of both entries by name, the fused entry beside the copies kernel + the
# same plan and cuBLAS, the whole suite; a short table last.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
SECONDS=0; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90RepackFused*' > $OUT/fused_tests.log 2>&1; echo "fused tests rc=$?"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/fused_tests.log | head -8
SAN='*Sm90RepackFused*7x33x65_ArowBcol*:*Sm90RepackFused*129x65x300_ArowBcol_oddld*:*Sm90RepackFused*130x200x129_ArowBcol_Bonly*:*Sm90RepackFused*bf16_1x1x1_ArowBcol*'
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter="$SAN" > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_$t.log | head -2
done
for e in repack_fused repack_splitk; do
  TCGEMM_TRACE_TIGHT=1 TCGEMM_TRACE_KERNEL=sm90_wgmma_bf16_128xN_ws_$e TCGEMM_TRACE_SHAPES=333x777x4099,1000x1000x1001,64x1024x4097 \
    timeout 60 $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes 2>&1 | grep '^\[trace\]' > $OUT/trace_$e.txt
  grep -E 'trace\] [0-9]|copies met' $OUT/trace_$e.txt
done
K='*bf16_128xN_ws_repack_fused,*bf16_128xN_ws_repack_splitk'
for pass in a b; do for s in "333 777 4099" "1000 1000 1001" "64 1024 4097" "196 511 198" "426 2589 36" "87 6819 47" "1024 1024 8193" "768 768 8193"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${pass}_${1}x${2}x${3}.csv > /dev/null 2>&1
done; done
echo "t=$SECONDS s before the suite"; timeout 300 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo "suite rc=$?"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/gpu_tests.log | head -8; gzip -f $OUT/gpu_tests.log
cd $OUT && head -1 p_a_333x777x4099.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
python3 - <<'PY'
import csv
by = {}
for r in csv.DictReader(open('profiles.csv')):
    if r['disposition'] != 'passed': continue
    key = r['kernel'] if r['provider'] == 'tcgemm' else 'cublas'
    by.setdefault(r['problem'].split(' A=')[0], {}).setdefault(key, []).append(float(r['runtime_ms']) * 1e3)
print(f"{'shape':>16} {'fused':>11} {'copies':>11} {'cublas':>11}  (us, the two processes)")
for p, d in by.items():
    g = lambda key: next(('/'.join(f'{x:.1f}' for x in v) for k, v in d.items() if key in k), 'nan')
    print(f"{p.replace('m=','').replace(' n=','x').replace(' k=','x'):>16} {g('fused'):>11} {g('repack_splitk'):>11} {g('cublas'):>11}")
PY
