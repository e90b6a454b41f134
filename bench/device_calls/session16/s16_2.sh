#!/usr/bin/env bash
# Session 16 call 2 (branch exp/in-copy-streams' binaries; the split kernels are main's): forced
# split counts and tiles at the four split targets, beside gemm()'s pick and cuBLAS in the same
# process, two processes each. Looks for a plan the planner misses on today's kernels.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
SECONDS=0; nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
P() { timeout 120 $B/tcgemm profile --providers=tcgemm,cublas --profiling-rounds=4 "$@" > /dev/null 2>&1 || echo "rc=$? for $*"; }
for pass in a b; do
  P --m=128 --n=8192 --k=28672 --output=$OUT/s_${pass}_128_gemm.csv
  P --m=128 --n=8192 --k=28672 --kernels='*bf16_128x128x64_s7_ws_splitk,*bf16_128x64x64_s9_ws_splitk' --split_k_slices=1,2,3 --output=$OUT/s_${pass}_128_a.csv
  P --m=128 --n=8192 --k=28672 --kernels='*bf16_128x256x64_s4_ws_splitk' --split_k_slices=2,3,4,5 --output=$OUT/s_${pass}_128_b.csv
  P --m=256 --n=256 --k=65536 --output=$OUT/s_${pass}_256_gemm.csv
  P --m=256 --n=256 --k=65536 --kernels='*bf16_128x128x64_s7_ws_splitk,*bf16_128x64x64_s9_ws_splitk,*bf16_128x256x64_s3_pc2x1_splitk' --split_k_slices=16,25,33 --output=$OUT/s_${pass}_256_a.csv
  P --m=256 --n=256 --k=65536 --kernels='*bf16_128x256x64_s4_ws_splitk' --split_k_slices=33,50,66 --output=$OUT/s_${pass}_256_b.csv
  P --m=512 --n=1024 --k=32768 --output=$OUT/s_${pass}_512_gemm.csv
  P --m=512 --n=1024 --k=32768 --kernels='*bf16_128x256x64_s4_ws_splitk,*bf16_128x256x64_s3_pc2x1_splitk,*bf16_128x128x64_s7_ws_splitk' --split_k_slices=4,8 --output=$OUT/s_${pass}_512_a.csv
  P --m=512 --n=1024 --k=32768 --kernels='*bf16_128x256x64_s3_pc2x1_streamk,*bf16_128x256x64_s4_ws_streamk,*bf16_128x256x64_s3_pc2x1_tmastore' --output=$OUT/s_${pass}_512_b.csv
  P --m=333 --n=777 --k=4099 --kernels='*bf16_128xN_ws_repack_fused,*bf16_128x64x64_s9_ws_repack_splitk' --split_k_slices=1,2,3 --output=$OUT/s_${pass}_333_a.csv
  P --m=333 --n=777 --k=4099 --output=$OUT/s_${pass}_333_gemm.csv
done
echo "t=$SECONDS s"
cd $OUT && head -1 s_a_128_gemm.csv > sweeps.csv && for f in s_*.csv; do tail -n +2 $f >> sweeps.csv; done && rm -f s_*.csv
python3 - <<'PY'
import csv, re
rows = {}
for r in csv.DictReader(open('sweeps.csv')):
    if r['disposition'] != 'passed': continue
    shape = '%sx%sx%s' % (r['m'], r['n'], r['k'])
    sl = re.search(r'--split_k_slices=(\S+)', r['command_line'])
    ks = re.search(r'split_k_slices=(\d+)', r['problem'])
    key = (shape, r['kernel'] if r['provider'] == 'tcgemm' else 'cublas', ks.group(1) if ks else ('' if sl is None else '?'))
    if key[1] == 'cublas': key = (shape, 'cublas', '')
    rows.setdefault(key, []).append(float(r['runtime_ms']) * 1e3)
for (shape, k, s), v in sorted(rows.items()):
    print(f"{shape:>15} {k[-40:]:>40} {s:>3} " + ' '.join(f'{x:6.1f}' for x in sorted(v)))
PY
