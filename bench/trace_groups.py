#!/usr/bin/env python3
"""How far apart in time the CTAs that read the same operand boxes run, from a ws-kernel trace CSV
(tests/gpu/test_sm90_ws_trace.cu with TCGEMM_RESULTS_DIR: cta,sm,entry_us,go_us,first_us,last_us,...).

The L2 request coalescer merges reads of one sector only when they arrive close together (bench/NOTES.md,
session 48), so CTAs that share an A row block or a B column block and run out of step lose the merges.
The CTA-to-tile mapping repeats wgmma_tma_ws_kernel.cuh's (groups of 8 tile rows, clusters along x).

usage: trace_groups.py CSV M N TILE_M TILE_N MC_M MC_N
"""
import csv
import statistics
import sys


def tile_of(cta, tiles_m, tiles_n, mc_m, mc_n):
    tiles = tiles_m * tiles_n
    x, z = cta % tiles, cta // tiles
    rank = x % (mc_m * mc_n)
    rm, rn = rank % mc_m, rank // mc_m
    t = x // (mc_m * mc_n)
    grid_m, grid_n = tiles_m // mc_m, tiles_n // mc_n
    group_tiles = 8 * grid_n
    first_m = (t // group_tiles) * 8
    rows = min(grid_m - first_m, 8)
    in_group = t % group_tiles
    return z, (first_m + in_group % rows) * mc_m + rm, (in_group // rows) * mc_n + rn


def spread(groups, col):
    return [max(r[col] for r in g) - min(r[col] for r in g) for g in groups.values() if len(g) > 1]


def main():
    path, m, n, tm, tn, mc_m, mc_n = sys.argv[1], *map(int, sys.argv[2:8])
    rows = [{k2: float(v) for k2, v in r.items()} for r in csv.DictReader(open(path))]
    tiles_m, tiles_n = -(-m // tm), -(-n // tn)
    by_a, by_b = {}, {}
    for r in rows:
        z, i, j = tile_of(int(r["cta"]), tiles_m, tiles_n, mc_m, mc_n)
        r["stream_us"] = r["last_us"] - r["first_us"]
        by_a.setdefault((z, i), []).append(r)
        by_b.setdefault((z, j), []).append(r)
    q = lambda v: "%6.2f %6.2f %6.2f" % (min(v), statistics.median(v), max(v)) if v else "   -"
    print(f"{path}: {len(rows)} CTAs, {tiles_m}x{tiles_n} tiles, clusters {mc_m}x{mc_n}   (us: min / median / max)")
    for what, col in (("entry", "entry_us"), ("first stage full", "first_us"), ("stream", "stream_us"),
                      ("last stage full", "last_us")):
        print(f"  {what:17s} over CTAs {q([r[col] for r in rows])}")
    for name, groups in (("A row block", by_a), ("B column block", by_b)):
        print(f"  CTAs sharing an {name}: {statistics.median(len(g) for g in groups.values()):.0f} a group; "
              f"spread of first stage full {q(spread(groups, 'first_us'))}, of last stage full {q(spread(groups, 'last_us'))}")


if __name__ == "__main__":
    main()
