#!/usr/bin/env bash
# Session 11, call 2 (diagnosis): per-CTA timelines of the ws kernel (sm90_wgmma_ws_set_trace) at the
# decode and small-M shapes, to find where the ~3 us of fixed time over a plain stream goes (call 1).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader
# keep the clocks up for a few seconds first
$B/tcgemm bandwidth --bytes=469762048 --grids=528 --iterations=200 > /dev/null
TCGEMM_RESULTS_DIR=$OUT TCGEMM_TRACE_SHAPES=16x8192x8192,16x28672x8192,128x8192x28672,16x8192x8192 \
  $B/tcgemm_gpu_tests --gtest_filter='*WsTrace*' 2>&1 | grep -E 'trace|OK|FAILED|Failure|expected' | head -60
python3 - <<'PY'
import csv, os, collections
O = os.environ['OUT']
for f in sorted(os.listdir(O)):
    if not f.startswith('trace_'): continue
    rows = list(csv.DictReader(open(O + '/' + f)))
    done = sorted(float(r['done_us']) for r in rows)
    first = sorted(float(r['first_us']) for r in rows)
    print(f, 'done deciles:', [round(done[int(q * (len(done) - 1))], 2) for q in (0, .1, .25, .5, .75, .9, 1)])
    print(f, 'first-full deciles:', [round(first[int(q * (len(first) - 1))], 2) for q in (0, .1, .25, .5, .75, .9, 1)])
    sms = collections.Counter(r['sm'] for r in rows); print(f, 'SMs used', len(sms), 'max CTAs on one SM', max(sms.values()))
PY
