#!/usr/bin/env bash
# Session 10, call 14: the ws kernel's stage counters (no kt % kStages division a k-block): the
# whole GPU suite, ncu cycles at the base clock where run 104 measured 46.7K (1024x1024x8192 split
# pass) and 16.9K (288x1648x1128, run 97), and a few ws-path shapes beside cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|^\[==========\]' $OUT/gpu_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/gpu_tests.log | head -30
gzip -f $OUT/gpu_tests.log
for s in "1024 1024 8192" "288 1648 1128"; do set -- $s
  timeout 60 ncu --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum --kernel-name regex:'wgmma' --launch-skip 1 --launch-count 1 \
    $B/tcgemm profile --m=$1 --n=$2 --k=$3 --providers=tcgemm --verification-enabled=false --warmup-iterations=1 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_$1.txt 2>&1
  echo "--- $s"; grep -E 'gpu__time|cycles_elapsed|inst_executed' $OUT/ncu_$1.txt | awk '{print "  " $1, $(NF)}'
done
for s in "1024 1024 8192" "1024 1024 4096" "288 1648 1128" "512 1024 32768" "256 256 65536"; do set -- $s
  $B/tcgemm profile --m=$1 --n=$2 --k=$3 --providers=tcgemm,cublas --verification-enabled=true --output=$OUT/p_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? $s"
done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/profiles_run107.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/p_*.csv')):
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, list(rows[0].keys())); w.writeheader()
    for r in rows:
        w.writerow(r)
        print('%-16s %-7s %-40s %-6s %8.1f us %s' % ('x'.join([r['m'], r['n'], r['k']]), r['provider'], r['kernel'][:40], r['disposition'][:6], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
