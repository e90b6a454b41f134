#!/usr/bin/env bash
# Run 253's shortest form (prepared in session 42 for its last 299 s, which could not start a
# machine): memcheck x8 on ThreadsStoreD with main c8bf23e's test binary (the ghost barrier; 1-3 of
# 8 stalled before it, run 250), then main's whole GPU suite.
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
TCGEMM_TEST_SMALL=1 memcheck_x tcgemm_gpu_tests_main 8 15 'Sm90PcStreamKSmall.ThreadsStoreD' threads384
save
suite_of tcgemm_gpu_tests_main main
save
