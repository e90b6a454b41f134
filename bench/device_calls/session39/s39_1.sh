#!/usr/bin/env bash
# Session 39 call 1. Run 244 (s38_7) split the tall tile's ~3 us: per launch with an event between
# launches ours 10.9 us, cuBLAS 7.4-8.5; chained (warm-up batch, no events) ours 7.3, cuBLAS
# 6.8-7.1. With PDL our next grid's start overlaps the last one's end; an event between launches
# stops that. So: (1) PDL off, events and chained, at K = 64 and 1024; (2) the per-CTA trace with
# PDL off (entry -> go is then the whole prologue); (3) ncu with stall sampling of ours and
# cuBLAS's (nvjet) at 6656x624x64, where the kernel is all prologue, first load and epilogue;
# (4) gemm()'s picks on the tall and cliffs suites with PDL off.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TALL=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall
for pdl in on off; do
  nopdl=0; [ $pdl = off ] && nopdl=1
  TCGEMM_DIAG_NO_PDL=$nopdl TCGEMM_DIAG_HOST_TIMING=1 timeout 60 $B/tcgemm profile --m=6656 --n=624 --k=64,1024 \
    --kernels=$TALL --verification-enabled=false --providers=tcgemm,cublas --profiling-rounds=2 > $W/host_pdl_$pdl.txt 2>&1
  echo "pdl $pdl rc=$?"; grep host-timing $W/host_pdl_$pdl.txt | sed 's/warm-up batch without events between launches/chained/' | cut -c1-160
done
TCGEMM_DIAG_NO_PDL=1 TCGEMM_TRACE_SHAPES=6656x624x64,6656x624x1024 TCGEMM_RESULTS_DIR=$W timeout 60 $B/tcgemm_gpu_tests \
  --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace_nopdl.log 2>&1
echo "trace nopdl rc=$?"; grep '\[trace\]' $W/trace_nopdl.log
for f in $W/trace_*.csv; do mv $f ${f%.csv}_nopdl.csv; done
save
# (4) what PDL off does to gemm()'s picks on the tall and target suites (cuBLAS in each process).
for pdl in on off; do
  [ $pdl = off ] && export TCGEMM_DIAG_NO_PDL=1
  bench_suites tall cliffs; unset TCGEMM_DIAG_NO_PDL
  for f in tall cliffs; do mv $W/bench_$f.csv $W/bench_${f}_pdl_$pdl.csv; mv $W/bench_$f.txt $W/bench_${f}_pdl_$pdl.txt; done
done
grep -H -E 'geomean ratio to cuBLAS over' $W/bench_*_pdl_*.txt
save
ncu_prof tall64 6656 624 64 tcgemm persistent_cluster "$TALL"
ncu_prof cublas64 6656 624 64 cublas nvjet
ncu_prof tall1024 6656 624 1024 tcgemm persistent_cluster "$TALL"
ncu_prof cublas1024 6656 624 1024 cublas nvjet
save
for n in tall64 cublas64; do echo "== $n"; grep -E 'Duration|Grid Size|Cluster Size|Block Size|Registers|Shared Memory Config|Dynamic Shared|Threads  ' $W/ncu_$n.txt | head -12; done
stall_summary
save
