#!/usr/bin/env bash
# The main job: install, build, then profile the default shapes against cuBLAS on a GPU,
# or explain the default shape where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec ./build/tcgemm main "$@"
