#!/usr/bin/env bash
# Session 25 call 4: the committed tree after call 3's two stale test expectations (gemm()'s pick
# at 64x8192x8192 and the preferred swap entry's rank) were corrected. The swap and cluster tests,
# then the whole GPU suite.
source "$(dirname "$0")/../session17/common.sh"
run_tests '*SwapCluster*:*SwapAB*'
run_suite
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
