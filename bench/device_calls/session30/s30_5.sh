#!/usr/bin/env bash
# Session 30 call 5 (run 220): run 218's trace put one 128x64 s9 grid at ~37 us a launch (40 launches
# before it) where the profile's warm-up loop (>= 200 ms of launches) takes ~46 us. Sustained load:
# the same trace after 40 and after 4000 launches (its SM clock is in the trace), and the clocks,
# power and throttle reasons sampled every 50 ms while the profile times ours and cuBLAS's.
source "$(dirname "$0")/../session17/common.sh"
for before in 40 4000 40 4000; do
  TCGEMM_TRACE_BEFORE=$before TCGEMM_TRACE_SHAPES=128x8192x8192 TCGEMM_TRACE_KERNEL=sm90_wgmma_bf16_128x64x64_s9_ws \
    TCGEMM_RESULTS_DIR=$W timeout 60 $B/tcgemm_gpu_tests --gtest_filter='Sm90WsTrace.TimelineOfRequestedShapes' > $W/trace_$before.log 2>&1
  echo "== trace after $before launches rc=$?"; grep -E '\[trace\]' $W/trace_$before.log | head -9
  mv $W/trace_128x8192x8192.csv $W/trace_before${before}_$SECONDS.csv 2>/dev/null
done
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $W/smi.csv 2>&1 &
SMI=$!
for kern in sm90_wgmma_bf16_128x64x64_s9_ws cublas; do
  P="--kernels=$kern --providers=tcgemm"; [ $kern = cublas ] && P="--providers=cublas"
  date +%T.%N > $W/t_$kern.txt
  TCGEMM_DIAG_HOST_TIMING=1 timeout 60 $B/tcgemm profile --m=128 --n=8192 --k=8192 $P --verification-enabled=false \
    --warmup-iterations=20 --profiling-iterations=0 --profiling-duration=400 --profiling-rounds=1 > $W/prof_$kern.txt 2> $W/host_$kern.txt
  date +%T.%N >> $W/t_$kern.txt
  echo "== $kern"; grep host-timing $W/host_$kern.txt; cat $W/t_$kern.txt | tr '\n' ' '; echo
  sleep 1
done
kill $SMI
python3 - <<'PY'
import csv, datetime
rows = [r for r in csv.reader(open('/tmp/w/smi.csv')) if len(r) >= 6]
def t(s): return datetime.datetime.strptime(s.strip().split(' ')[-1], '%H:%M:%S.%f').time()
for kern in ('sm90_wgmma_bf16_128x64x64_s9_ws', 'cublas'):
    a, b = [datetime.datetime.strptime(x.strip()[:15], '%H:%M:%S.%f').time() for x in open('/tmp/w/t_%s.txt' % kern)]
    sel = [r for r in rows if a <= t(r[0]) <= b]
    print(kern, len(sel), 'samples')
    for r in sel[::max(1, len(sel) // 12)]: print('   ', ', '.join(x.strip() for x in r[1:]))
PY
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
