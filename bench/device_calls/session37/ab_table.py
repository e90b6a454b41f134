#!/usr/bin/env python3
"""A/B of gemm()'s pick from `tcgemm bench --kernels=gemm` CSVs: per shape, the median TFLOP/s and
ratio to cuBLAS of the A files and of the B files, and B's time over A's (> 1: A faster).

usage: ab_table.py A.csv [A.csv ...] -- B.csv [B.csv ...]
"""
import csv
import math
import statistics
import sys


def load(paths):
    by_shape = {}
    for p in paths:
        for r in csv.DictReader(open(p)):
            if r["provider"] != "tcgemm_gemm_pick":
                continue
            s = by_shape.setdefault(r["shape"].replace(" A=bf16:row B=bf16:column D=bf16:row", ""), {"tf": [], "ratio": []})
            s["tf"].append(float(r["tflops"]))
            s["ratio"].append(float(r["ratio_to_cublas"] or "nan"))
    return by_shape


def main():
    args = sys.argv[1:]
    cut = args.index("--")
    a, b = load(args[:cut]), load(args[cut + 1:])
    print(f"{'shape':48s} {'A TF/s':>8s} {'A ratio':>8s} {'B TF/s':>8s} {'B ratio':>8s} {'B/A time':>9s}")
    logs = []
    for shape in a:
        if shape not in b:
            continue
        ta, tb = statistics.median(a[shape]["tf"]), statistics.median(b[shape]["tf"])
        ra, rb = statistics.median(a[shape]["ratio"]), statistics.median(b[shape]["ratio"])
        logs.append(math.log(ta / tb))
        print(f"{shape[:48]:48s} {ta:8.1f} {ra:8.3f} {tb:8.1f} {rb:8.3f} {ta / tb:9.3f}")
    if logs:
        print(f"geomean B time / A time over {len(logs)} shapes: {math.exp(sum(logs) / len(logs)):.4f}")


if __name__ == "__main__":
    main()
