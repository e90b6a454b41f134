#!/usr/bin/env python3
"""Merges a device call's profile parts (DIR/s_*.csv) into DIR/sweeps.csv, removes the parts, and
prints one line per (shape, kernel, forced split count): the runtimes in us, fastest first (up to 8).
Usage: python3 bench/device_calls/sweep_table.py DIR"""
import csv
import glob
import os
import re
import sys

out_dir = sys.argv[1]
parts = sorted(glob.glob(os.path.join(out_dir, 's_*.csv')))
rows = []
for f in parts:
    rows += list(csv.DictReader(open(f)))
if parts:
    with open(os.path.join(out_dir, 'sweeps.csv'), 'w', newline='') as merged:
        w = csv.DictWriter(merged, fieldnames=list(rows[0].keys()) if rows else [])
        w.writeheader()
        w.writerows(rows)
    for f in parts:
        os.remove(f)
times = {}
for r in rows:
    if r['disposition'] != 'passed':
        continue
    shape = '%sx%sx%s' % (r['m'], r['n'], r['k'])
    ks = re.search(r'split_k_slices=(\d+)', r['problem'])
    k = r['kernel'].replace('sm90_wgmma_bf16_', '') if r['provider'] == 'tcgemm' else 'cublas'
    key = (shape, k, ks.group(1) if ks and k != 'cublas' else '')
    times.setdefault(key, []).append(float(r['runtime_ms']) * 1e3)
for (shape, k, s), v in sorted(times.items()):
    print(f"{shape:>15} {k[-34:]:>34} {s:>2} " + ' '.join(f'{x:6.1f}' for x in sorted(v)[:8]))
