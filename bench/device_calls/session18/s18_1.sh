#!/usr/bin/env bash
# Session 18 call 1: split-K reduced inside thread-block clusters (DSMEM, no slab round trip where a
# cluster holds every split of its tile). The new GPU tests and the split tests beside them, how many
# clusters of each size stay resident, then the
# split targets and the mid-size long-K class through three entries in one process: gemm()'s planned
# entry (`_128xN_ws_splitk`, which may now take a cluster plan), the best cluster plan (`_clusterk`)
# and the best plan without (`_slabk`), beside cuBLAS; forced cluster sizes at the two split targets.
# A short table last. (Sanitizers and the whole suite: the next call, on the calibrated planner.)
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Cluster*:*SplitKTiles*:*Sm90Planned*' > $W/cluster_tests.log 2>&1
echo "cluster+split tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|^\[clusters\]' $W/cluster_tests.log | head -20
grep -m5 -B2 -A8 "Failure" $W/cluster_tests.log | head -60
P() { timeout 120 $B/tcgemm profile --providers=tcgemm,cublas "$@" > /dev/null 2>&1 || echo "rc=$? for $*"; }
K='*bf16_128xN_ws_splitk,*bf16_128xN_ws_clusterk,*bf16_128xN_ws_slabk'
for pass in a b; do
  for s in "512 1024 32768" "256 256 65536" "1024 1024 8192" "768 768 8192" "512 512 16384" "256 512 16384" "1024 1024 4096" "128 8192 28672" "1000 1000 1008"; do
    set -- $s
    P --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$W/s_${pass}_${1}x${2}x${3}.csv
  done
  P --m=512 --n=1024 --k=32768 --kernels='*bf16_128xN_ws_clusterk' --split_k_slices=8,16 --split_k_cluster=2 --output=$W/f_${pass}_512_c2.csv
  P --m=512 --n=1024 --k=32768 --kernels='*bf16_128xN_ws_clusterk' --split_k_slices=8,16 --split_k_cluster=4 --output=$W/f_${pass}_512_c4.csv
  P --m=512 --n=1024 --k=32768 --kernels='*bf16_128xN_ws_clusterk' --split_k_slices=8,16 --split_k_cluster=8 --output=$W/f_${pass}_512_c8.csv
  P --m=256 --n=256 --k=65536 --kernels='*bf16_128xN_ws_clusterk' --split_k_slices=16,32 --split_k_cluster=4 --output=$W/f_${pass}_256_c4.csv
  P --m=256 --n=256 --k=65536 --kernels='*bf16_128xN_ws_clusterk' --split_k_slices=16,32,64 --split_k_cluster=8 --output=$W/f_${pass}_256_c8.csv
  echo "pass $pass t=$SECONDS"
done
$B/tcgemm explain --m=512 --n=1024 --k=32768 --device=auto 2>&1 | grep -i -m3 "plan\|tile 1" > $W/explain_512.txt
cd $W && head -1 $(ls s_*.csv | head -1) > sweeps.csv && for f in s_*.csv f_*.csv; do tail -n +2 $f >> sweeps.csv; done
python3 - <<'PY'
import csv, re
rows = {}
for r in csv.DictReader(open('sweeps.csv')):
    if r['disposition'] != 'passed': continue
    shape = '%sx%sx%s' % (r['m'], r['n'], r['k'])
    ks = re.search(r'split_k_slices=(\d+)', r['problem'])
    kc = re.search(r'--split_k_cluster=(\d+)', r['command_line'])
    k = r['kernel'].replace('sm90_wgmma_bf16_128xN_ws_', '') if r['provider'] == 'tcgemm' else 'cublas'
    tag = ('x%s/c%s' % (ks.group(1), kc.group(1))) if ks and kc else ''
    if k == 'cublas': tag = ''
    rows.setdefault((shape, k, tag), []).append(float(r['runtime_ms']) * 1e3)
print('shape, entry, forced: us (each window set)')
for (shape, k, t), v in sorted(rows.items()):
    print(f"{shape:>15} {k:>9} {t:>7} " + ' '.join(f'{x:6.1f}' for x in sorted(v)))
PY
cat explain_512.txt
tar -C $W -czf $OUT/run164.tar.gz .
