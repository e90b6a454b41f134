#!/usr/bin/env bash
# Session 38 call 5: the tall class's fixed cost and per-k-block slope, ours against cuBLAS: a K sweep
# (64 .. 4096) at 6656x624 on the 256x128 tall tile and at 6656x520 on 192x192, by name, cuBLAS in
# the same problem; time = intercept + slope x k-blocks separates start/epilogue from the mainloop.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
K=64,128,256,512,1024,2048,4096
timeout 90 $B/tcgemm profile --m=6656 --n=624 --k=$K --kernels=sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall \
  --verification-enabled=false --providers=tcgemm,cublas --output=$W/ksweep_6656x624.csv > $W/ksweep_6656x624.txt 2>&1
echo "624 rc=$? t=$SECONDS"
timeout 90 $B/tcgemm profile --m=6656 --n=520 --k=$K --kernels=sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit \
  --verification-enabled=false --providers=tcgemm,cublas --output=$W/ksweep_6656x520.csv > $W/ksweep_6656x520.txt 2>&1
echo "520 rc=$? t=$SECONDS"
save
python3 - $W/ksweep_*.csv <<'PY'
import csv, sys
for p in sys.argv[1:]:
    rows = list(csv.DictReader(open(p)))
    print(p.split('/')[-1])
    for prov in ("tcgemm", "cublas"):
        pts = [(int(r["k"]), float(r["runtime_ms"]) * 1e3) for r in rows if r["provider"] == prov and r["runtime_ms"]]
        print(f"  {prov:7s} " + "  ".join(f"k{k}:{t:.1f}" for k, t in pts))
PY
