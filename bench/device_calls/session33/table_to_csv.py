#!/usr/bin/env python3
"""Every row of a `tcgemm bench`/`profile` table (stdout) as bench/results CSV rows, and a short
per-shape table of the kernels' times. bench's own --output CSV keeps only the best kernel, gemm()'s
pick and cuBLAS; a by-name comparison needs every row.

usage: table_to_csv.py OUT.csv DATE DRIVER COMMAND TABLE.txt [TABLE.txt ...]
"""
import csv
import re
import sys


def rows_of(path):
    device, header, out = "", None, []
    for line in open(path):
        line = line.rstrip("\n")
        if not device and line.startswith("device"):
            device = line
        cells = re.split(r"\s{2,}", line.strip())
        if cells and cells[0] == "Problem":
            if "Runtime(ms)" not in cells:
                break  # bench's summary table follows the per-kernel one
            header = cells
            continue
        if header is None or len(cells) != len(header) or not cells[0].startswith("m="):
            continue
        out.append(dict(zip(header, cells)))
    return device, out


def main():
    out_path, date, driver, command, *tables = sys.argv[1:]
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["date", "device", "driver", "command", "shape", "provider", "kernel", "tflops", "ratio_to_cublas"])
        for t in tables:
            device_line, rows = rows_of(t)
            # The card the table names (calls may land on an H100); the H200 where it names none.
            named = re.search(r"NVIDIA [A-Za-z0-9 ]+?(?=[,(:]|\s{2}|$)", device_line)
            device = named.group(0).strip() if named else "NVIDIA H200"
            for r in rows:
                if r.get("Disposition") not in ("passed", "not_verified", "-"):
                    continue
                tflops = float(r["GFLOP/s"]) / 1000.0
                ratio = r["vs cuBLAS"].rstrip("x") if r["vs cuBLAS"] != "-" else ""
                w.writerow([date, device, driver, command + " # " + t.split("/")[-1], r["Problem"],
                            r["Provider"], r["Kernel"], f"{tflops:.2f}", ratio])
            by_shape = {}
            for r in rows:
                by_shape.setdefault(r["Problem"].split(" A=")[0], []).append(r)
            print(f"== {t}")
            for shape, rs in by_shape.items():
                cells = []
                for r in rs:
                    us = float(r["Runtime(ms)"]) * 1000.0
                    name = r["Kernel"].replace("sm90_wgmma_", "").replace("_pc2x1_tmastore", "")
                    cells.append(f"{name} {us:.1f}" + (f" ({r['vs cuBLAS']})" if r["vs cuBLAS"] != "-" else ""))
                print(f"{shape:22s} " + " | ".join(cells))


if __name__ == "__main__":
    main()
