#!/usr/bin/env bash
# Run 275 (session 49): exp/k-ways under compute-sanitizer (memcheck, racecheck, synccheck) on every
# 64x64 one-consumer entry at awkward sizes and its split-K tiles, then the cliffs suite through gemm()
# main against the branch, twice interleaved. On an H200, then session 47's targets call.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz --exclude='*.ncu-rep' .; }
F='*sm90_wgmma_*_64x64x64_s14*_33x33x33:*sm90_wgmma_*_64x64x64_s14*_4097x64x129:*sm90_wgmma_*_64x64x64_s14*_33x1000x7:*sm90_wgmma_*_64x64x64_s14*NanAndInf*:Sm90SplitKTilesSmall*:Sm90NarrowMidM*'
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests_kw --gtest_brief=1 --gtest_filter="$F" > $W/san_kw_$t.log 2>&1
  echo "$t rc=$? t=$SECONDS"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|tests from .* ran|PASSED|FAILED' $W/san_kw_$t.log | head -4
done
save
for i in 1 2; do
  bench_one tcgemm cliffs main$i; bench_one tcgemm_kw cliffs kw$i; save
  [ $SECONDS -lt 380 ] || break
done
python3 - "$W" <<'PY'
import csv, glob, sys
w = sys.argv[1]; t = {}
for fn in sorted(glob.glob(f"{w}/bench_cliffs_*.csv")):
    tag = fn.split('bench_cliffs_')[1][:-4]
    for r in csv.DictReader(open(fn)):
        if r['provider'] == 'tcgemm': t.setdefault(r['shape'], {})[tag] = float(r['ratio_to_cublas'])
tags = sorted({k for d in t.values() for k in d})
print('%-44s' % 'shape' + ''.join('%9s' % x for x in tags))
for s, d in t.items(): print('%-44s' % s[:44] + ''.join('%9.3f' % d[x] if x in d else '%9s' % '-' for x in tags))
PY
if [ $SECONDS -lt 200 ] && nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$(dirname "$0")/../session47/s47_5.sh" 2>&1 | tail -25
fi
echo "done t=$SECONDS"; save
