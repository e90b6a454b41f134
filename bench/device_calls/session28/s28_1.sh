#!/usr/bin/env bash
# Session 28 call 1: the one-consumer ws tiles (64x16/32/64, the decode swap tiles) with two
# accumulator chains (even/odd k-tiles). The whole suite on the new build, sanitizers on the
# one-consumer cases, then main before this change (tcgemm_old) against it in alternating
# processes: four suites through gemm() and the one-consumer entries by name.
source "$(dirname "$0")/../session17/common.sh"
D=bench/device_calls/session28
run_suite
grep -q "timed out\|rc=124" <<<"$(tail -1 $W/gpu_tests.log)" && echo "suite hang?"
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Sm90Multicast*64x32*' $W 50
K=sm90_wgmma_bf16_64x32x64_s16_narrow,sm90_wgmma_bf16_64x64x64_s14_narrow,sm90_wgmma_bf16_16x64x64_s16_swapab,sm90_wgmma_bf16_32x64x64_s16_swapab,sm90_wgmma_bf16_64x64x64_s14_swapab
for pass in 1 2; do
  [ $SECONDS -gt 450 ] && { echo "pass $pass skipped t=$SECONDS"; break; }
  for bin in tcgemm_old tcgemm; do
    timeout 60 $B/$bin bench --suite=$D/byname.txt --kernels=$K --output=$W/byname_${bin}_$pass.csv > $W/byname_${bin}_$pass.txt 2>&1
    echo "$bin byname pass $pass rc=$? t=$SECONDS"
    for s in smallm decode_split midm_split tile64; do
      timeout 60 $B/$bin bench --suite=bench/suites/$s.txt --kernels=gemm --output=$W/ab_${s}_${bin}_$pass.csv > /dev/null 2>&1
      rc=$?; echo "$bin $s pass $pass rc=$rc t=$SECONDS"; [ $rc = 124 ] && break 3
    done
  done
done
cd $W && python3 - <<'PY'
import csv, math, glob
for s in ('smallm', 'decode_split', 'midm_split', 'tile64'):
    for f in sorted(glob.glob('ab_%s_*.csv' % s)):
        rows = [r for r in csv.DictReader(open(f)) if r['provider'] == 'tcgemm_gemm_pick']
        g = [float(r['ratio_to_cublas']) for r in rows]
        if g: print('%-34s geomean %.3fx  %s' % (f, math.exp(sum(map(math.log, g)) / len(g)), ' '.join('%.3f' % x for x in g)))
PY
for f in byname_*.txt; do echo "== $f"; grep -vE "^#|^$" $f | awk '{print $1,$2,$3,$7,$8,$10,$NF}' | head -40; done 2>/dev/null | head -120
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
