#!/usr/bin/env bash
# Session 30 call 2 (run 217): the swapped 128x64 tile in multicast clusters (cuBLAS's
# 128x8192x8192 / 1024x1024x8192 kernel, run 216) and the unswapped 128x64 s9 in 1x2 clusters,
# new registry entries over existing instances. Their GPU tests and sanitizers, then two passes by
# name against the nearest entries on the split-K-weak shapes, then ncu (SOL + memory) on ours
# and cuBLAS's at 128x8192x8192.
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session30
run_tests '*Multicast*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*Multicast*' $W 100
K='128xN_ws_splitk,128x64x64_s9_ws,128x64x64_s9_mc1x2,swapab_mc,swapab_splitk_mc,128x128x64_s7_ws_splitk,64x64x64_s14_narrow,128x64x64_s9_splitk_mc'
for pass in 1 2; do
  [ $SECONDS -gt 330 ] && { echo "pass $pass skipped t=$SECONDS"; break; }
  timeout 120 $B/tcgemm bench --suite=$D/swapmc.txt --kernels="$K" --output=$W/byname_$pass.csv > $W/byname_$pass.txt 2>&1
  echo "bench pass $pass rc=$? t=$SECONDS"
done
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats"
prof() {  # name providers kernel-regex [kernels]
  local P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=128 --n=8192 --k=8192 --providers=$2"
  [ -n "${4:-}" ] && P="$P --kernels=$4"
  [ $SECONDS -gt 470 ] && { echo "ncu $1 skipped t=$SECONDS"; return; }
  timeout 60 ncu --clock-control none $S --kernel-name "regex:$3" --launch-skip 2 --launch-count 1 $P > $W/ncu_$1.txt 2>&1
  echo "== ncu $1 rc=$?"; grep -E 'Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|L2 Hit Rate|Mem Busy|Max Bandwidth|Memory Throughput' $W/ncu_$1.txt | head -9
}
prof swapmc tcgemm wgmma_tma_ws sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1
prof ws128x64 tcgemm wgmma_tma_ws sm90_wgmma_bf16_128x64x64_s9_ws
prof cublas cublas 'nvjet|sm90|gemm'
cd $W && python3 - <<'PY'
import csv, glob, collections
t = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob('byname_*.csv')):
    for r in csv.DictReader(open(f)):
        k = 'PICK ' + r['kernel'] if r['provider'] == 'tcgemm_gemm_pick' else r['kernel'] if r['provider'] == 'tcgemm' else 'cuBLAS'
        t[r['shape'].split(' A=')[0]][k.replace('sm90_wgmma_bf16_', '')].append(float(r['tflops']))
for sh, v in t.items():
    cb = sum(v['cuBLAS']) / max(len(v['cuBLAS']), 1)
    print('%-24s cuBLAS %6.0f' % (sh, cb), ' | '.join('%s %s' % (k, '/'.join('%.2f' % (x / cb) for x in v[k])) for k in sorted(v, key=lambda k: -max(v[k])) if k != 'cuBLAS')[:400])
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
