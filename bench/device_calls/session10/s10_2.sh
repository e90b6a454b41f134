#!/usr/bin/env bash
# Session 10, call 2 (diagnosis only): where the time of the split and repacked small problems goes.
# ncu (base clock) durations of every kernel one gemm() call launches (copies, GEMM pass, reduce)
# beside cuBLAS's, for the long-K and unaligned cliff shapes; then the same shapes timed in the
# profiler (gemm()'s pick and the split entries by name, verified, same process).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
R='regex:wgmma|splitk|splitK|repack|nvjet|xmma|cutlass|Kernel|gemm'
for s in "512 1024 32768" "256 256 65536" "1024 1024 8192" "256 512 16384" "288 1648 1128"; do set -- $s
  for p in tcgemm cublas; do
    [ $p = cublas ] && [ $1 = 512 ] && continue
    timeout 90 ncu --clock-control base --csv --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,lts__t_sectors_op_read.sum --kernel-name "$R" --launch-count 6 \
      $B/tcgemm profile --m=$1 --n=$2 --k=$3 --providers=$p --verification-enabled=false --warmup-iterations=0 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_${p}_${1}x${2}x${3}.csv 2>&1
  done
done
timeout 90 ncu --clock-control base --csv --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,lts__t_sectors_op_read.sum --kernel-name "$R" --launch-count 6 \
  $B/tcgemm profile --m=333 --n=777 --k=4099 --providers=tcgemm,cublas --verification-enabled=false --warmup-iterations=0 --profiling-iterations=1 --profiling-rounds=1 > $OUT/ncu_both_333x777x4099.csv 2>&1
python3 - <<'PY'
import csv, glob, os, io
for f in sorted(glob.glob(os.environ['OUT'] + '/ncu_*.csv')):
    txt = open(f).read()
    i = txt.find('"ID"')
    print('---', os.path.basename(f))
    if i < 0: print(txt[-600:]); continue
    rows = list(csv.DictReader(io.StringIO(txt[i:])))
    k = {}
    for r in rows:
        key = (r['ID'], r['Kernel Name'][:70])
        k.setdefault(key, {})[r['Metric Name']] = r['Metric Value']
    for (i_, name), m in k.items():
        print('  %3s %-70s %9s ns grid %6s dram %10s l2sec %10s' % (i_, name, m.get('gpu__time_duration.sum'), m.get('launch__grid_size'), m.get('dram__bytes_read.sum'), m.get('lts__t_sectors_op_read.sum')))
PY
echo "=== profiles $(date +%T)"
for s in "512 1024 32768" "256 256 65536" "1024 1024 8192" "256 512 16384"; do set -- $s
  $B/tcgemm profile --m=$1 --n=$2 --k=$3 --providers=tcgemm,cublas --verification-enabled=true --output=$OUT/p_${1}x${2}x${3}.csv > /dev/null 2>&1 || echo "rc=$? $s"
done
python3 - <<'PY'
import csv, glob, os
for f in sorted(glob.glob(os.environ['OUT'] + '/p_*.csv')):
    for r in csv.DictReader(open(f)):
        print('%-18s %-7s %-60s %8.1f us %s' % ('x'.join([r['m'], r['n'], r['k']]), r['provider'], (r['kernel'] + ' ' + r['detail'])[:60], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
cd $OUT && tar czf logs.tgz --remove-files *.csv; ls
echo "=== done $(date +%T)"
