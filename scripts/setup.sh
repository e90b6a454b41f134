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
# cuobjdump (for the SASS checks) is not in every CUDA install; PyPI's nvidia-cuda-cuobjdump
# brings it. Installed into the repo's ignored .tools/ so nothing system-wide changes.
if ! command -v cuobjdump >/dev/null && [ ! -x /usr/local/cuda/bin/cuobjdump ]; then
  tools="$(cd "$(dirname "$0")/.." && pwd)/.tools/py"
  if [ ! -x "$tools/nvidia/cu13/bin/cuobjdump" ]; then
    echo "[setup] installing cuobjdump from PyPI into .tools/"
    python3 -m pip install -q --disable-pip-version-check --target "$tools" \
      "nvidia-cuda-cuobjdump>=13,<14" "nvidia-cuda-nvdisasm>=13,<14" || echo "[setup] cuobjdump unavailable: SASS tests will skip"
  fi
fi
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "[setup] nvcc not found: install the CUDA toolkit 13.0 (nvcc, cuBLAS) first" >&2; exit 1; }
