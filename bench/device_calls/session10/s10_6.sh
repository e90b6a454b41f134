#!/usr/bin/env bash
# Session 10, call 6: split-K in clusters (the splits of a tile as a 2/4/8-CTA cluster along z,
# their sums added in rank 0 over distributed shared memory): tests + sanitizers, then the long-K
# shapes with the split plan run as it is and with TCGEMM_CLUSTER_SPLITS=2/4/8 (experiment switch),
# one process per setting, each beside cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.limit --format=csv,noheader | tee $OUT/gpu.txt
timeout 200 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*ClusterSplit*' > $OUT/cs_tests.log 2>&1; echo rc=$?
grep -E '^\[  FAILED|^\[  PASSED|tests? ran' $OUT/cs_tests.log | head -20
grep -B3 -A12 -m3 'Failure' $OUT/cs_tests.log | head -40
for t in racecheck memcheck synccheck; do
  TCGEMM_TEST_SMALL=1 timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/tcgemm_gpu_tests --gtest_brief=1 \
    --gtest_filter='*ClusterSplit*7x9x1000*:*ClusterSplit*129x300x2040*cluster2*' > $OUT/san_$t.log 2>&1
  echo "$t rc=$?"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' $OUT/san_$t.log | head -3
done
rm -f $OUT/san_memcheck.log $OUT/san_synccheck.log
run() {  # tag, env value, profile args...
  local tag=$1 c=$2; shift 2
  TCGEMM_CLUSTER_SPLITS=$c $B/tcgemm profile "$@" --kernels='*bf16_128xN_ws_splitk' --providers=tcgemm,cublas \
    --verification-enabled=true --output=$OUT/p_${tag}_c$c.csv > /dev/null 2>&1 || echo "rc=$? $tag c=$c"
}
for s in "1024 1024 8192" "1024 1024 4096" "768 768 8192" "512 1024 32768" "256 512 16384" "1024 1024 16384"; do set -- $s
  for c in 0 2 4 8; do run ${1}x${2}x${3} $c --m=$1 --n=$2 --k=$3; done
done
for sp in 16 32; do for c in 0 8; do run 256x256x65536s$sp $c --m=256 --n=256 --k=65536 --split_k_slices=$sp; done; done
python3 - <<'PY'
import csv, glob, os
out = open(os.environ['OUT'] + '/profiles_run100.csv', 'w'); w = None
for f in sorted(glob.glob(os.environ['OUT'] + '/p_*.csv')):
    tag = os.path.basename(f)[2:-4]
    rows = list(csv.DictReader(open(f))); os.remove(f)
    if w is None: w = csv.DictWriter(out, ['tag'] + list(rows[0].keys())); w.writeheader()
    for r in rows:
        r2 = dict(r); r2['tag'] = tag; w.writerow(r2)
        if r['provider'] == 'tcgemm' or tag.endswith('c0'):
            print('%-22s %-7s %-52s %-6s %8.1f us %s' % (tag, r['provider'], (r['kernel'] + ' ' + r['detail'])[:52], r['disposition'][:6], 1e3 * float(r['runtime_ms'] or 'nan'), r['ratio_to_cublas']))
PY
cd $OUT && tar czf logs.tgz --remove-files *.log; ls
echo "=== done $(date +%T)"
