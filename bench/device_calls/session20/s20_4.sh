#!/usr/bin/env bash
# Session 20 call 4 (run 177): the whole GPU suite on main (37f7e64); the tiny kernel by name beside
# gemm()'s pick and cuBLAS where the TMA-legal gate (2^16) leaves min(M, N) <= 16 to the swap tiles
# (65K-524K multiply-adds) and at two row-block shapes run 176's pairs missed (tiny_pairs2.txt),
# two processes. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run177.log.gz; rm $W/gpu_tests.log
for pass in 1 2; do
  i=0
  while IFS='|' read -r args pick; do
    i=$((i+1)); dt=$(echo " $args" | grep -q ' --A=f16:' && echo f16 || echo bf16)
    timeout 60 $B/tcgemm profile --providers=tcgemm,cublas $args --kernels="$pick,sm90_simt_${dt}_16x32_tiny" \
      --output=$W/p${pass}_$i.csv > /dev/null 2>&1 || echo "rc=$? for $args"
  done < bench/device_calls/session20/tiny_pairs2.txt
done
echo "pairs t=$SECONDS"
cd $W && python3 - <<'PY'
import csv, glob
rows = {}
for f in sorted(glob.glob('p[12]_*.csv')):
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('tiny' if '_tiny' in r['kernel'] else 'pick')
        rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('tiny pairs, same process, two passes, us: pick | tiny | cublas')
for s, d in rows.items():
    g = lambda k: ' '.join('%5.1f' % x for x in d.get(k, []))
    print(f"{s:>14} {g('pick'):>11} | {g('tiny'):>11} | {g('cublas'):>11}")
PY
tar -C $W -czf $OUT/run177.tar.gz .
