#!/usr/bin/env bash
# Session 27 call 5: main as committed (the registry's shared wgmma_entry): the multicast tests,
# the whole suite, and the multicast suite through gemm() beside cuBLAS.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*Multicast*'
run_suite
bench_suites multicast
tail -14 $W/bench_multicast.txt
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
