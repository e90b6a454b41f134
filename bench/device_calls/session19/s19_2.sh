#!/usr/bin/env bash
# Session 19 call 2 (run 170): the tiny kernel (sm90_simt_*_16x32_tiny). Its GPU tests and sanitizers;
# then bench/suites/tiny.txt: gemm()'s pick without the tiny gate (TCGEMM_DIAG_NO_TINY_GATE=1), and per
# shape that pick, the tiny kernel by name and cuBLAS in one process, two processes; then the tiny
# kernel at forced cluster sizes 1, 2, 4 and 8 on six shapes. Summary lines last. After run 169: the
# main loop on 32-bit running offsets, a predicate-free body and one predicated tail batch.
source "$(dirname "$0")/../session17/common.sh"
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*Tiny*' > $W/tiny_tests.log 2>&1
echo "tiny tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tiny_tests.log | head -12
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90Tiny.*splitsauto*:*Sm90TinyPick*' $W 100
unset TCGEMM_TEST_SMALL
export TCGEMM_DIAG_NO_TINY_GATE=1
timeout 120 $B/tcgemm bench --suite=bench/suites/tiny.txt --kernels=gemm --output=$W/bench_tiny_nogate.csv > $W/bench_tiny_nogate.txt 2>&1
echo "bench nogate rc=$? t=$SECONDS"
unset TCGEMM_DIAG_NO_TINY_GATE
# Same process: the ungated pick, the tiny kernel by name, cuBLAS.
python3 - > $W/pairs.txt <<'PY'
import csv
for r in csv.DictReader(open('/tmp/w/bench_tiny_nogate.csv')):
    if r['provider'] != 'tcgemm_gemm_pick': continue
    print(r['shape'] + ' ' + r['kernel'])
PY
export TCGEMM_DIAG_NO_TINY_GATE=1
i=0
for pass in a b; do
  while read -r line; do
    i=$((i+1))
    m=$(echo "$line" | sed -E 's/.*m=([0-9]+).*/\1/'); n=$(echo "$line" | sed -E 's/.*n=([0-9]+).*/\1/')
    k=$(echo "$line" | sed -E 's/.*k=([0-9]+).*/\1/'); A=$(echo "$line" | sed -E 's/.*A=([a-z0-9:]+).*/\1/')
    Bs=$(echo "$line" | sed -E 's/.*B=([a-z0-9:]+).*/\1/'); D=$(echo "$line" | sed -E 's/.*D=([a-z0-9:]+).*/\1/')
    pick=$(echo "$line" | awk '{print $NF}'); dt=${A%%:*}
    timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --A=$A --B=$Bs --C=$D --D=$D \
      --kernels="$pick,sm90_simt_${dt}_16x32_tiny" --output=$W/p_${pass}_$i.csv > /dev/null 2>&1 || echo "rc=$? for $line"
  done < $W/pairs.txt
  echo "pass $pass t=$SECONDS"
done
unset TCGEMM_DIAG_NO_TINY_GATE
for s in "1 617 633" "14 3 650" "2 12 2006" "6 298 173" "7 1000 1001" "16 1024 1024" "1 4096 4096" "8593 2 765"; do
  set -- $s
  for c in 1 2 4 8; do
    timeout 60 $B/tcgemm profile --providers=tcgemm --m=$1 --n=$2 --k=$3 --split_k_slices=$c \
      --kernels='sm90_simt_bf16_16x32_tiny' --output=$W/c_${1}x${2}x${3}_$c.csv > /dev/null 2>&1 || echo "rc=$? for $s c=$c"
  done
done
echo "clusters t=$SECONDS"
cd $W && python3 - <<'PY'
import csv, glob, statistics as st
rows = {}
for f in sorted(glob.glob('p_*.csv')):
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('tiny' if '_tiny' in r['kernel'] else 'pick')
        s = '%sx%sx%s' % (r['m'], r['n'], r['k'])
        rows.setdefault(s, {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('shape: us in two processes: pick (no gate) | tiny | cublas')
for s, d in rows.items():
    g = lambda k: ' '.join('%6.1f' % x for x in d.get(k, []))
    print(f"{s:>16} {g('pick'):>14} | {g('tiny'):>14} | {g('cublas'):>14}")
print('cluster sizes (us): 1 2 4 8')
for f in sorted(glob.glob('c_*_1.csv')):
    base = f[2:-6]; out = []
    for c in (1, 2, 4, 8):
        try:
            r = [x for x in csv.DictReader(open(f'c_{base}_{c}.csv')) if x['disposition'] == 'passed']
            out.append('%6.1f' % (float(r[0]['runtime_ms']) * 1e3) if r else '  fail')
        except FileNotFoundError: out.append('   n/a')
    print(f'{base:>16} ' + ' '.join(out))
for w in ('nogate',):
    print(w, [l.strip() for l in open(f'bench_tiny_{w}.txt') if 'geomean' in l.lower()][:3])
PY
tar -C $W -czf $OUT/run170.tar.gz .
