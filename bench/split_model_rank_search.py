#!/usr/bin/env python3
"""Random search of the split planner's constants (split_model_cv.py's mirror) for the best ranking,
not the best fit: each sample's score is the geomean over shapes of (measured time of the model's
first choice) / (best measured), and leave-one-shape-out picks the best sample on the other shapes
and scores it on the one left out.

  python3 bench/split_model_rank_search.py bench/results/2026-12-07_h100_profile_split_sweeps_21_shapes_run265.csv \
      e256,e128,e64,e6464,l2,slab 1500

Constants: those of split_model_cv.BASE, plus c256/c128/c64/c6464 (a chip-wide rate per tile, a
fraction of the peak, as a fourth term of the max). bench/NOTES.md, session 48, has what it gave.
"""
import math, random, sys

import split_model_cv as m

RANGES = dict(l2=(4, 12), slab=(1, 5), c128=(0.25, 0.9), c256=(0.25, 0.9), c64=(0.25, 0.9), c6464=(0.25, 0.9),
              per_split=(0, 1), dram=(2.5, 4), p=(1.5, 8), e256=(0.5, 0.95), e128=(0.5, 0.95), e64=(0.4, 0.95),
              e6464=(0.4, 0.95), sm_l2=(40, 150))


def main():
    path, free, count = sys.argv[1], sys.argv[2].split(','), int(sys.argv[3])
    data = m.load(path)
    shapes = sorted(m.by_shape(data))
    random.seed(1)
    samples = [dict(m.BASE)]
    for _ in range(count):
        samples.append(dict(m.BASE, **{f: random.uniform(*RANGES[f]) for f in free}))
    logs = []
    for i, P in enumerate(samples):
        losses = m.pick_losses(P, data)
        logs.append([math.log(losses[s]) for s in shapes])
        if i % 500 == 0:
            print('%d of %d samples' % (i, len(samples)), file=sys.stderr, flush=True)
    total = [sum(r) for r in logs]
    best = min(range(len(logs)), key=lambda i: total[i])
    print('model as built %.3f; best in-sample %.3f' % (math.exp(total[0] / len(shapes)), math.exp(total[best] / len(shapes))),
          {f: round(samples[best][f], 3) for f in free})
    held = []
    for j, s in enumerate(shapes):
        b = min(range(len(logs)), key=lambda i: total[i] - logs[i][j])
        held.append(logs[b][j])
        print('held out %-18s %.3f (as built %.3f)' % ('x'.join(map(str, s)), math.exp(logs[b][j]), math.exp(logs[0][j])),
              {f: round(samples[b][f], 2) for f in free})
    print('leave-one-shape-out: geomean %.3f, worst %.3f' % (math.exp(sum(held) / len(held)), math.exp(max(held))))


if __name__ == '__main__':
    sys.exit(main())
