#!/usr/bin/env bash
# Run 279 (session 51): gemm()'s autotuning of split plans (TCGEMM_AUTOTUNE=1; off by default).
# 1. Its GPU tests and the tuned/split/two-k-block ones; memcheck on its small cases.
# 2. 256x256x65536 by name: the two-k-block tiles (64x64x128 s7, 128x64x128 s4) at the counts cuBLAS's
#    64x64 x8 suggests, beside gemm()'s 128x128 x25 and cuBLAS, one process.
# 3. `tcgemm bench --kernels=gemm` on splitk and cliffs, autotune off / on / on / off.
# 4. The whole GPU suite if time is left.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests '*SplitAutotune*:*TunedPlan*:*Sm90WideStage*' 150
grep "\[autotune\]" $W/tests.log
# memcheck only (the kernels it times are the split tiles, racecheck/synccheck clean in runs 276-277):
# the scratch D and slabs autotuning sizes itself.
TCGEMM_TEST_SMALL=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='*SplitAutotune*' > $W/san_memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E 'ERROR SUMMARY|PASSED' $W/san_memcheck.log | head -3
save
timeout 90 $B/tcgemm profile --m=256 --n=256 --k=65536 --split_k_slices=4,6,8,12,16,25 \
  --kernels='*bf16_64x64x128_s7_ws_splitk,*bf16_128x64x128_s4_ws_splitk,*bf16_128x128x64_s7_ws_splitk' \
  --providers=tcgemm,cublas --output=$W/prof_256x256.csv > $W/prof_256x256.txt 2>&1; echo "prof rc=$? t=$SECONDS"
grep -E "^m=" $W/prof_256x256.txt | awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^split_k_slices=/) s = $i; print s, $(NF-5), $(NF-3), $NF}'
save
b() {  # b SUITE TAG [ENV]: gemm() over a suite, its geomean line
  env ${3:-X=1} timeout 150 $B/tcgemm bench --suite=bench/suites/$1.txt --kernels=gemm --output=$W/bench_$1_$2.csv > $W/bench_$1_$2.txt 2>&1
  echo "$1 $2 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_$1_$2.txt)"
}
ON=TCGEMM_AUTOTUNE=1
b splitk off; b splitk on $ON; save
b cliffs on $ON; b cliffs off; save
if [ $SECONDS -lt 170 ]; then b splitk on2 $ON; b splitk off2; save; fi
for t in off on; do  # the summary lines of four shapes: tcgemm and cuBLAS TFLOP/s, the ratio
  grep -E "^m=(256 n=256 k=65536|512 n=1024 k=32768|1016 n=1648 k=11344|256 n=512 k=16384) .*x$" $W/bench_splitk_$t.txt |
    grep -v " tcgemm \| cublas " | awk -v t=$t '{print t, $1, $2, $3, $(NF-3), $(NF-2), $(NF-1)}'
done
run_suite_if_time 170
save
echo "done t=$SECONDS"
