#!/usr/bin/env bash
# Session 27 call 2 (call 1 hung: the multicast producer also issued the plain B load, so every
# full barrier took B's bytes twice). The multicast tests first, stopping the call if they do not
# finish; then the sanitizers on their small cases, the multicast suite by name and through gemm().
source "$(dirname "$0")/../session17/common.sh"
finish() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; exit 0; }
timeout 90 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*MulticastHost*:*MulticastPlain*' > $W/tests_plain.log 2>&1
rc=$?; echo "plain tests rc=$rc t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|tests from .* ran' $W/tests_plain.log | head; tail -5 $W/tests_plain.log
[ $rc -eq 124 ] && finish
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*MulticastSplit*' > $W/tests_split.log 2>&1
rc=$?; echo "split tests rc=$rc t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|tests from .* ran' $W/tests_split.log | head; tail -3 $W/tests_split.log
[ $rc -eq 124 ] && finish
timeout 150 $B/tcgemm bench --suite=bench/suites/multicast.txt --kernels='*_mc*,*128x128x64_s7_ws_splitk,*128x64x64_s9_ws_splitk' \
  --output=$W/byname.csv > $W/byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
bench_suites multicast
TCGEMM_TEST_SMALL=1 run_sanitizers '*Multicast*' $W 45
cd $W && python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('byname.csv'))) + [dict(r, kernel='gemm()') for r in csv.DictReader(open('bench_multicast.csv')) if r['provider'] == 'tcgemm_gemm_pick']
t = {}
for r in rows:
    m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
    name = r['kernel'] if r['provider'] != 'cublas' else 'cublas'
    t.setdefault('%dx%dx%d' % (m, n, k), {})[name] = 2 * m * n * k / float(r['tflops']) / 1e6
for key, v in t.items():
    print(key, '  '.join('%s %.1f' % (n.replace('sm90_wgmma_bf16_', ''), us) for n, us in sorted(v.items(), key=lambda x: x[1])[:8]))
PY
finish
