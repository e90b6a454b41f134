#!/usr/bin/env bash
# Run 253 (session 42), one call in place of s42_1 + s42_2 (device starts kept failing).
# Binaries: tcgemm_old / tcgemm_gpu_tests_main = main c8bf23e (the ghost's named barrier before a
# stage release: the cure for run 250's memcheck stall); tcgemm / tcgemm_gpu_tests = branch
# exp/producer-prologue 4c393fc (main c8bf23e merged in). In order, each step only if time is left:
# 1. the whole GPU suite (branch; covers 912051f and c8bf23e); 2. memcheck x8 on ThreadsStoreD
# (main; it stalled 1-3 of 8 before the cure); 3. the tall suite old / new; 4. 6656x624x64 by
# profile; 5. the sanitizers on the small pc, pingpong, stream-K (incl. the capped Shapes cases)
# and repack tests (branch); 6. memcheck x4 on ThreadsStoreDNoGhost and the small stream-K shapes;
# 7. the tall suite old / new again.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
bench_one() {  # bench_one BIN SUITE TAG
  timeout 150 $B/$1 bench --suite=bench/suites/$2.txt --kernels=gemm --output=$W/bench_$2_$3.csv > $W/bench_$2_$3.txt 2>&1
  echo "$2 $3 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_$2_$3.txt)"
}
memcheck_x() {  # memcheck_x N LIMIT FILTER TAG: N passes of main's test binary, a stall = killed at LIMIT s
  local n=0 i rc
  for i in $(seq 1 $1); do
    timeout $2 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests_main --gtest_brief=1 \
      --gtest_filter="$3" > $W/mc_$4_$i.log 2>&1
    rc=$?; [ $rc -eq 124 ] && n=$((n + 1))
    echo "memcheck $4 pass $i rc=$rc $(grep -h 'ERROR SUMMARY' $W/mc_$4_$i.log)"
  done
  echo "memcheck $4: $n of $1 stalled t=$SECONDS"
}
run_suite
save
grep -q '^\[  FAILED' $W/gpu_tests.log && echo "suite FAILED: the benches below still run"
export TCGEMM_TEST_SMALL=1
memcheck_x 8 15 'Sm90PcStreamKSmall.ThreadsStoreD' threads384
save
unset TCGEMM_TEST_SMALL
bench_one tcgemm_old tall old1
bench_one tcgemm tall new1
save
for b in tcgemm_old tcgemm tcgemm_old tcgemm; do
  $B/$b profile --m=6656 --n=624 --k=64 --providers=tcgemm,cublas --kernels=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall \
    --profiling-rounds=4 2>&1 | grep -E "^m=.* (tcgemm|cublas) " | awk -v b=$b '{print b, $7, $(NF-3), $NF}'
done | tee $W/profile_6656x624x64.txt
save
export TCGEMM_TEST_SMALL=1
if [ $SECONDS -lt 320 ]; then
  run_sanitizers '*Sm90PersistentClusterSmall*:*Sm90PingPongPadding*:*Sm90PcStreamKSmall*:*Sm90PcRepackSmall*:Shapes/Sm90PcStreamK.*_Small' $W 40
fi
save
[ $SECONDS -lt 370 ] && memcheck_x 4 15 'Sm90PcStreamKSmall.ThreadsStoreDNoGhost' threads512
[ $SECONDS -lt 380 ] && memcheck_x 2 30 'Shapes/Sm90PcStreamK.*_Small' shapes_small
save
unset TCGEMM_TEST_SMALL
[ $SECONDS -lt 300 ] && { bench_one tcgemm_old tall old2; bench_one tcgemm tall new2; }
echo "done t=$SECONDS"
save
