#!/usr/bin/env bash
# Session 15, calls 2-3: where the fused entry's time goes (call 3: one segment column a warp, no 64-bit division a unit). Per-CTA traces (TCGEMM_TRACE_KERNEL, tight
# misaligned ld's) of the fused entry and of the copies + plan entry at three shapes; the fused
# entry (now loading only the chunks a short line touches) beside the copies, thread loads and
# cuBLAS; the fused tests again.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Sm90RepackFused*:Sm90WsTrace.*' > $OUT/fused_tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $OUT/fused_tests.log | head -6
for e in repack_fused repack_splitk; do
  echo "=== trace $e"
  TCGEMM_TRACE_TIGHT=1 TCGEMM_TRACE_KERNEL=sm90_wgmma_bf16_128xN_ws_$e TCGEMM_TRACE_SHAPES=333x777x4099,1000x1000x1001,64x1024x4097 \
    timeout 60 $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes 2>&1 | grep '^\[trace\]' | tee -a $OUT/trace_$e.txt
done
K='*bf16_128xN_ws_repack_fused,*bf16_128xN_ws_repack_splitk,*bf16_128xN_ws_ldg'
for s in "333 777 4099" "1000 1000 1001" "87 6819 47" "426 2589 36" "196 511 198" "78 1096 28" "64 1024 4097" "42 40 456"; do
  set -- $s
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$OUT/p_${1}x${2}x${3}.csv > /dev/null 2>&1
done
cd $OUT && head -1 p_333x777x4099.csv > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('profiles.csv')))
by = {}
for r in rows:
    if r['disposition'] != 'passed': continue
    by.setdefault(r['problem'].split(' A=')[0], {})[r['kernel'] if r['provider'] == 'tcgemm' else 'cublas'] = float(r['runtime_ms']) * 1e3
print(f"{'shape':>16} {'fused':>7} {'copies':>7} {'ldg':>7} {'cublas':>7}  (us)")
for p, d in by.items():
    g = lambda key: next((v for k, v in d.items() if key in k), float('nan'))
    print(f"{p.replace('m=','').replace(' n=','x').replace(' k=','x'):>16} {g('fused'):7.1f} {g('repack_splitk'):7.1f} {g('_ldg'):7.1f} {d.get('cublas', float('nan')):7.1f}")
PY
