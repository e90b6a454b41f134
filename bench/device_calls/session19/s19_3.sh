#!/usr/bin/env bash
# Session 19 call 3 (run 171): the tiny kernel gated into gemm() (min(M, N) <= 16, <= 2^19
# multiply-adds, <= 2^23 where A or B breaks TMA's rule) with clusters sized to fit one round. The whole
# GPU suite; the tiny tests under the sanitizers; bench/suites/tiny.txt through gemm() with the gate and
# without; per shape the ungated pick, the tiny kernel by name and cuBLAS in one process (one pass);
# the random suite with the gate and without. Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
run_suite
gzip -c $W/gpu_tests.log > $OUT/gpu_tests_run171.log.gz
export TCGEMM_TEST_SMALL=1
run_sanitizers '*Sm90Tiny.*splitsauto*:*Sm90TinyPick*:*FusedGatePick*' $W 100
unset TCGEMM_TEST_SMALL
for which in gate nogate; do
  if [ $which = nogate ]; then export TCGEMM_DIAG_NO_TINY_GATE=1; fi
  timeout 100 $B/tcgemm bench --suite=bench/suites/tiny.txt --kernels=gemm --output=$W/bench_tiny_$which.csv > $W/bench_tiny_$which.txt 2>&1
  echo "tiny $which rc=$? t=$SECONDS"
done
python3 - > $W/pairs.txt <<'PY'
import csv, re
for r in csv.DictReader(open('/tmp/w/bench_tiny_nogate.csv')):
    if r['provider'] != 'tcgemm_gemm_pick': continue
    m, n, k = [int(x) for x in re.findall(r'[mnk]=(\d+)', r['shape'])[:3]]
    if min(m, n) <= 16 and m * n * k <= (1 << 23): print(r['shape'] + ' ' + r['kernel'])
PY
i=0
while read -r line; do
  i=$((i+1))
  m=$(echo "$line" | sed -E 's/.*m=([0-9]+).*/\1/'); n=$(echo "$line" | sed -E 's/.*n=([0-9]+).*/\1/')
  k=$(echo "$line" | sed -E 's/.*k=([0-9]+).*/\1/'); A=$(echo "$line" | sed -E 's/.*A=([a-z0-9:]+).*/\1/')
  Bs=$(echo "$line" | sed -E 's/.*B=([a-z0-9:]+).*/\1/'); D=$(echo "$line" | sed -E 's/.*D=([a-z0-9:]+).*/\1/')
  pick=$(echo "$line" | awk '{print $NF}'); dt=${A%%:*}
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$m --n=$n --k=$k --A=$A --B=$Bs --C=$D --D=$D \
    --kernels="$pick,sm90_simt_${dt}_16x32_tiny" --output=$W/p_$i.csv > /dev/null 2>&1 || echo "rc=$? for $line"
done < $W/pairs.txt
echo "pairs t=$SECONDS"
for which in gate nogate; do
  if [ $which = nogate ]; then export TCGEMM_DIAG_NO_TINY_GATE=1; fi
  timeout 100 $B/tcgemm bench --suite=bench/suites/random.txt --kernels=gemm --output=$W/bench_random_$which.csv > $W/bench_random_$which.txt 2>&1
  echo "random $which rc=$? t=$SECONDS"
done
unset TCGEMM_DIAG_NO_TINY_GATE
cd $W && python3 - <<'PY'
import csv, glob, math
rows = {}
for f in sorted(glob.glob('p_*.csv')):
    for r in csv.DictReader(open(f)):
        if r['disposition'] != 'passed': continue
        k = 'cublas' if r['provider'] == 'cublas' else ('tiny' if '_tiny' in r['kernel'] else 'pick')
        rows.setdefault('%sx%sx%s' % (r['m'], r['n'], r['k']), {}).setdefault(k, []).append(float(r['runtime_ms']) * 1e3)
print('same process, us: ungated pick | tiny | cublas')
for s, d in rows.items():
    g = lambda k: ' '.join('%6.1f' % x for x in d.get(k, []))
    print(f"{s:>14} {g('pick'):>7} | {g('tiny'):>7} | {g('cublas'):>7}")
for suite in ('tiny', 'random'):
    pick = {}
    for which in ('gate', 'nogate'):
        for r in csv.DictReader(open(f'bench_{suite}_{which}.csv')):
            if r['provider'] == 'tcgemm_gemm_pick': pick.setdefault(r['shape'], {})[which] = (float(r['ratio_to_cublas']), r['kernel'])
    moved = [(k, v) for k, v in pick.items() if len(v) == 2 and v['gate'][1] != v['nogate'][1]]
    gm = lambda w: math.exp(sum(math.log(v[w][0]) for v in pick.values() if w in v) / max(1, sum(1 for v in pick.values() if w in v)))
    print(f'{suite}: geomean to cuBLAS with the gate {gm("gate"):.3f}x, without {gm("nogate"):.3f}x; {len(moved)} shapes moved:')
    for k, v in moved: print(f"  {k[:40]:>40} {v['gate'][0]:5.2f} / {v['nogate'][0]:5.2f}")
PY
tar -C $W -czf $OUT/run171.tar.gz --exclude=gpu_tests.log .
