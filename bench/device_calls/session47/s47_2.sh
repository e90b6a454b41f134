#!/usr/bin/env bash
# Run 266 (session 47): tuned split-K plans. The GPU tests of the tuned plans and the split tiles,
# `tcgemm tune` over the 21 plain split-K shapes of run 265; the splitk suite through gemm() with
# the tuned plans (tuned) and without (model), two interleaved passes (tuned/model/model/tuned);
# sanitizers on the tuned-plan cases.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_tests 'Sm90TunedPlan*:Sm90PlannedHost*:Sm90SplitKTilesSmall*' 150
save
timeout 420 $B/tcgemm tune --suite=bench/device_calls/session47/split21.txt --splits=1,2,3,4,6,8,12,16,24 \
  --duration-ms=10 --output=$W/tuned.txt > $W/tune.txt 2> $W/tune.err
echo "tune rc=$? t=$SECONDS"; cat $W/tuned.txt; save
for pass in tuned model model tuned; do
  if [ $pass = tuned ]; then export TCGEMM_TUNED_PLANS=$W/tuned.txt; else unset TCGEMM_TUNED_PLANS; fi
  timeout 120 $B/tcgemm bench --suite=bench/suites/splitk.txt --kernels=gemm --output=$W/bench_${pass}_$SECONDS.csv \
    > $W/bench_${pass}_$SECONDS.txt 2>&1
  echo "bench $pass rc=$? t=$SECONDS"; save
done
unset TCGEMM_TUNED_PLANS
run_sanitizers 'Sm90TunedPlan.*' $W 50
save
sed -n '/^problem/,/in .*tuned.txt/p' $W/tune.txt
python3 - "$W" <<'PY'
import csv, glob, math, os, sys, collections
w = sys.argv[1]
ratio = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(f"{w}/bench_*.csv")):
    mode = os.path.basename(f).split('_')[1]
    seen = set()
    for r in csv.DictReader(open(f)):
        if r['provider'] == 'tcgemm' and r['shape'] not in seen:
            seen.add(r['shape']); ratio[r['shape']][mode].append(float(r['ratio_to_cublas']))
tuned = {l.split()[0] + 'x' + l.split()[1] + 'x' + l.split()[2] for l in open(f"{w}/tuned.txt") if l[0].isdigit()}
g = collections.defaultdict(list)
print(f"{'shape':44s} {'model':>13s} {'tuned':>13s}  plan")
for s, d in ratio.items():
    key = 'x'.join(x.split('=')[1] for x in s.split()[:3])
    if 'model' in d and 'tuned' in d:
        for m in ('model', 'tuned'): g[m] += d[m]
        if key in tuned or abs(sum(d['tuned']) / len(d['tuned']) / (sum(d['model']) / len(d['model'])) - 1) > 0.05:
            print(f"{s[:44]:44s} {' '.join('%.3f' % x for x in d['model']):>13s} {' '.join('%.3f' % x for x in d['tuned']):>13s}  {'tuned' if key in tuned else ''}")
for m in ('model', 'tuned'):
    if g[m]: print(m, 'geomean %.3f over %d rows' % (math.exp(sum(map(math.log, g[m])) / len(g[m])), len(g[m])))
PY
echo "done t=$SECONDS"; save
