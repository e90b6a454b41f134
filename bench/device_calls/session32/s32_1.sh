#!/usr/bin/env bash
# Session 32 call 1 (prepared, not yet run: no device was lent in session 32). The first call of
# the next device time, on main's binaries: main moved the ws and persistent cluster kernels into
# headers of their own (a6b58f4; the SASS of every kernel in the three objects is the same
# instruction for instruction, the kernel names now in tcgemm::sm90_ws / sm90_pc) and split the
# sm90 registry by family (3f47027; the same entries, gemm()'s picks unchanged on the suites by
# explain). Neither has run on a GPU: the whole GPU suite, the sanitizers on the small cases of
# the kernels that moved (ws swap/multicast/split-K tiles, the persistent cluster kernel), then
# the cliffs suite through gemm(). Then session31/s31_2.sh and s31_3.sh on exp/early-release-2.
source "$(dirname "$0")/../session17/common.sh"
run_suite
TCGEMM_TEST_SMALL=1 run_sanitizers '*SwapABSmall*:*NarrowMidM*:*Multicast*:*Sm90SplitKTilesSmall*:*Sm90PersistentClusterSmall*' $W 100
[ $SECONDS -lt 480 ] && bench_suites cliffs
[ -f $W/bench_cliffs.txt ] && tail -14 $W/bench_cliffs.txt
tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .
