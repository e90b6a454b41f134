#!/usr/bin/env bash
# Run 261 (session 46): 4224³ with one kernel a process (run 226's method), to settle whether
# 192x176 s3 leads gemm()'s 192x192 s4 `_fit` pick there: in one process it led by 2.5-5.5% in runs
# 225, 255 and 259, inside the order bias run 226 showed between identical kernels. Four rounds of
# three processes in rotating order: each kernel by name with cuBLAS, and gemm() with cuBLAS.
# Binaries (carry .device): tcgemm_main = main 64392e6 (the same kernels as main now); tcgemm = main
# with the plan line's note on the fit part (explain only).
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
k176=sm90_wgmma_bf16_192x176x64_s3_pc2x1_tmastore
k192=sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit
one() {  # one(tag kernels)
  timeout 60 $B/tcgemm_main profile --m=4224 --n=4224 --k=4224 --kernels=$2 --output=$W/p_$1_$r.csv > $W/p_$1_$r.txt 2>&1
  echo "r$r $1 rc=$? t=$SECONDS $(awk -F, 'NR > 1 {printf "%s %.1f us %.3fx; ", $16, $19 * 1000, $22}' $W/p_$1_$r.csv 2>/dev/null)"
}
for r in 1 2 3 4; do
  case $r in
    1|3) one k176 $k176; one k192 $k192; one gemm gemm ;;
    2|4) one gemm gemm; one k192 $k192; one k176 $k176 ;;
  esac
  save
done
# The plan line's note where the part's DRAM peak is not the H200's (main after this call's commit).
[ -x $B/tcgemm ] && $B/tcgemm explain --m 128 --n 8192 --k 28672 > $W/explain_128x8192x28672.txt 2>&1 &&
  grep -o "its plan: .*" $W/explain_128x8192x28672.txt
echo "done t=$SECONDS"; save
