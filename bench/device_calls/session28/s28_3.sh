#!/usr/bin/env bash
# Session 28 call 3: where the one-consumer tiles wait. Runs 207 (two accumulator chains) and 208
# (rotated k order) ruled out the accumulator chain and L2 line contention. ncu's warp-state and
# per-instruction stall sampling for the 64x32 and 64x64 narrow tiles at 64x4096x4096 and the 16x64
# swap tile at 16x8192x8192, and cuBLAS's kernel on the same shapes: do the consumers wait on the
# full barrier (data late: the producer or the memory system) or the producer on the empty one?
source "$(dirname "$0")/../session17/common.sh"
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section SourceCounters"
prof() {  # name m n k providers kernel-regex [kernels]
  local name=$1 m=$2 n=$3 k=$4 prov=$5 re=$6 kern=${7:-}
  local P="$B/tcgemm profile --verification-enabled=false --warmup-iterations=2 --profiling-iterations=2 --profiling-rounds=1 --m=$m --n=$n --k=$k --providers=$prov"
  [ -n "$kern" ] && P="$P --kernels=$kern"
  timeout 90 ncu --clock-control none $S --import-source no --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 \
    -o $W/$name $P > $W/ncu_$name.log 2>&1; echo "ncu $name rc=$? t=$SECONDS"
  ncu --import $W/$name.ncu-rep > $W/ncu_$name.txt 2>&1
  ncu --import $W/$name.ncu-rep --page source --print-source sass --csv > $W/src_$name.csv 2>/dev/null
  grep -E 'Duration|DRAM Throughput|L2 Hit|Registers Per|Warp Cycles Per Issued|Issued Warp|No Eligible|Active Warps Per' $W/ncu_$name.txt | head -10
}
prof n64x32 64 4096 4096 tcgemm wgmma_tma_ws sm90_wgmma_bf16_64x32x64_s16_narrow
prof n64x64 64 4096 4096 tcgemm wgmma_tma_ws sm90_wgmma_bf16_64x64x64_s14_narrow
prof s16x64 16 8192 8192 tcgemm wgmma_tma_ws sm90_wgmma_bf16_16x64x64_s16_swapab
prof cb64 64 4096 4096 cublas 'sm90|gemm|cutlass|xmma'
prof cb16 16 8192 8192 cublas 'sm90|gemm|cutlass|xmma'
cd $W && python3 - <<'PY'
import csv, glob
for f in sorted(glob.glob('src_*.csv')):
    try: rows = list(csv.reader(open(f)))
    except Exception as e: print(f, e); continue
    h = next((i for i, r in enumerate(rows) if any('Source' == c or 'Source' in c for c in r)), None)
    if h is None or len(rows) < h + 2: print(f, 'no source table', len(rows)); continue
    hd = rows[h]; body = rows[h + 1:]
    si = next((i for i, c in enumerate(hd) if c.startswith('Source')), 1)
    cols = [i for i, c in enumerate(hd) if 'Stall Sampling' in c]
    if not cols: print(f, 'no stall column', hd[:12]); continue
    c = cols[0]
    def num(x):
        try: return float(x.replace(',', ''))
        except: return 0.0
    tot = sum(num(r[c]) for r in body if len(r) > c)
    print('== %s  total samples %.0f (%s)' % (f, tot, hd[c]))
    for r in sorted(body, key=lambda r: -num(r[c]) if len(r) > c else 0)[:12]:
        print('  %5.1f%%  %s' % (100 * num(r[c]) / max(tot, 1), r[si][:90]))
PY
cd $W && for f in ncu_*.txt; do echo "== $f"; grep -E 'Stall|stall' $f | head -6; done
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
