#!/usr/bin/env bash
# Session 14, call 6 (diagnosis): does the padded ld the copies write (K rounded up to 8) slow the
# GEMM on them? gemm() on aligned operands at the copies' ld's and at others, beside cuBLAS.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
B=/tmp/bin; mkdir -p $B
for f in .device/gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
run() {  # m n k ld
  timeout 60 $B/tcgemm profile --providers=tcgemm,cublas --m=$1 --n=$2 --k=$3 --lda=$4 --ldb=$4 --output=$OUT/p_$1x$2x$3_ld$4.csv 2>&1 | grep -E "^m=" | awk -v ld=$4 '{print $1,$2,$3,"ld=" ld,$7,$8,$10,$NF}'
}
for ld in 8192 8200 8208 8256 8320; do run 1024 1024 8192 $ld; done
for ld in 8200 8256; do run 1024 1024 8193 $ld; done
for ld in 4096 4104 4160; do run 333 777 4096 $ld; done
for ld in 4104 4160 4224; do run 333 777 4099 $ld; done
for ld in 8192 8200 8256; do run 768 768 8192 $ld; done
for ld in 16384 16392 16448; do run 2048 512 16384 $ld; done
cd $OUT && head -1 $(ls p_*.csv | head -1) > profiles.csv && for f in p_*.csv; do tail -n +2 $f >> profiles.csv; done && rm -f p_*.csv
