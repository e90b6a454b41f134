#!/usr/bin/env python3
"""Checks the split planner's model (src/analysis/split_model.cpp, mirrored here) against forced-split
sweeps: for each shape, the measured time of the plan the model ranks first over the best measured
plan, and the same for refits of chosen constants, in-sample and leave-one-shape-out.

  python3 bench/split_model_cv.py bench/results/2026-12-07_h100_profile_split_sweeps_21_shapes_run265.csv \
      [--free p,per_split] [--cv] [--rel]

Needs numpy and scipy (pip install numpy scipy). The mirror is the model's pass only: the 4 split
tiles, splits from the sweep (not every count the planner searches), a 2% margin for a later tile or
more splits. Extra terms a refit may turn on: p (a soft max of the CTA, DRAM and L2 terms instead of
max), per_split (us a split), chip (a whole-chip MMA rate, fraction of peak), c256/c128/c64/c6464
(that rate per tile). --rel fits the errors within each shape only (the ranking, not the level).
bench/NOTES.md, sessions 47 and 48, has what they gave; split_model_rank_search.py searches for the
best ranking directly.
"""
import argparse, collections, csv, math, re, sys


def cdiv(a, b):
    return (a + b - 1) // b


# The model's constants as split_model.cpp has them; efficiencies from split_tile_efficiency().
BASE = dict(e256=0.68, e128=0.62, e64=0.55, e6464=0.55, sm_l2=90, l2=9.5, dram=3.6, slab=3.2,
            launch=2.0, rlaunch=2.0, per_split=0.0, p=0.0, chip=0.0,
            c256=0.0, c128=0.0, c64=0.0, c6464=0.0)
TILES = [(128, 256), (128, 128), (128, 64), (64, 64)]  # the planner's candidate order


def predict(d, P, sms=132, peak=989e12, eb=2.0):
    m, n, k, tm, tn, s = d['m'], d['n'], d['k'], d['tm'], d['tn'], d['s']
    kb = max(1, cdiv(k, 64))
    per = cdiv(kb, s)
    used = cdiv(kb, per)
    ctas = cdiv(m, tm) * cdiv(n, tn) * used
    eff = P['e6464'] if tm == 64 else P['e256'] if tn >= 256 else P['e128'] if tn >= 128 else P['e64']
    mma = 2 * tm * tn * 64 / (peak / 132 * eff)
    load = (tm + tn) * 64 * eb / (P['sm_l2'] * 1e9)
    terms = [cdiv(ctas, sms) * per * max(mma, load) * 1e6,
             (m + n) * k * eb / (P['dram'] * 1e12) * 1e6,
             ctas * per * (tm + tn) * 64 * eb / (P['l2'] * 1e12) * 1e6]
    if P['chip'] > 0:
        terms.append(ctas * per * 2 * tm * tn * 64 / (peak * P['chip']) * 1e6)
    chip_t = P['c6464'] if tm == 64 else P['c256'] if tn >= 256 else P['c128'] if tn >= 128 else P['c64']
    if chip_t > 0:  # the chip's saturating rate for this tile, a fraction of the peak
        terms.append(ctas * per * 2 * tm * tn * 64 / (peak * chip_t) * 1e6)
    mx = max(terms)
    t = mx * sum((x / mx) ** P['p'] for x in terms) ** (1 / P['p']) if P['p'] > 0 else mx
    t += P['launch']
    if used > 1:
        t += 2 * used * m * n * 4 / (P['slab'] * 1e12) * 1e6 + P['rlaunch'] + P['per_split'] * used
    return t


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        s = re.search(r'split_k_slices=(\d+)', r['problem'])
        t = re.search(r'_(\d+)x(\d+)x64_s\d+_ws_splitk$', r['kernel'])
        if s and t and r['runtime_ms']:
            key = (int(r['m']), int(r['n']), int(r['k']), int(t.group(1)), int(t.group(2)), int(s.group(1)))
            out.setdefault(key, []).append(float(r['runtime_ms']) * 1e3)
    return [dict(m=a, n=b, k=c, tm=e, tn=f, s=g, us=sum(v) / len(v)) for (a, b, c, e, f, g), v in out.items()]


def by_shape(data):
    shapes = collections.defaultdict(list)
    for d in data:
        shapes[(d['m'], d['n'], d['k'])].append(d)
    return shapes


def pick_losses(P, data, verbose=False):
    """Measured time of the model's first choice over the best measured, per shape."""
    out = {}
    for shape, ds in sorted(by_shape(data).items()):
        best = min(ds, key=lambda d: d['us'])
        pick, pick_us = None, 1e30
        for t in TILES:
            for d in sorted((d for d in ds if (d['tm'], d['tn']) == t), key=lambda d: d['s']):
                u = predict(d, P)
                if u < pick_us * 0.98:
                    pick, pick_us = d, u
        out[shape] = pick['us'] / best['us']
        if verbose:
            print('%-18s model %3dx%-3d x%-2d %6.1f us (predicted %6.1f) | best %3dx%-3d x%-2d %6.1f us | loss %3.0f%%' % (
                'x'.join(map(str, shape)), pick['tm'], pick['tn'], pick['s'], pick['us'], pick_us,
                best['tm'], best['tn'], best['s'], best['us'], 100 * (out[shape] - 1)))
    return out


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(map(math.log, xs)) / len(xs))


def fit(data, free, band=1.5, rel=False):
    """Refit the named constants: rms log error over the plans within `band` of each shape's best."""
    from scipy.optimize import minimize
    near = [d for ds in by_shape(data).values() for d in ds if d['us'] <= band * min(x['us'] for x in ds)]
    start = dict(BASE, p=4.0 if 'p' in free else 0.0, per_split=0.2 if 'per_split' in free else 0.0,
                 chip=0.55 if 'chip' in free else 0.0,
                 **{c: 0.5 for c in ('c256', 'c128', 'c64', 'c6464') if c in free})

    def params(x):
        return dict(start, **{name: math.exp(v) for name, v in zip(free, x)})

    def cost(x):
        P = params(x)
        if rel:  # within-shape errors only: the ranking, not the absolute level
            errs = collections.defaultdict(list)
            for d in near:
                errs[(d['m'], d['n'], d['k'])].append(math.log(predict(d, P) / d['us']))
            err = math.sqrt(sum((e - sum(es) / len(es)) ** 2 for es in errs.values() for e in es) / len(near))
        else:
            err = math.sqrt(sum(math.log(predict(d, P) / d['us']) ** 2 for d in near) / len(near))
        return err + sum(100 * max(0.0, P[e] - 0.95) ** 2 for e in ('e256', 'e128', 'e64', 'e6464'))

    r = minimize(cost, [math.log(start[n]) for n in free], method='Powell',
                 options=dict(maxiter=40000, xtol=1e-5, ftol=1e-7))
    return params(r.x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('csv')
    ap.add_argument('--free', default='', help='constants to refit, comma-separated (e.g. p,per_split)')
    ap.add_argument('--cv', action='store_true', help='also leave one shape out at a time')
    ap.add_argument('--rel', action='store_true', help='fit within-shape errors only (the ranking)')
    a = ap.parse_args()
    data = load(a.csv)
    base = pick_losses(BASE, data, verbose=True)
    print('model as built: pick loss geomean %.3f, worst %.3f over %d shapes' % (geomean(base.values()), max(base.values()), len(base)))
    if not a.free:
        return
    free = a.free.split(',')
    P = fit(data, free, rel=a.rel)
    print('refit', {n: round(P[n], 3) for n in free})
    ins = pick_losses(P, data, verbose=True)
    print('in-sample: geomean %.3f, worst %.3f' % (geomean(ins.values()), max(ins.values())))
    if a.cv:
        held = {}
        for shape in by_shape(data):
            train = [d for d in data if (d['m'], d['n'], d['k']) != shape]
            test = [d for d in data if (d['m'], d['n'], d['k']) == shape]
            held[shape] = pick_losses(fit(train, free, rel=a.rel), test)[shape]
            print('held out %-18s %.3f (model as built %.3f)' % ('x'.join(map(str, shape)), held[shape], base[shape]), flush=True)
        print('leave-one-shape-out: geomean %.3f, worst %.3f' % (geomean(held.values()), max(held.values())))


if __name__ == '__main__':
    sys.exit(main())
