#!/usr/bin/env bash
# Run 278 (session 50): 512x1024x32768, where run 276 read the 128x128 s7 x4 split by name level with
# cuBLAS (62.4 us against 61.9-63.8) and gemm()'s model picks 128x256 x8 (0.92-0.94x in runs 255-269).
# Three rounds in one process each: by name 128x128 s7 and 128x256 s4 at 4 and 8 splits with cuBLAS;
# gemm() over the cliffs suite (its two split targets among them); then `explain --measure`.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
K='*bf16_128x128x64_s7_ws_splitk,*bf16_128x256x64_s4_ws_splitk'
for r in 1 2 3; do
  timeout 90 $B/tcgemm profile --m=512 --n=1024 --k=32768 --split_k_slices=4,8 --kernels="$K" --providers=tcgemm,cublas \
    --output=$W/prof_$r.csv > $W/prof_$r.txt 2>&1; echo "prof $r rc=$? t=$SECONDS"
  grep -E "^m=" $W/prof_$r.txt | awk '{for (i = 1; i <= NF; ++i) if ($i ~ /^split_k_slices=/) s = $i; print s, $(NF-5), $(NF-3), $NF}'
  timeout 120 $B/tcgemm bench --suite=bench/suites/cliffs.txt --kernels=gemm --output=$W/cliffs_$r.csv > $W/cliffs_$r.txt 2>&1
  echo "cliffs $r rc=$? $(grep -h 'geomean ratio to cuBLAS over' $W/cliffs_$r.txt)"
  grep -E "512 +1024 +32768|256 +256 +65536" $W/cliffs_$r.txt | head -2
  save
done
explain_measure tcgemm 512 1024 32768 120
grep -A14 -i "split plans" $W/explain_measure_512x1024x32768.txt | head -16
save
echo "done t=$SECONDS"
