#!/usr/bin/env bash
# Session 10, call 11: explain --measure (every path that takes the problem, and cuBLAS, predicted
# against measured) at the swapped shapes and two references, after the pair-grid model change.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=.device
for s in "320 8192 8192" "384 8192 8192" "640 8192 8192" "256 9216 8192" "4224 4224 4224"; do set -- $s
  echo "===== $1x$2x$3"
  timeout 100 $B/tcgemm explain --m=$1 --n=$2 --k=$3 --measure > $OUT/explain_${1}x${2}x${3}.txt 2>&1; echo rc=$?
  sed -n '/^Advice/,$p' $OUT/explain_${1}x${2}x${3}.txt | grep -vE '^\s+(ok|refused)' | cut -c1-150 | head -40
done
