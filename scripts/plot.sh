#!/usr/bin/env bash
# Plots tcgemm bench CSVs (bench/plot_bench.py). matplotlib comes from PyPI into the repo's ignored
# .tools/plot on first use, so nothing system-wide changes and the build and tests never need it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools/plot"
if ! PYTHONPATH="$tools" python3 -c "import matplotlib" 2>/dev/null; then
  echo "[plot] installing matplotlib from PyPI into .tools/plot"
  python3 -m pip install -q --disable-pip-version-check --target "$tools" "matplotlib>=3.8,<4"
fi
PYTHONPATH="$tools" exec python3 "$root/bench/plot_bench.py" "$@"
