#!/usr/bin/env bash
# Session 19 call 5 (run 173, final main): the TMA-legal tiny gate at 2^16 multiply-adds (after run
# 171's loss at 16x256x128) and the misaligned-test helper shared by the tiny and thread-load tests.
# Those tests, the property and gate tests; the tiny suite through gemm(). Summary lines last.
source "$(dirname "$0")/../session17/common.sh"
timeout 120 $B/tcgemm_gpu_tests --gtest_brief=1 --gtest_filter='*KernelProperty*:*Tiny*:*FusedGate*:*ThreadLoads*' > $W/tests.log 2>&1
echo "tests rc=$? t=$SECONDS"; grep -E '^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]|tests from .* ran' $W/tests.log | head -12
timeout 100 $B/tcgemm bench --suite=bench/suites/tiny.txt --kernels=gemm --output=$W/bench_tiny_gate.csv > $W/bench_tiny_gate.txt 2>&1
echo "tiny rc=$? t=$SECONDS"; grep -iE 'geomean' $W/bench_tiny_gate.txt
grep -E 'm=16 n=256|m=1 n=617|m=3 n=10 ' $W/bench_tiny_gate.csv | grep gemm_pick | cut -d, -f5-
tar -C $W -czf $OUT/run173.tar.gz .
