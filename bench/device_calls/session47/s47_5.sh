#!/usr/bin/env bash
# Run 269 (session 47): the issue's targets on whatever part the call gets (named nvidia-h200):
# `tcgemm bandwidth` (the copy floor), the cliffs suite through gemm() with the model's plans,
# `tcgemm tune` at the three split shapes of the targets, then cliffs with the tuned plans and
# again without (model / tuned / model).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
timeout 60 $B/tcgemm bandwidth --bytes=134217728 > $W/bandwidth.txt 2>&1; echo "bandwidth rc=$?"; cat $W/bandwidth.txt
printf '256 256 65536\n512 1024 32768\n256 512 16384\n' > $W/split3.txt
timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/cliffs_model_1.csv > $W/cliffs_model_1.txt 2>&1
echo "cliffs model rc=$? t=$SECONDS"; save
timeout 120 $B/tcgemm tune --suite=$W/split3.txt --output=$W/tuned.txt > $W/tune.txt 2> $W/tune.err
echo "tune rc=$? t=$SECONDS"; sed -n '/^problem/,/in .*tuned.txt/p' $W/tune.txt; save
TCGEMM_TUNED_PLANS=$W/tuned.txt timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm \
  --output=$W/cliffs_tuned_2.csv > $W/cliffs_tuned_2.txt 2>&1
echo "cliffs tuned rc=$? t=$SECONDS"; save
timeout 100 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/cliffs_model_3.csv > $W/cliffs_model_3.txt 2>&1
echo "cliffs model rc=$? t=$SECONDS"; save
python3 - "$W" <<'PY'
import csv, glob, os, sys, re
w = sys.argv[1]
copy = None
for line in open(f"{w}/bandwidth.txt"):
    f = line.split()
    if f and f[0] == 'copy':
        copy = max(copy or 0, float(f[-1]))
res = {}
for fn in sorted(glob.glob(f"{w}/cliffs_*.csv")):
    tag = os.path.basename(fn)[7:-4]
    for r in csv.DictReader(open(fn)):
        if r['provider'] == 'tcgemm':
            res.setdefault(r['shape'], {}).setdefault(tag, (float(r['ratio_to_cublas']), float(r['tflops'])))
print(f"copy rate {copy} TB/s (r + w)")
print(f"{'shape':48s} {'model_1':>8s} {'tuned_2':>8s} {'model_3':>8s}  % of copy floor (model_1)")
for s, d in res.items():
    m, n, k = (int(x.split('=')[1]) for x in s.split()[:3])
    fl = ''
    if copy and d.get('model_1'):
        us = 2 * m * n * k / (d['model_1'][1] * 1e12) * 1e6
        floor = (m * k + k * n + m * n) * 2 / (copy * 1e12) * 1e6  # the copy rate counts read + write bytes
        fl = '%.0f%% (%.1f us, floor %.1f)' % (100 * floor / us, us, floor)
    print(f"{s[:48]:48s} " + ' '.join('%8.3f' % d[t][0] if t in d else '%8s' % '-' for t in ('model_1', 'tuned_2', 'model_3')) + '  ' + fl)
PY
echo "done t=$SECONDS"; save
