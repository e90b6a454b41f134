#!/usr/bin/env bash
# Session 10, call 7 (final main): the whole GPU suite, the swapped widths by name at the mid-size
# shapes the rule leaves alone, then the cliffs, peak, midsize and random suites through gemm().
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
echo "=== GPU tests $(date +%T)"
timeout 260 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests? ran' $OUT/gpu_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/gpu_tests.log | head -40
echo "=== swapped widths by name $(date +%T)"
K='--kernels=*bf16_128x1??x64_s4_pc2x1_swapab,*bf16_128xNfit_s4_pc2x1_tmastore'
for s in "192 11008 4096" "440 10768 6312" "154 11328 13808"; do set -- $s
  $B/tcgemm profile --m=$1 --n=$2 --k=$3 "$K" --providers=tcgemm,cublas --verification-enabled=true --output=$OUT/w_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? $s"
done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/swap_widths_run101.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/w_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, list(rows[0].keys())); w.writeheader()
    for r in rows:
        w.writerow(r)
        print('%-16s %-7s %-46s %-6s %8.1f us %s' % ('x'.join([r['m'], r['n'], r['k']]), r['provider'], r['kernel'][:46], r['disposition'][:6], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
echo "=== suites $(date +%T)"
for s in cliffs midsize peak random; do
  timeout 240 $B/tcgemm bench --suite=$s --kernels=gemm --output=$OUT/bench_$s.csv > /dev/null 2>&1; echo "$s rc=$? $(date +%T)"
done
python3 - <<'PY'
import csv, math, os
for s in ('cliffs', 'midsize', 'peak', 'random'):
    try: rows = [r for r in csv.DictReader(open(os.environ['OUT'] + '/bench_%s.csv' % s)) if r['provider'] == 'tcgemm']
    except Exception as e: print(s, e); continue
    rs = [float(r['ratio_to_cublas']) for r in rows]
    print('%s geomean %.3f min %.3f below0.8 %d n %d' % (s, math.exp(sum(map(math.log, rs)) / len(rs)), min(rs), sum(x < 0.8 for x in rs), len(rs)))
    for r in rows:
        if s != 'random' or float(r['ratio_to_cublas']) < 0.8 or 'swapab' in r['kernel']: print('  ', r['shape'][:40], r['kernel'][11:52], r['tflops'][:6], r['ratio_to_cublas'][:5])
PY
cd $OUT && tar czf logs.tgz --remove-files *.log; ls
echo "=== done $(date +%T)"
