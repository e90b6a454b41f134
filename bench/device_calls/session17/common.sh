# Sourced by this session's device calls: the carried binaries unpacked into $B, a work folder $W
# (the calls tar it into $OUT: the device returns at most 8 files), and run_suite for the whole GPU
# suite with its summary lines.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; W=/tmp/w; mkdir -p $B $W
for f in .device/gz/*.gz; do [ -e "$f" ] || continue; gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
# xz when gz no longer fits the 64 MiB carry; python's lzma where the machine has no xz.
unxz_to() { if command -v xz >/dev/null; then xz -dc "$1" > "$2"; else
  python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' "$1" "$2"; fi; }
for f in .device/xz/*.xz; do [ -e "$f" ] || continue; unxz_to $f $B/$(basename $f .xz); chmod +x $B/$(basename $f .xz); done
SECONDS=0; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
run_suite() {
  timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $W/gpu_tests.log 2>&1; echo "suite rc=$? t=$SECONDS"
  grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests.log | head -12
}
# memcheck, racecheck and synccheck on the GPU tests FILTER selects, logs in DIR, LIMIT seconds each.
run_sanitizers() {
  local filter=$1 dir=$2 limit=$3 t
  for t in memcheck racecheck synccheck; do
    timeout "$limit" compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
      --gtest_filter="$filter" > "$dir/san_$t.log" 2>&1
    echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED' "$dir/san_$t.log" | head -3
  done
}
# The GPU tests FILTER selects (log $W/tests.log) with their summary lines: run_tests FILTER [LIMIT].
run_tests() {
  timeout "${2:-150}" $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter="$1" > $W/tests.log 2>&1
  echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -20
}
# Each named suite through gemm() into $W/bench_<suite>.csv.
bench_suites() {
  local s
  for s in "$@"; do
    timeout 120 $B/tcgemm bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/bench_${s}.csv > $W/bench_${s}.txt 2>&1
    echo "$s rc=$? t=$SECONDS"
  done
}
# The whole GPU suite unless the call has run LIMIT seconds already.
run_suite_if_time() {
  if [ $SECONDS -lt "$1" ]; then run_suite; else echo "suite skipped: t=$SECONDS"; fi
}
# ncu of one launch (the third the regex matches) with the stall-sampling sections, as run 209:
# ncu_prof NAME M N K PROVIDERS KERNEL-REGEX [KERNELS] writes $W/NAME.ncu-rep, ncu_NAME.txt and the
# per-instruction table src_NAME.csv. KERNELS is a substring unless it holds * or ?.
NCU_STALL_SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section SourceCounters"
ncu_prof() {
  local name=$1 m=$2 n=$3 k=$4 prov=$5 re=$6 kern=${7:-}
  local P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=$m --n=$n --k=$k --providers=$prov"
  if [ -n "$kern" ]; then
    P="$P --kernels=$kern"
    # A bare name is a substring: run 224's "swap" profile caught a multicast entry that way.
    local nk; nk=$($B/tcgemm kernels --kernels="$kern" 2>/dev/null | awk 'NR > 1 && $1 ~ /^(sm|wmma|simt)/' | wc -l)
    [ "$nk" -ne 1 ] && echo "ncu_prof $name: --kernels=$kern selects $nk entries (end the name with ? for one)"
  fi
  timeout 90 ncu --clock-control none $NCU_STALL_SECTIONS --import-source no --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 \
    -o $W/$name $P > $W/ncu_$name.log 2>&1; echo "ncu $name rc=$? t=$SECONDS"
  ncu --import $W/$name.ncu-rep > $W/ncu_$name.txt 2>&1
  ncu --import $W/$name.ncu-rep --page source --print-source sass --csv > $W/src_$name.csv 2>/dev/null
  grep -E 'Duration|DRAM Throughput|L2 Hit|Warp Cycles Per Issued|Issued Warp|No Eligible' $W/ncu_$name.txt | head -8
}
# The ten instructions with the most stall samples in each $W/src_*.csv.
stall_summary() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/../stall_summary.py" $W/src_*.csv
}
# One suite with binary BIN through gemm() (or the entries KERNELS names), its geomean line:
# bench_one BIN SUITE TAG [KERNELS].
bench_one() {
  timeout 150 $B/$1 bench --suite=bench/suites/$2.txt --kernels="${4:-gemm}" --output=$W/bench_$2_$3.csv > $W/bench_$2_$3.txt 2>&1
  echo "$2 $3 rc=$? t=$SECONDS $(grep -h 'geomean ratio to cuBLAS over' $W/bench_$2_$3.txt)"
}
# The 128x64 s9 tile by name on SUITE with BIN, in 1x2 pairs sharing A (tag mc1x2_P) and plain over
# all of K (s9ws_P): pair_by_name BIN SUITE P.
pair_by_name() {
  bench_one $1 $2 mc1x2_$3 'sm90_wgmma_bf16_128x64x64_s9_mc1x2'
  bench_one $1 $2 s9ws_$3 'sm90_wgmma_bf16_128x64x64_s9_w?'
}
# `explain --measure` with BIN at M x N x K into $W/explain_measure_MxNxK.txt, with its verdict line:
# explain_measure BIN M N K [LIMIT, default 90 s].
explain_measure() {
  local f=$W/explain_measure_${2}x${3}x${4}.txt
  timeout "${5:-90}" $B/$1 explain --m $2 --n $3 --k $4 --measure > $f 2>&1
  echo "explain --measure $2x$3x$4 rc=$? t=$SECONDS $(grep -h 'fastest measured' $f)"
}
# N memcheck passes of test binary BIN over FILTER, a stall being a kill at LIMIT s:
# memcheck_x BIN N LIMIT FILTER TAG (logs $W/mc_TAG_i.log).
memcheck_x() {
  local n=0 i rc
  for i in $(seq 1 $2); do
    timeout $3 compute-sanitizer --tool memcheck --error-exitcode 9 $B/$1 --gtest_brief=1 --gtest_filter="$4" > $W/mc_$5_$i.log 2>&1
    rc=$?; [ $rc -eq 124 ] && n=$((n + 1))
    echo "memcheck $5 pass $i rc=$rc t=$SECONDS $(grep -h 'ERROR SUMMARY' $W/mc_$5_$i.log)"
  done
  echo "memcheck $5: $n of $2 stalled t=$SECONDS"
}
# The whole GPU suite of test binary BIN: suite_of BIN TAG (log $W/gpu_tests_TAG.log).
suite_of() {
  timeout 150 $B/$1 --gtest_brief=1 > $W/gpu_tests_$2.log 2>&1; echo "suite $2 rc=$? t=$SECONDS"
  grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/gpu_tests_$2.log | head -8
}
