#!/usr/bin/env bash
# Run 253: branch exp/producer-prologue (the pc kernel's first unit computed in the prologue while
# the cluster barrier completes, its first k-block issued there by thread 0) against main's pc
# kernels (tcgemm_old: 1bf788c's SASS; the pc code is main's). Trimmed to ~5 minutes of device time:
# 1. the whole GPU suite (stop on a failure); 2. the tall suite old / new (twice if time);
# 3. 6656x624x64 by profile; 4. the sanitizers on the small pc, pingpong, stream-K and repack tests.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_suite
save
grep -q '^\[  FAILED' $W/gpu_tests.log && { echo "suite failed: stopping"; exit 0; }
bench_one tcgemm_old tall old1
bench_one tcgemm tall new1
save
for b in tcgemm_old tcgemm tcgemm_old tcgemm; do
  $B/$b profile --m=6656 --n=624 --k=64 --providers=tcgemm,cublas --kernels=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall \
    --profiling-rounds=4 2>&1 | grep -E "^m=.* (tcgemm|cublas) " | awk -v b=$b '{print b, $7, $(NF-3), $NF}'
done | tee $W/profile_6656x624x64.txt
[ $SECONDS -lt 120 ] && { bench_one tcgemm_old tall old2; bench_one tcgemm tall new2; }
save
if [ $SECONDS -lt 150 ]; then
  export TCGEMM_TEST_SMALL=1
  run_sanitizers '*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*:Shapes/Sm90PcStreamK.*_Small-*ThreadsStoreD*' $W 40
fi
save
