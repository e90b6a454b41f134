#!/usr/bin/env bash
# Session 25 call 5: a second process of midm_split and decode_split through gemm() on the
# committed tree (call 3's numbers against the process-to-process spread).
source "$(dirname "$0")/../session17/common.sh"
bench_suites midm_split decode_split
cd $W && python3 - <<'PY'
import csv, math
for s in ('midm_split', 'decode_split'):
    g = [float(r['ratio_to_cublas']) for r in csv.DictReader(open('bench_%s.csv' % s)) if r['provider'] == 'tcgemm_gemm_pick']
    print('%s geomean %.3fx over %d, lowest %.3f' % (s, math.exp(sum(map(math.log, g)) / len(g)), len(g), min(g)))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
