#!/usr/bin/env python3
"""Ratio to cuBLAS (same problem, same process) of each raster order x group, one row a shape,
from `tcgemm profile --raster_order=... --swizzle_size=... --output=X.csv` files."""
import csv
import sys
from collections import defaultdict

rows = defaultdict(dict)
cublas = defaultdict(list)
cols = []
for path in sys.argv[1:]:
    for r in csv.DictReader(open(path)):
        shape = f"{r['m']}x{r['n']}x{r['k']}" + (" f16" if r["A"].startswith("f16") else "")
        key = f"{r['raster_order'][6:]}{r['swizzle_size']}"  # along_m 8 -> m8
        if r["provider"] == "cublas":
            cublas[shape].append(float(r["runtime_ms"]) * 1e3)
        elif r["runtime_ms"]:
            rows[shape][key] = (float(r["ratio_to_cublas"]), float(r["runtime_ms"]) * 1e3)
            if key not in cols:
                cols.append(key)
print("| shape | cuBLAS µs (median) | " + " | ".join(cols) + " |")
print("|---|---|" + "---|" * len(cols))
for shape, d in rows.items():
    cb = sorted(cublas[shape])[len(cublas[shape]) // 2] if cublas[shape] else float("nan")
    cells = [f"{d[c][0]:.3f} ({d[c][1]:.1f})" if c in d else "" for c in cols]
    print(f"| {shape} | {cb:.1f} | " + " | ".join(cells) + " |")
