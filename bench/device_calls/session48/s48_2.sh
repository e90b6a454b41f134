#!/usr/bin/env bash
# Run 272 (session 48): run 271's finding, that our multicast split passes lose the L2 request
# coalescer's hardware merges (128x128 x4 at 512x1024x32768: 9.76 M sectors merged unshared, 0.07 M in
# 1x2 pairs; cuBLAS's pairs 5.29 M) and read 60% more L2 sectors. Does the L2 policy hint change it
# (TCGEMM_DIAG_L2_HINT=0: no hints; 4: main's)? ncu metrics only, one launch each, and by-name
# timings under both, and under TCGEMM_DIAG_CLUSTER_POLICY=1/2 (spread, load balancing), at 256x512x16384 (64x64 x4) and 512x1024x32768 (128x128 x4).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz --exclude='*.ncu-rep' .; }
L=lrc__xbar2lrc_requests_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,sm__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
nm() {  # nm TAG HINT M N K PROVIDER KERNEL-REGEX [KERNELS]
  local extra=""; [ -n "${8:-}" ] && extra="--kernels=$8"
  TCGEMM_DIAG_L2_HINT=$2 timeout 60 ncu --clock-control none --metrics $L --kernel-name "regex:$7" --launch-skip 2 --launch-count 1 \
    $B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
    --m=$3 --n=$4 --k=$5 --split_k_slices=4 --providers=$6 $extra > $W/nm_$1.txt 2>&1
  echo "== $1 rc=$? $(awk '/gpu__time_duration/{t=$NF} /lrc__lts2lrc/{l=$NF} /type_hardware/{h=$NF} /type_programmatic/{p=$NF} /lts__t_sectors_op_read/{r=$NF} /sm__inst_executed/{i=$NF} /hmma_cycles/{c=$NF} /elapsed.avg.per_second/{f=$NF" "$(NF-1)} END{print "us="t" lts2lrc="l" hw="h" prog="p" lts_read="r" inst="i" tensor%="c" clk="f}' $W/nm_$1.txt)"
}
P64='*bf16_64x64x64_s14_ws_splitk'; M64='*bf16_64x64x64_s14_splitk_mc1x2'
P128='*bf16_128x128x64_s7_ws_splitk'; M128='*bf16_128x128x64_s7_splitk_mc1x2'
for h in 4 0; do
  nm s64_plain_h$h $h 256 512 16384 tcgemm wgmma_tma_ws_kernel "$P64"
  nm s64_mc_h$h $h 256 512 16384 tcgemm wgmma_tma_ws_kernel "$M64"
  nm s128_plain_h$h $h 512 1024 32768 tcgemm wgmma_tma_ws_kernel "$P128"
  nm s128_mc_h$h $h 512 1024 32768 tcgemm wgmma_tma_ws_kernel "$M128"
done
nm s128_mc2x1_h4 4 512 1024 32768 tcgemm wgmma_tma_ws_kernel '*bf16_128x128x64_s7_splitk_mc2x1'
nm s128_mc2x2_h4 4 512 1024 32768 tcgemm wgmma_tma_ws_kernel '*bf16_128x128x64_s7_splitk_mc2x2'
for pol in 1 2; do  # the cluster scheduling policy (spread, load balancing) on the pairs
  (export TCGEMM_DIAG_CLUSTER_POLICY=$pol; nm s64_mc_pol$pol 4 256 512 16384 tcgemm wgmma_tma_ws_kernel "$M64")
  (export TCGEMM_DIAG_CLUSTER_POLICY=$pol; nm s128_mc_pol$pol 4 512 1024 32768 tcgemm wgmma_tma_ws_kernel "$M128")
done
nm s64_cublas 4 256 512 16384 cublas nvjet
nm s128_cublas 4 512 1024 32768 cublas nvjet
save
# Per-CTA timelines (the ws kernel's trace): do the pairs start and stream as much in step as the unshared CTAs?
for e in sm90_wgmma_bf16_128x128x64_s7_ws_splitk sm90_wgmma_bf16_128x128x64_s7_splitk_mc1x2; do
  TCGEMM_TRACE_SHAPES=512x1024x32768 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W timeout 60 \
    $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$e.txt 2>&1
  echo "== trace $e rc=$?"; grep "\[trace\]" $W/trace_$e.txt | head -12; mv $W/trace_512x1024x32768.csv $W/trace_$e.csv 2>/dev/null
done
for e in sm90_wgmma_bf16_64x64x64_s14_ws_splitk sm90_wgmma_bf16_64x64x64_s14_splitk_mc1x2; do
  TCGEMM_TRACE_SHAPES=256x512x16384 TCGEMM_TRACE_SPLITS=4 TCGEMM_TRACE_KERNEL=$e TCGEMM_RESULTS_DIR=$W timeout 60 \
    $B/tcgemm_gpu_tests --gtest_filter=Sm90WsTrace.TimelineOfRequestedShapes > $W/trace_$e.txt 2>&1
  echo "== trace $e rc=$?"; grep "\[trace\]" $W/trace_$e.txt | head -12; mv $W/trace_256x512x16384.csv $W/trace_$e.csv 2>/dev/null
done
save
for i in 1 2 3 4; do
  h=$(( i % 2 == 1 ? 4 : 0 ))
  TCGEMM_DIAG_L2_HINT=$h timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 --kernels="$P64,$M64" \
    --providers=tcgemm,cublas --output=$W/p64_h${h}_$i.csv >> $W/p64_h$h.txt 2>&1
  TCGEMM_DIAG_L2_HINT=$h timeout 60 $B/tcgemm profile --m=512 --n=1024 --k=32768 --split_k_slices=4 --kernels="$P128,$M128" \
    --providers=tcgemm,cublas --output=$W/p128_h${h}_$i.csv >> $W/p128_h$h.txt 2>&1
  echo "profiles hint $h t=$SECONDS"
done
for pol in 1 2; do
  TCGEMM_DIAG_CLUSTER_POLICY=$pol timeout 60 $B/tcgemm profile --m=256 --n=512 --k=16384 --split_k_slices=4 --kernels="$P64,$M64" \
    --providers=tcgemm,cublas --output=$W/p64_pol${pol}.csv > $W/p64_pol$pol.txt 2>&1
  TCGEMM_DIAG_CLUSTER_POLICY=$pol timeout 60 $B/tcgemm profile --m=512 --n=1024 --k=32768 --split_k_slices=4 --kernels="$P128,$M128" \
    --providers=tcgemm,cublas --output=$W/p128_pol${pol}.csv > $W/p128_pol$pol.txt 2>&1
  echo "profiles policy $pol t=$SECONDS"
done
save
python3 - "$W" <<'PY'
import csv, glob, sys
for fn in sorted(glob.glob(sys.argv[1] + '/p*_h*.csv') + glob.glob(sys.argv[1] + '/p*_pol*.csv')):
    for r in csv.DictReader(open(fn)):
        if r['runtime_ms']:
            print('%-12s %-48s %7.1f us  %s' % (fn.split('/')[-1], r['kernel'][:48], float(r['runtime_ms']) * 1e3, r['ratio_to_cublas']))
PY
echo "done t=$SECONDS"; save
