#!/usr/bin/env bash
# Run 271 (session 48): why our multicast split tiles lose to the same tile unshared (run 202: 2-21%)
# where cuBLAS's pairs win. 1. by name, two passes: 256x512x16384 on 64x64 s14 x4 (cuBLAS's own
# split and tile) unshared and in 1x2 pairs sharing A, 512x1024x32768 on 128x128 s7 x4 the same way.
# 2. ncu, one launch each: stall sampling, L2 and LRC counters for those four and cuBLAS's.
# 3. The copy floor and the cliffs suite through gemm(); 4. the whole GPU suite on main 20125e4.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
K64='*bf16_64x64x64_s14_ws_splitk,*bf16_64x64x64_s14_splitk_mc1x2'
K128='*bf16_128x128x64_s7_ws_splitk,*bf16_128x128x64_s7_splitk_mc1x2'
for pass in 1 2; do
  timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 --kernels="$K64" --providers=tcgemm,cublas \
    --output=$W/prof64_$pass.csv > $W/prof64_$pass.txt 2>&1; echo "prof64 $pass rc=$? t=$SECONDS"
  timeout 60 $B/tcgemm profile --m=512 --n=1024 --k=32768 --split_k_slices=4 --kernels="$K128" --providers=tcgemm,cublas \
    --output=$W/prof128_$pass.csv > $W/prof128_$pass.txt 2>&1; echo "prof128 $pass rc=$? t=$SECONDS"
done
save
L=lrc__xbar2lrc_requests_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum
nc() {  # nc TAG M N K PROVIDER KERNEL-REGEX [KERNELS]
  local extra=""; [ -n "${7:-}" ] && extra="--kernels=$7"
  timeout 90 ncu --clock-control none $NCU_STALL_SECTIONS --metrics $L --import-source no --kernel-name "regex:$6" \
    --launch-skip 2 --launch-count 1 -o $W/$1 $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 \
    --profiling-iterations=2 --profiling-rounds=1 --m=$2 --n=$3 --k=$4 --split_k_slices=4 --providers=$5 $extra \
    > $W/ncu_$1.log 2>&1; echo "ncu $1 rc=$? t=$SECONDS"
  ncu --import $W/$1.ncu-rep > $W/ncu_$1.txt 2>&1
  ncu --import $W/$1.ncu-rep --page source --print-source sass --csv > $W/src_$1.csv 2>/dev/null
  grep -E 'Duration|DRAM Throughput|L2 Hit|lrc__|lts__t_sectors|dram__bytes|No Eligible|Issued Warp' $W/ncu_$1.txt | head -14
}
nc s64_plain 256 512 16384 tcgemm wgmma_tma_ws_kernel '*bf16_64x64x64_s14_ws_splitk'
nc s64_mc 256 512 16384 tcgemm wgmma_tma_ws_kernel '*bf16_64x64x64_s14_splitk_mc1x2'
nc s64_cublas 256 512 16384 cublas nvjet
save
nc s128_plain 512 1024 32768 tcgemm wgmma_tma_ws_kernel '*bf16_128x128x64_s7_ws_splitk'
nc s128_mc 512 1024 32768 tcgemm wgmma_tma_ws_kernel '*bf16_128x128x64_s7_splitk_mc1x2'
nc s128_cublas 512 1024 32768 cublas nvjet
save
stall_summary > $W/stalls.txt 2>&1; head -80 $W/stalls.txt
timeout 60 $B/tcgemm bandwidth --bytes=134217728 > $W/bandwidth.txt 2>&1; echo "bandwidth rc=$?"; grep -E "^copy|^read" $W/bandwidth.txt
bench_suites cliffs; grep -E "geomean|^ *[0-9]+ +[0-9]+ +[0-9]+" $W/bench_cliffs.txt | tail -14
save
run_suite_if_time 380
save
echo "== by name (us, median rows)"
python3 - "$W" <<'PY'
import csv, glob, sys
for fn in sorted(glob.glob(sys.argv[1] + '/prof*_*.csv')):
    for r in csv.DictReader(open(fn)):
        if r['runtime_ms']:
            print('%-14s %-56s %8.1f us  %s' % (fn.split('/')[-1], r['kernel'][:56], float(r['runtime_ms']) * 1e3, r['ratio_to_cublas']))
PY
echo "done t=$SECONDS"; save
