#!/usr/bin/env bash
# Run 262 (session 46): run 261's question with the clocks and power beside it. 4224³, one
# provider a process (192x176 s3, 192x192 s4 `_fit`, cuBLAS), ~1.5 s of timed launches each, three
# rotating rounds, nvidia-smi sampling SM clock and power every 50 ms; each process's window is
# marked in $W/marks.txt. If 192x176 is faster at the same clock and power, its lead is the kernel's.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,nounits -lms 50 > $W/smi.csv 2>&1 &
smi=$!
one() {  # one(tag providers kernels)
  echo "$1 $r start $(date +%s.%N)" >> $W/marks.txt
  timeout 60 $B/tcgemm_main profile --m=4224 --n=4224 --k=4224 --providers=$2 ${3:+--kernels=$3} \
    --verification-enabled=false --profiling-iterations=0 --profiling-duration=1500 --profiling-rounds=1 \
    --output=$W/p_$1_$r.csv > $W/p_$1_$r.txt 2>&1
  local rc=$?
  echo "$1 $r end $(date +%s.%N)" >> $W/marks.txt
  echo "r$r $1 rc=$rc t=$SECONDS"
}
for r in 1 2 3; do
  case $r in
    1) one k176 tcgemm sm90_wgmma_bf16_192x176x64_s3_pc2x1_tmastore; one k192 tcgemm sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit; one cublas cublas ;;
    2) one cublas cublas; one k192 tcgemm sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit; one k176 tcgemm sm90_wgmma_bf16_192x176x64_s3_pc2x1_tmastore ;;
    3) one k192 tcgemm sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit; one k176 tcgemm sm90_wgmma_bf16_192x176x64_s3_pc2x1_tmastore; one cublas cublas ;;
  esac
  save
done
kill $smi
python3 - "$W" <<'PY'
import csv, sys, datetime, statistics as st
w = sys.argv[1]
marks = {}
for line in open(f"{w}/marks.txt"):
    tag, r, what, ts = line.split()
    marks.setdefault((tag, r), {})[what] = float(ts)
rows = []
for row in csv.reader(open(f"{w}/smi.csv")):
    try:
        t = datetime.datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f").timestamp()
        rows.append((t, float(row[1]), float(row[3])))
    except (ValueError, IndexError):
        pass
for (tag, r), m in sorted(marks.items(), key=lambda x: x[1]["start"]):
    # the timed part: the last 1.5 s before the process ended
    sel = [x for x in rows if m["end"] - 1.7 <= x[0] <= m["end"] - 0.2]
    us = "-"
    try:
        for row in csv.DictReader(open(f"{w}/p_{tag}_{r}.csv")):
            us = f"{float(row['runtime_ms']) * 1000:.1f}"
    except OSError:
        pass
    if sel:
        print(f"r{r} {tag:6s} {us:>7s} us  SM clock median {st.median(x[1] for x in sel):.0f} MHz  power median {st.median(x[2] for x in sel):.0f} W  ({len(sel)} samples)")
    else:
        print(f"r{r} {tag:6s} {us:>7s} us  no samples")
PY
# Run 260's two gains outside the sweep, as forced-split sweeps in one process a shape (the 128x64
# and 128x128 split tiles): 256x512x16384 (main 128x128 x16, the scaled rate's
# 128x64 x7 +16%) and 256x256x65536 (128x128 x25 against 128x64 x11, +3.5%).
for s in "256 512 16384" "256 256 65536"; do
  set -- $s
  timeout 90 $B/tcgemm_main profile --m=$1 --n=$2 --k=$3 --verification-enabled=false \
    --kernels='sm90_wgmma_bf16_128x64x64_s9_ws_splitk,sm90_wgmma_bf16_128x128x64_s7_ws_splitk' \
    --split_k_slices=4,7,8,11,16,25,32 --output=$W/sweep_$1x$2x$3.csv > $W/sweep_$1x$2x$3.txt 2>&1
  echo "sweep $1x$2x$3 rc=$? t=$SECONDS"
  python3 - "$W/sweep_$1x$2x$3.csv" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    print(f"  {row['kernel'][:40]:40s} {row['problem'].split('split_k_slices=')[-1][:3] if 'split_k_slices' in row['problem'] else '':>4s} {float(row['runtime_ms'] or 0) * 1000:7.1f} us {row['ratio_to_cublas']}")
PY
  save
done
echo "done t=$SECONDS"; save
