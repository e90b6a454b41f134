#!/usr/bin/env bash
# Strips and compresses the binaries built here into .device/gz (the device tool's carry limit is
# 64 MiB; the two unstripped binaries are ~90 MB, compressed ~24 MB).
set -euo pipefail
cd "$(dirname "$0")/../../.."
mkdir -p .device/gz
for b in tcgemm tcgemm_gpu_tests; do
  strip -o .device/$b build/$b
  gzip -c .device/$b > .device/gz/$b.gz
  rm .device/$b
done
ls -la .device/gz
