#!/usr/bin/env python3
"""Times torch.matmul per shape and dtype, the way `tcgemm profile` times cuBLASLt, so the two
can be compared: CUDA events per iteration, a warm-up of at least --warmup-ms of GPU time (H200
clocks ramp), the median of --iters runs, and inputs rotated across enough copies to exceed 2x L2.

    python3 bench/torch_baseline.py 4096x4096x4096 8192x8192x8192 --dtypes bf16,f16,tf32,f32

Shapes are MxNxK; A is MxK row-major, B is KxN column-major (the TN case `tcgemm profile`
defaults to: --A=bf16:row --B=bf16:column).
"""
import argparse
import math
import statistics
import sys

import torch

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "tf32": torch.float32, "f32": torch.float32}


def parse_shape(text):
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise argparse.ArgumentTypeError(f"shape '{text}' is not MxNxK")
    return tuple(int(p) for p in parts)


def l2_bytes():
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    # L2 size is exposed as L2_cache_size in recent PyTorch; 50 MiB (H100/H200) otherwise.
    return getattr(props, "L2_cache_size", 50 << 20)


def time_shape(m, n, k, name, iters, warmup_ms, seed):
    dtype = DTYPES[name]
    torch.backends.cuda.matmul.allow_tf32 = name == "tf32"
    gen = torch.Generator(device="cuda").manual_seed(seed)
    elem = torch.tensor([], dtype=dtype).element_size()
    set_bytes = (m * k + k * n + m * n) * elem
    nsets = max(2, min(64, 2 * l2_bytes() // set_bytes + 2))
    sets = []
    for _ in range(nsets):
        a = (torch.rand(m, k, device="cuda", generator=gen) * 2 - 1).to(dtype)
        # Column-major KxN: the transpose of a row-major NxK tensor.
        b = (torch.rand(n, k, device="cuda", generator=gen) * 2 - 1).to(dtype).t()
        d = torch.empty(m, n, device="cuda", dtype=dtype)
        sets.append((a, b, d))

    def run(i):
        a, b, d = sets[i % nsets]
        torch.matmul(a, b, out=d)

    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    spent, done, batch = 0.0, 0, 10
    while spent < warmup_ms:
        start.record()
        for i in range(batch):
            run(done + i)
        end.record()
        end.synchronize()
        ms = start.elapsed_time(end)
        spent += ms
        done += batch
        batch = max(1, min(100000, math.ceil((warmup_ms - spent) / max(ms / batch, 1e-4))))

    events = [torch.cuda.Event(enable_timing=True) for _ in range(iters + 1)]
    events[0].record()
    for i in range(iters):
        run(i)
        events[i + 1].record()
    events[-1].synchronize()
    times = [events[i].elapsed_time(events[i + 1]) for i in range(iters)]
    median = statistics.median(times)
    return median, 2.0 * m * n * k / (median * 1e-3) / 1e12


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shapes", nargs="*", type=parse_shape,
                   default=[(4096, 4096, 4096), (8192, 8192, 8192), (4096, 10240, 8192),
                            (4097, 4097, 4097), (16, 8192, 8192)])
    p.add_argument("--dtypes", default="bf16", help="comma list of bf16, f16, tf32, f32")
    p.add_argument("--iters", type=int, default=100)
    p.add_argument("--warmup-ms", type=float, default=200.0,
                   help="GPU time to warm up per shape (the first shape warms 10x longer)")
    p.add_argument("--seed", type=int, default=2019)
    args = p.parse_args()
    names = args.dtypes.split(",")
    for name in names:
        if name not in DTYPES:
            p.error(f"--dtypes: unknown dtype '{name}' ({', '.join(DTYPES)})")
    if args.iters < 1:
        p.error("--iters must be >= 1")
    if not torch.cuda.is_available():
        print("torch_baseline: needs a CUDA GPU", file=sys.stderr)
        return 3

    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, cuBLAS via torch.matmul")
    print(f"{'shape (MxNxK)':<20} {'dtype':<5} {'ms':>10} {'TFLOP/s':>9}")
    first = True
    for m, n, k in args.shapes:
        for name in names:
            warm = args.warmup_ms * (10 if first else 1)
            first = False
            ms, tflops = time_shape(m, n, k, name, args.iters, warm, args.seed)
            print(f"{f'{m}x{n}x{k}':<20} {name:<5} {ms:>10.4f} {tflops:>9.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
