#!/usr/bin/env bash
# Never run: s40_3.sh (run 248) ran its multicast tests and its suite comparison; its sanitizers
# and the whole suite moved to session41/s41_1.sh.
# Prepared in session 39: branch exp/ws-meeting (binaries *_exp in .device/xz, 93c06bf): the ws
# kernel's multicast meeting after the mainloop (a release cluster barrier: MEMBAR.ALL.GPU for every
# thread, runs 245-246) replaced by the producer's tail, the consumers releasing the last stage too.
# Only the `_mc` entries (kMulticast instances) change. Prediction: ~0.5-1 us less a launch on them;
# the multicast suite's shapes are 50-300 us kernels, so <= 1-2%; what matters first is that the
# tests and sanitizers pass (a missed release would hang; a CTA leaving early would race).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
B0=$B; BE=/tmp/bin_exp; mkdir -p $BE
cp $B0/tcgemm_exp $BE/tcgemm; cp $B0/tcgemm_gpu_tests_exp $BE/tcgemm_gpu_tests
B=$BE run_tests '*Multicast*'
save
export TCGEMM_TEST_SMALL=1; B=$BE run_sanitizers '*Multicast*' $W 150; unset TCGEMM_TEST_SMALL
save
for v in main exp; do
  x=; [ $v = exp ] && x=_exp
  timeout 120 $B0/tcgemm$x bench --suite=bench/suites/multicast.txt --kernels='*_mc*' --output=$W/bench_mc_$v.csv \
    > $W/bench_mc_$v.txt 2>&1
  echo "multicast $v rc=$? t=$SECONDS"
done
grep -H 'geomean' $W/bench_mc_*.txt
save
