#!/usr/bin/env python3
"""Ratio to cuBLAS of gemm()'s pick per shape and load batch, from `tcgemm bench --kernels=gemm`
CSVs named *_b<batch>_<pass>.csv (median over passes; cuBLAS in the same process each time),
and each batch's geomean."""
import csv
import math
import re
import statistics
import sys
from collections import defaultdict

ratio = defaultdict(lambda: defaultdict(list))
kernel = {}
for path in sys.argv[1:]:
    b = int(re.search(r"_b(\d+)_", path).group(1))
    for r in csv.DictReader(open(path)):
        if r["provider"] != "tcgemm_gemm_pick" or not r["ratio_to_cublas"]:
            continue
        shape = r["shape"].replace(" A=bf16:row B=bf16:column D=bf16:row", "")
        ratio[shape][b].append(float(r["ratio_to_cublas"]))
        kernel[shape] = r["kernel"]
bs = sorted({b for d in ratio.values() for b in d})
print("| shape | kernel | " + " | ".join(f"b={b}" for b in bs) + " |")
print("|---|---|" + "---|" * len(bs))
logs = defaultdict(list)
for shape, d in ratio.items():
    cells = []
    for b in bs:
        if d[b]:
            m = statistics.median(d[b])
            logs[b].append(math.log(m))
            cells.append(f"{m:.3f}" + (f" ({min(d[b]):.3f}-{max(d[b]):.3f})" if len(d[b]) > 1 else ""))
        else:
            cells.append("")
    print(f"| {shape} | {kernel[shape]} | " + " | ".join(cells) + " |")
print("| geomean | | " + " | ".join(f"{math.exp(sum(logs[b]) / len(logs[b])):.3f}" if logs[b] else "" for b in bs) + " |")
