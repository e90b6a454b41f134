#!/usr/bin/env python3
"""Plots a `tcgemm bench` CSV: gemm()'s pick against cuBLAS per shape, issue 5's targets marked.

Each shape gets one bar: the ratio of gemm()'s pick to cuBLAS measured in the same run (the CSV's
tcgemm_gemm_pick rows). Where issue 5's target is a share of the memory floor (minimal bytes over
the 4.27 TB/s copy rate measured in run 109), the bar is that share instead and says so.
Usage: scripts/plot.sh bench/results/<run>.csv [more.csv ...] -o out.svg
"""
import argparse
import csv
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COPY_RATE = 4.27e12  # bytes/s, run 109's copy rate (bench/NOTES.md): the floors' denominator
# Issue 5's targets: ("ratio", x) against cuBLAS, or ("floor", f) as a share of the memory floor.
TARGETS = {
    (4097, 4097, 4097): ("ratio", 4.0), (4095, 4095, 4095): ("ratio", 1.5),
    (1000, 1000, 1001): ("ratio", 1.5), (333, 777, 4099): ("ratio", 1.5),
    (256, 256, 65536): ("ratio", 2.0), (512, 1024, 32768): ("ratio", 1.0),
    (16, 8192, 8192): ("floor", 0.9), (64, 28672, 8192): ("floor", 0.9),
    (128, 8192, 28672): ("floor", 0.9), (4224, 4224, 4224): ("ratio", 1.05),
}


def shape_of(problem):
    m = re.search(r"m=(\d+) n=(\d+) k=(\d+)", problem)
    return tuple(int(x) for x in m.groups()) if m else None


def read(paths):
    """{shape: {'pick': tflops, 'cublas': tflops, 'kernel': name}} over every file (later wins)."""
    out = {}
    for path in paths:
        for r in csv.DictReader(open(path)):
            s = shape_of(r["shape"])
            if s is None or not r["tflops"]:
                continue
            d = out.setdefault(s, {})
            if r["provider"] == "tcgemm_gemm_pick":
                d["pick"], d["kernel"] = float(r["tflops"]), r["kernel"]
                # The CSV's TFLOP/s has two decimals: a tiny problem's reads 0.00, its ratio does not.
                if r.get("ratio_to_cublas"):
                    d["ratio"] = float(r["ratio_to_cublas"])
            elif r["provider"] == "cublas":
                d["cublas"] = float(r["tflops"])
    return {s: d for s, d in out.items() if "pick" in d and "cublas" in d}


def floor_share(s, tflops):
    m, n, k = s
    seconds = 2.0 * m * n * k / (tflops * 1e12)
    return (2.0 * (m * k + k * n + m * n) / COPY_RATE) / seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    rows = read(a.csv)
    if not rows:
        raise SystemExit("no tcgemm_gemm_pick and cublas rows in " + ", ".join(a.csv))
    shapes = list(rows)
    labels, values, goals, colors = [], [], [], []
    for s in shapes:
        d = rows[s]
        kind, goal = TARGETS.get(s, ("ratio", None))
        v = floor_share(s, d["pick"]) if kind == "floor" else d.get("ratio") or d["pick"] / d["cublas"]
        unit = "of floor" if kind == "floor" else "x cuBLAS"
        labels.append("%dx%dx%d (%s)" % (s + (unit,)))
        values.append(v)
        goals.append(goal)
        colors.append("#888888" if goal is None else "#2a7d2a" if v >= goal else "#c0392b")
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(shapes) + 1.2))
    y = range(len(shapes))
    ax.barh(list(y), values, color=colors)
    for i, (v, g) in enumerate(zip(values, goals)):
        ax.text(max(v, g or 0.0) * 1.01 + 0.02, i, "%.2f" % v, va="center", fontsize=8)
        if g is not None:
            ax.plot([g, g], [i - 0.4, i + 0.4], color="black", linewidth=2)
    ax.axvline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("gemm()'s pick: ratio to cuBLAS in the same run, or share of the memory floor\n"
                  "black ticks: issue 5's targets (green met, red not); dashed: level with cuBLAS", fontsize=8)
    ax.set_title(a.title or ", ".join(p.split("/")[-1] for p in a.csv), fontsize=9)
    fig.tight_layout()
    fig.savefig(a.output)
    print("wrote", a.output)


if __name__ == "__main__":
    main()
