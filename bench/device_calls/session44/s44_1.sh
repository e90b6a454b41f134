#!/usr/bin/env bash
# Run 257: session43/s43_4.sh cut to fit the session's last device minutes (one by-name pass, the
# plain 128x64 dropped; the whole suite only if time is left). Binaries (carry .device):
# tcgemm_old / tcgemm_gpu_tests_main = main c8bf23e (main's src/ since: comments only);
# tcgemm / tcgemm_gpu_tests = exp/pair-plan 866f1fb. Saved after each step.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
timeout 90 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='Sm90PlannedPair.*:*Multicast*' > $W/tests_pair.log 2>&1
echo "pair tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|tests from .* ran' $W/tests_pair.log | head -6
save
bench_one tcgemm_old midm128_ksweep main1; bench_one tcgemm midm128_ksweep pair1
bench_one tcgemm_old midm128_ksweep mc1x2_1 'sm90_wgmma_bf16_128x64x64_s9_mc1x2'
bench_one tcgemm midm128_ksweep pair2; bench_one tcgemm_old midm128_ksweep main2
save
bench_one tcgemm_old midm128_split main1; bench_one tcgemm midm128_split pair1; save
[ $SECONDS -lt 200 ] && { bench_one tcgemm_old cliffs main1; bench_one tcgemm cliffs pair1; save; }
[ $SECONDS -lt 200 ] && suite_of tcgemm_gpu_tests pair
echo "done t=$SECONDS"; save
