#!/usr/bin/env python3
"""Writes a random-shape suite (issue "No cliffs": shapes nobody chose).

The distribution is the one random.txt was drawn from (seed 7, session 7): M and N log-uniform in
[1, 12288], K log-uniform in [16, 16384], at most 1.4e11 FLOPs; 3 in 4 bf16 TN, the rest f16 TN or
bf16 with A and/or B in the other layout; then `--large` more of at least 1e9 FLOPs. A new seed
gives shapes no earlier session tuned against.

    python3 bench/suites/make_random.py --seed 2026 > bench/suites/random2.txt
"""
import argparse
import math
import random

MAX_FLOPS = 1.4e11


def log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def layout(rng):
    if rng.random() < 0.75:
        return ""
    return rng.choice([
        " f16:row f16:column f16:row",
        " bf16:column bf16:column bf16:row",
        " bf16:row bf16:row bf16:row",
        " bf16:column bf16:row bf16:row",
    ])


def draw(rng, min_flops):
    while True:
        m, n, k = log_uniform(rng, 1, 12288), log_uniform(rng, 1, 12288), log_uniform(rng, 16, 16384)
        if min_flops <= 2.0 * m * n * k <= MAX_FLOPS:
            return f"{m} {n} {k}{layout(rng)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=72)
    ap.add_argument("--large", type=int, default=24)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print(f"# Random shapes, drawn by bench/suites/make_random.py --seed {a.seed} --count {a.count} "
          f"--large {a.large}")
    print("# (M, N log-uniform in [1, 12288], K in [16, 16384], <= 1.4e11 FLOPs; 3 in 4 bf16 TN; the last")
    print(f"# {a.large} at least 1e9 FLOPs). Run with `tcgemm bench --suite=<file> --kernels=gemm`.")
    for _ in range(a.count):
        print(draw(rng, 0.0))
    for _ in range(a.large):
        print(draw(rng, 1e9))


if __name__ == "__main__":
    main()
