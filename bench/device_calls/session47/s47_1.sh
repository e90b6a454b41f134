#!/usr/bin/env bash
# Run 265 (session 47): data for the split planner's refit. Forced-split sweeps of the four split
# tiles (128x256 s4, 128x128 s7, 128x64 s9, 64x64 s14) at 1-32 slices over the plain split-K shapes
# of splitk.txt, one process a shape with cuBLAS once beside, then the splitk suite through gemm()
# (main's plans, the baseline the refit is judged against). Table last: per shape, gemm()'s pick,
# the best forced plan, and cuBLAS.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
K='sm90_wgmma_bf16_128x256x64_s4_ws_splitk,sm90_wgmma_bf16_128x128x64_s7_ws_splitk,sm90_wgmma_bf16_128x64x64_s9_ws_splitk,sm90_wgmma_bf16_64x64x64_s14_ws_splitk'
SHAPES="256x256x65536 256x512x16384 512x1024x32768 1024x1024x8192 768x768x8192 128x1024x8192 128x2048x8192
128x4096x4096 128x8192x8192 128x8192x28672 96x4096x4096 96x4096x14336 80x3072x12288 100x8192x8192
101x11857x10808 1016x1648x11344 10826x6x6840 208x152x13672 249x761x4496 2867x131x8680 1962x226x3232"
for s in $SHAPES; do
  IFS=x read m n k <<< "$s"
  timeout 120 $B/tcgemm profile --m=$m --n=$n --k=$k --verification-enabled=false --providers=tcgemm --kernels="$K" \
    --split_k_slices=1,2,3,4,6,8,12,16,24,32 --profiling-iterations=0 --profiling-duration=20 --profiling-rounds=2 \
    --output=$W/sweep_$s.csv > $W/sweep_$s.txt 2>&1
  echo "sweep $s rc=$? t=$SECONDS"
  timeout 60 $B/tcgemm profile --m=$m --n=$n --k=$k --verification-enabled=false --providers=tcgemm,cublas \
    --profiling-iterations=0 --profiling-duration=40 --profiling-rounds=2 --output=$W/pick_$s.csv > $W/pick_$s.txt 2>&1
  echo "pick $s rc=$? t=$SECONDS"
  save
done
timeout 150 $B/tcgemm bench --suite=bench/suites/splitk.txt --kernels=gemm --output=$W/bench_splitk.csv > $W/bench_splitk.txt 2>&1
echo "bench splitk rc=$? t=$SECONDS"; save
python3 - "$W" $SHAPES <<'PY'
import csv, sys, re
w = sys.argv[1]
print(f"{'shape':18s} {'gemm() pick':44s} {'us':>6s} {'cuBLAS':>6s} {'best forced':>28s} {'us':>6s}")
for s in sys.argv[2:]:
    try:
        pick = list(csv.DictReader(open(f"{w}/pick_{s}.csv")))
        sw = list(csv.DictReader(open(f"{w}/sweep_{s}.csv")))
    except OSError:
        print(s, "missing"); continue
    ours = [r for r in pick if r['provider'] == 'tcgemm']
    cub = [r for r in pick if r['provider'] == 'cublas']
    best = min((r for r in sw if r['runtime_ms']), key=lambda r: float(r['runtime_ms']))
    sl = re.search(r'split_k_slices=(\d+)', best['problem']).group(1)
    print(f"{s:18s} {ours[0]['kernel'][:44]:44s} {float(ours[0]['runtime_ms'])*1e3:6.1f} {float(cub[0]['runtime_ms'])*1e3:6.1f} "
          f"{best['kernel'][16:36] + ' x' + sl:>28s} {float(best['runtime_ms'])*1e3:6.1f}")
PY
echo "done t=$SECONDS"; save
