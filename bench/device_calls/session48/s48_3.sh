#!/usr/bin/env bash
# Run 273 (session 48): two accumulator sets on the ws tiles 64 wide or narrower (mma_k_block_dual;
# tcgemm = main + the change, tcgemm_old = main cf0e565). 1. by name at 256x512x16384 (64x64 x4,
# 128x64 x6) new and old; 2. the per-CTA traces (cycles a k-block); 3. gemm() on the shapes whose
# plans take those tiles, new / old; 4. the whole GPU suite and the sanitizers on the
# small ws cases.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
S=bench/device_calls/session48/narrow16.txt
ab() { timeout 100 $B/$1 bench --suite=$S --kernels=gemm --output=$W/narrow_$2.csv > $W/narrow_$2.txt 2>&1
  echo "$2 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/narrow_$2.txt)"; }
K='*bf16_64x64x64_s14_ws_splitk,*bf16_128x64x64_s9_ws_splitk'
for who in tcgemm tcgemm_old; do
  for s in 4 6; do
    timeout 40 $B/$who profile --m=256 --n=512 --k=16384 --split_k_slices=$s --kernels="$K" --providers=tcgemm,cublas \
      --output=$W/byname_${who}_$s.csv >> $W/byname.txt 2>&1
  done
done
echo "byname t=$SECONDS"
for e in sm90_wgmma_bf16_64x64x64_s14_ws_splitk sm90_wgmma_bf16_128x64x64_s9_ws_splitk; do
  TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e timeout 60 \
    $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$e.txt 2>&1
  echo "== trace $e rc=$?"; grep -E "first -> last|SM clock|last MMA done" $W/trace_$e.txt
done
save
ab tcgemm new1; ab tcgemm_old old1
save
run_suite
save
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90SplitKTilesSmall*' $W 45
save
python3 - "$W" <<'PY'
import csv, glob, os, sys, collections
w = sys.argv[1]
res = collections.defaultdict(dict)
for fn in sorted(glob.glob(w + '/narrow_*.csv')):
    tag = os.path.basename(fn)[7:-4]
    for r in csv.DictReader(open(fn)):
        if r['provider'] == 'tcgemm':
            res[r['shape'].split(' A=')[0]][tag] = (float(r['ratio_to_cublas']), float(r['tflops']), r.get('kernel', '')[:44])
print('%-26s %7s %7s %7s %7s  new/old TFLOP/s  kernel' % ('shape', 'new1', 'old1', 'old2', 'new2'))
for s, d in res.items():
    t = lambda k: d[k][1] if k in d else 0.0
    print('%-26s ' % s + ' '.join('%7.3f' % d[k][0] if k in d else '%7s' % '-' for k in ('new1', 'old1', 'old2', 'new2')) +
          '  %.3f  %s' % ((t('new1') + t('new2')) / max(t('old1') + t('old2'), 1e-9), d.get('new1', (0, 0, ''))[2]))
for fn in sorted(glob.glob(w + '/byname_*.csv')):
    for r in csv.DictReader(open(fn)):
        if r['runtime_ms'] and r['provider'] == 'tcgemm':
            print('%-26s %-44s %6.1f us  %s' % (os.path.basename(fn), r['kernel'][:44], float(r['runtime_ms']) * 1e3, r['ratio_to_cublas']))
PY
echo "done t=$SECONDS"; save
