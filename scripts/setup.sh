#!/usr/bin/env bash
# Installs what tcgemm builds against, from Debian's packages. Safe to run again.
set -euo pipefail
need=()
for p in cmake g++ make libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if ((${#need[@]})); then
  echo "[setup] installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "[setup] nvcc not found: install the CUDA toolkit 13.0 (nvcc, cuBLAS) first" >&2; exit 1; }
