#!/usr/bin/env python3
"""gemm()'s pick over cuBLAS per shape in each bench CSV given (tcgemm bench --output), one column a
file (named bench_cliffs_<mode>_<pass>.csv), and each mode's mean ratio over the `nofold` mode's.

usage: cliffs_ab.py bench_cliffs_fold_1.csv bench_cliffs_nofold_2.csv ...
"""
import csv
import sys
from collections import defaultdict

cols = sys.argv[1:]
ratio = defaultdict(dict)
kernel = {}
for path in cols:
    for r in csv.DictReader(open(path)):
        if r["provider"] != "tcgemm_gemm_pick":
            continue
        shape = r["shape"].split(" A=")[0].replace("m=", "").replace(" n=", "x").replace(" k=", "x")
        ratio[shape][path] = float(r["ratio_to_cublas"])
        kernel.setdefault(shape, r["kernel"])
names = [p.split("/")[-1].replace("bench_cliffs_", "").replace(".csv", "") for p in cols]
modes = sorted({n.rsplit("_", 1)[0] for n in names} - {"nofold"})
print(f"{'shape':<18}" + "".join(f"{n:>10}" for n in names) + "".join(f"{m + '/nofold':>16}" for m in modes) + "  pick")
for shape, by in ratio.items():
    def mean(mode):
        v = [by[p] for p, n in zip(cols, names) if n.rsplit("_", 1)[0] == mode and p in by]
        return sum(v) / len(v) if v else None
    base = mean("nofold")
    gains = "".join(f"{(mean(m) / base if base and mean(m) else float('nan')):>16.3f}" for m in modes)
    print(f"{shape:<18}" + "".join(f"{by.get(p, float('nan')):>10.3f}" for p in cols) + gains + f"  {kernel[shape]}")
