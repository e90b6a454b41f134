#!/usr/bin/env bash
# Session 18 call 2 (run 165): the cluster reduce rewritten as pushes (each warp's 16-row fragment
# stored into its owner CTA's idle stages with st.shared::cluster, the owner adding the parts in rank
# order) instead of run 164's remote loads. The cluster and split tests, sanitizers on the small
# cluster cases, then gemm()'s planned entry, the best cluster plan and the best slab plan at the
# split targets and the mid-size long-K class, and forced (splits, cluster) plans, one process each.
source "$(dirname "$0")/../session17/common.sh"
timeout 150 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Cluster*:*SplitKTiles*:*Sm90Planned*' > $W/cluster_tests.log 2>&1
echo "cluster+split tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]' $W/cluster_tests.log | head -12
grep -m4 -B2 -A8 "Failure" $W/cluster_tests.log | head -40
run_sanitizers '*Sm90ClusterReduceSmall*:*Sm90ClusterReduce*7x33x1000*splits8_cluster8' $W 90
echo "t=$SECONDS"
P() { timeout 120 $B/tcgemm profile --providers=tcgemm,cublas "$@" > /dev/null 2>&1 || echo "rc=$? for $*"; }
K='*bf16_128xN_ws_splitk,*bf16_128xN_ws_clusterk,*bf16_128xN_ws_slabk'
C='*bf16_128xN_ws_clusterk'
for s in "512 1024 32768" "256 256 65536" "1024 1024 8192" "768 768 8192" "512 512 16384" "256 512 16384" "1024 1024 4096" "1000 1000 1008" "333 776 4096"; do
  set -- $s
  P --m=$1 --n=$2 --k=$3 --kernels="$K" --output=$W/s_${1}x${2}x${3}.csv
done
echo "t=$SECONDS"
P --m=512 --n=1024 --k=32768 --kernels="$C" --split_k_slices=8,16 --split_k_cluster=2 --output=$W/f_512_c2.csv
P --m=512 --n=1024 --k=32768 --kernels="$C" --split_k_slices=4 --split_k_cluster=4 --output=$W/f_512_c4.csv
P --m=512 --n=1024 --k=32768 --kernels="$C" --split_k_slices=6 --split_k_cluster=6 --output=$W/f_512_c6.csv
P --m=256 --n=256 --k=65536 --kernels="$C" --split_k_slices=16,24 --split_k_cluster=8 --output=$W/f_256_c8.csv
P --m=256 --n=256 --k=65536 --kernels="$C" --split_k_slices=28 --split_k_cluster=4 --output=$W/f_256_c4.csv
P --m=1024 --n=1024 --k=8192 --kernels="$C" --split_k_slices=2 --split_k_cluster=2 --output=$W/f_1024_c2.csv
P --m=768 --n=768 --k=8192 --kernels="$C" --split_k_slices=3 --split_k_cluster=3 --output=$W/f_768_c3.csv
P --m=1024 --n=1024 --k=8192 --kernels='*bf16_128x128x64_s7_ws_splitk' --split_k_slices=2 --output=$W/f_1024_slab2.csv
P --m=768 --n=768 --k=8192 --kernels='*bf16_128x128x64_s7_ws_splitk' --split_k_slices=3 --output=$W/f_768_slab3.csv
echo "t=$SECONDS"
cd $W && head -1 $(ls s_*.csv | head -1) > sweeps.csv && for f in s_*.csv f_*.csv; do tail -n +2 $f >> sweeps.csv; done
python3 - <<'PY'
import csv, re
rows = {}
for r in csv.DictReader(open('sweeps.csv')):
    if r['disposition'] != 'passed': continue
    shape = '%sx%sx%s' % (r['m'], r['n'], r['k'])
    ks = re.search(r'split_k_slices=(\d+)', r['problem'])
    kc = re.search(r'--split_k_cluster=(\d+)', r['command_line'])
    k = re.sub(r'sm90_wgmma_bf16_(128xN_ws_)?', '', r['kernel']) if r['provider'] == 'tcgemm' else 'cublas'
    tag = ('x%s/c%s' % (ks.group(1), kc.group(1) if kc else '-')) if ks else ''
    if k == 'cublas': tag = ''
    rows.setdefault((shape, k, tag), []).append(float(r['runtime_ms']) * 1e3)
print('shape, entry, forced: us (each window set)')
for (shape, k, t), v in sorted(rows.items()):
    print(f"{shape:>15} {k[:22]:>22} {t:>7} " + ' '.join(f'{x:6.1f}' for x in sorted(v)[:6]))
PY
tar -C $W -czf $OUT/run165.tar.gz .
