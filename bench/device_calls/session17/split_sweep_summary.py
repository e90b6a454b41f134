"""The forced split sweeps' table (sweep_<mode>_<shape>.csv in the working folder, written by
`tcgemm profile --split_k_slices=...`, mode cluster or slabs): us by split count, cluster / slabs,
beside cuBLAS's median, and any split that did not pass."""
import csv, glob, re

t = {}
for f in sorted(glob.glob('sweep_*.csv')):
    mode = f.split('_')[1]
    for r in csv.DictReader(open(f)):
        s = re.search(r'split_k_slices=(\d+)', r['problem']); sl = int(s.group(1)) if s else 1
        key = '%sx%sx%s' % (r['m'], r['n'], r['k'])
        if r['provider'] == 'tcgemm': t.setdefault(key, {}).setdefault(mode, {})[sl] = (float(r['runtime_ms']) * 1e3, r['disposition'])
        else: t.setdefault(key, {}).setdefault('cublas', []).append(float(r['runtime_ms']) * 1e3)
print('us by forced splits (cluster / slabs), cuBLAS median')
for key, x in t.items():
    cb = sorted(x.get('cublas', [0]))[len(x.get('cublas', [0])) // 2]
    row = ' '.join('%d:%.1f/%.1f' % (s, x['cluster'][s][0], x.get('slabs', {}).get(s, (0,))[0]) for s in sorted(x.get('cluster', {})))
    bad = [s for m in ('cluster', 'slabs') for s, v in x.get(m, {}).items() if v[1] != 'passed']
    print('%-14s cuBLAS %.1f | %s%s' % (key, cb, row, ' NOT PASSED %s' % bad if bad else ''))
