#!/usr/bin/env bash
# Session 37 call 5: main as committed at the session's end (the tall fitting widths removed again:
# src/ and tests/ as at 50a4211): the whole GPU suite, then the cliffs and tall suites through gemm().
source "$(dirname "$0")/../session17/common.sh"
save() { tar -C $W -czf $OUT/$(basename "$0" .sh).tar.gz .; }
run_suite
save
bench_suites cliffs tall
save
for s in cliffs tall; do echo "== $s"; grep -A30 'Best tcgemm' $W/bench_$s.txt | cut -c1-150; done
