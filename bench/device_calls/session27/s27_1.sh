#!/usr/bin/env bash
# Hung on the device (rc 124, nothing came back): the multicast producer also issued the plain B load, so
# every full barrier took B's bytes twice. Fixed before s27_2.sh, which reran this call.
# Session 27 call 1: the ws kernel's TMA multicast clusters. Their tests, the sanitizers on their
# small cases, the multicast suite by name beside gemm()'s pick and cuBLAS, then the whole suite
# (every K-major TMA instance of the ws kernel changed).
source "$(dirname "$0")/../session17/common.sh"
run_tests '*Multicast*'
TCGEMM_TEST_SMALL=1 run_sanitizers '*Multicast*' $W 90
timeout 240 $B/tcgemm bench --suite=bench/suites/multicast.txt --kernels='*_mc*,*128x128x64_s7_ws_splitk,*128x64x64_s9_ws_splitk' \
  --output=$W/byname.csv > $W/byname.txt 2>&1; echo "byname rc=$? t=$SECONDS"
bench_suites multicast
run_suite_if_time 330
cd $W && python3 - <<'PY'
import csv
rows = list(csv.DictReader(open('byname.csv'))) + [dict(r, provider='gemm()') for r in csv.DictReader(open('bench_multicast.csv')) if r['provider'] == 'tcgemm_gemm_pick']
t = {}
for r in rows:
    m, n, k = [int(x.split('=')[1]) for x in r['shape'].split()[:3]]
    name = r.get('kernel') or r['provider']
    t.setdefault('%dx%dx%d' % (m, n, k), []).append((2 * m * n * k / float(r['tflops']) / 1e6, r['provider'], name))
for key, v in t.items():
    v.sort()
    print(key, '  '.join('%s %.1f' % (n.replace('sm90_wgmma_bf16_', ''), us) for us, p, n in v[:7]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
