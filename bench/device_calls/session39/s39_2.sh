#!/usr/bin/env bash
# Session 39 call 2. Run 245 (s39_1): under ncu our tall tile's CTAs live 13,556 cycles at
# 6656x624x64 against cuBLAS's 7,709 (9.95 against 6.66 us), and 54% of our warps' stall samples sit
# in the cluster barriers: `barrier.cluster.arrive` (default .release) compiles to MEMBAR.ALL.GPU +
# ERRBAR, at the start and at the end of every CTA. Branch exp/end-barrier (binaries *_exp): the
# start barrier arrives .relaxed (the inits are ordered by fence.mbarrier_init), and the end barrier
# is gone, the producer waiting instead for each stage's last release by both CTAs' consumers.
# The pingpong kernel (the same ring and multicast of B) gets the same two changes; the ws
# kernel's multicast start barrier the first (its end meeting stays).
# Prediction: the start ~0.5 us shorter (entry -> go 0.77 us in run 245's trace), the end ~1 us.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TALL=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall
for v in main exp; do
  x=; [ $v = exp ] && x=_exp
  timeout 60 $B/tcgemm$x profile --m=6656 --n=624 --k=64,256,1024,4096 --kernels=$TALL \
    --verification-enabled=false --providers=tcgemm,cublas --output=$W/ksweep_$v.csv > $W/ksweep_$v.txt 2>&1
  echo "ksweep $v rc=$? t=$SECONDS"
done
python3 - $W/ksweep_main.csv $W/ksweep_exp.csv <<'PY'
import csv, sys
for p in sys.argv[1:]:
    rows = [r for r in csv.DictReader(open(p)) if r["runtime_ms"]]
    print(p.split('/')[-1], "  ".join(f"k{r['k']}:{r['provider'][:6]} {float(r['runtime_ms'])*1e3:.1f}" for r in rows))
PY
save
for v in main exp; do
  x=; [ $v = exp ] && x=_exp
  for s in tall cliffs smallm; do
    timeout 60 $B/tcgemm$x bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}_$v.csv > $W/bench_${s}_$v.txt 2>&1
    echo "$s $v rc=$? t=$SECONDS"
  done
done
grep -H 'geomean ratio to cuBLAS over' $W/bench_*_{main,exp}.txt
save
timeout 60 ncu --clock-control none --section SpeedOfLight --kernel-name regex:persistent_cluster --launch-skip 2 --launch-count 1 \
  $B/tcgemm_exp profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 \
  --m=6656 --n=624 --k=64 --providers=tcgemm --kernels=$TALL > $W/ncu_tall64_exp.txt 2>&1
echo "ncu rc=$?"; grep -E 'Duration|Elapsed Cycles|SM Active' $W/ncu_tall64_exp.txt
save
B0=$B; B=/tmp/bin_exp; mkdir -p $B
cp $B0/tcgemm_exp $B/tcgemm; cp $B0/tcgemm_gpu_tests_exp $B/tcgemm_gpu_tests
run_tests '*PersistentCluster*:*Sm90Pc*:*PingPong*:*Multicast*'
save
run_suite_if_time 150
save
export TCGEMM_TEST_SMALL=1
if [ $SECONDS -lt 200 ]; then run_sanitizers '*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*' $W 40; fi
save
grep -A22 'Best tcgemm' $W/bench_tall_exp.txt | cut -c1-150 | tail -21
