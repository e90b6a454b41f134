#!/usr/bin/env bash
# Prepared in session 38 for the next device time (s38_6 could not run). Carries .device/gz: main's
# binaries (tcgemm, tcgemm_gpu_tests) and branch exp/tall-s3's (*_exp): the pc kernel's CTAs end on
# cp.async.bulk.wait_group.read instead of the full wait for D's writes (session38/end_wait_read.patch),
# and a 3-stage bf16 tall tile by name, `sm90_wgmma_bf16_256x128x64_s3_pc2x1_tmastore`, whose
# consumers store their whole 64x128 row in one chunk. (If .device/gz is gone, rebuild both: main,
# then `git checkout exp/tall-s3` and gzip build/tcgemm{,_gpu_tests} as *_exp.gz.)
# The tall tile's fixed cost (run 243: 10.9 against cuBLAS's 8.2 us at K = 64, the same slope):
#  1. per-CTA traces of main at K = 64 and 1024 (start, mainloop, epilogue, end);
#  2. the host's enqueue time a launch at K = 64 and 1024 (run 218's switch), ours and cuBLAS's;
#  3. the K sweep: main's tall tile; exp's (the end wait) and exp's 3-stage one (one chunk too);
#  4. every bf16 entry at K = 64 and 256 (the entries' fixed costs);
#  5. exp's pc tests, memcheck on the small cases, the tall suite and (time allowing) the whole GPU suite.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TCGEMM_TRACE_SHAPES=6656x624x64,6656x624x1024 TCGEMM_RESULTS_DIR=$W timeout 60 $B/tcgemm_gpu_tests \
  --gtest_filter='*TimelineOfRequestedShapes*' > $W/trace.log 2>&1
echo "trace rc=$?"; grep '\[trace\]' $W/trace.log
TCGEMM_DIAG_HOST_TIMING=1 timeout 60 $B/tcgemm profile --m=6656 --n=624 --k=64,1024 \
  --kernels=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall --verification-enabled=false --providers=tcgemm,cublas \
  > $W/host_timing.txt 2>&1
echo "host timing rc=$?"; grep -E "host-timing" $W/host_timing.txt | head -8
save
K=64,128,256,1024,4096
TALL=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall
timeout 90 $B/tcgemm profile --m=6656 --n=624 --k=$K --kernels=$TALL \
  --verification-enabled=false --providers=tcgemm,cublas --output=$W/ksweep_tcgemm.csv > $W/ksweep_tcgemm.txt 2>&1
echo "main rc=$? t=$SECONDS"
timeout 120 $B/tcgemm_exp profile --m=6656 --n=624 --k=$K --kernels=$TALL,sm90_wgmma_bf16_256x128x64_s3_pc2x1_tmastore \
  --verification-enabled=false --providers=tcgemm,cublas --output=$W/ksweep_tcgemm_exp.csv > $W/ksweep_tcgemm_exp.txt 2>&1
echo "exp rc=$? t=$SECONDS"
save
python3 - $W/ksweep_tcgemm.csv $W/ksweep_tcgemm_exp.csv <<'PY'
import csv, sys
for p in sys.argv[1:]:
    rows = list(csv.DictReader(open(p)))
    print(p.split('/')[-1])
    for kern in sorted({r["kernel"] for r in rows}):
        pts = [(int(r["k"]), float(r["runtime_ms"]) * 1e3) for r in rows if r["kernel"] == kern and r["runtime_ms"]]
        print(f"  {kern[:48]:48s} " + "  ".join(f"k{k}:{t:.1f}" for k, t in pts))
PY
# Which entries pay the least fixed cost on a tall shape: every bf16 entry that takes 6656x624 at
# K = 64 and 256 (one window each; a one-round non-cluster kernel would show here).
timeout 150 $B/tcgemm profile --m=6656 --n=624 --k=64,256 --kernels='*bf16*' --verification-enabled=false \
  --providers=tcgemm,cublas --profiling-rounds=1 --output=$W/fixed_cost_entries.csv > $W/fixed_cost_entries.txt 2>&1
echo "entries rc=$? t=$SECONDS"
python3 - $W/fixed_cost_entries.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["runtime_ms"]]
for k in ("64", "256"):
    rs = sorted((float(r["runtime_ms"]) * 1e3, r["provider"], r["kernel"]) for r in rows if r["k"] == k)
    print(f"K={k}: " + "; ".join(f"{t:.1f} {kern[:60]}" for t, _, kern in rs[:8]))
PY
save
B0=$B; B=/tmp/bin_exp; mkdir -p $B
cp $B0/tcgemm_exp $B/tcgemm; cp $B0/tcgemm_gpu_tests_exp $B/tcgemm_gpu_tests
run_tests '*PersistentCluster*:*Sm90Pc*'
TCGEMM_TEST_SMALL=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='*Sm90PersistentClusterSmall*' > $W/memcheck_exp.log 2>&1
echo "memcheck rc=$?"; grep -E 'ERROR SUMMARY' $W/memcheck_exp.log | head -2
save
bench_suites tall
save
run_suite_if_time 420  # exp's whole GPU suite, what merging either change needs
save
grep -A22 'Best tcgemm' $W/bench_tall.txt | cut -c1-150 | tail -22
