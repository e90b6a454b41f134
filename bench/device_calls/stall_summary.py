"""The instructions with the most warp-stall samples in ncu source-page CSVs (--page source
--print-source sass --csv), each as a share of its kernel's samples."""
import csv
import sys


def num(x):
    try:
        return float(x.replace(',', ''))
    except ValueError:
        return 0.0


for f in sys.argv[1:]:
    rows = list(csv.reader(open(f)))
    h = next((i for i, r in enumerate(rows) if any(c.startswith('Source') for c in r)), None)
    if h is None or len(rows) < h + 2:
        print(f, 'no source table', len(rows))
        continue
    hd, body = rows[h], rows[h + 1:]
    si = next(i for i, c in enumerate(hd) if c.startswith('Source'))
    cols = [i for i, c in enumerate(hd) if 'Stall Sampling' in c]
    if not cols:
        print(f, 'no stall column', hd[:12])
        continue
    c = cols[0]
    tot = sum(num(r[c]) for r in body if len(r) > c)
    print('== %s  total samples %.0f' % (f, tot))
    for r in sorted(body, key=lambda r: -num(r[c]) if len(r) > c else 0)[:10]:
        print('  %5.1f%%  %s' % (100 * num(r[c]) / max(tot, 1), r[si][:80]))
