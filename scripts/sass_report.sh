#!/usr/bin/env bash
# Registers, spills (local memory), stack and static shared memory per kernel and architecture,
# read from the built library's cubins. Usage: scripts/sass_report.sh [path/to/libtcgemm.a]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
LIB=${1:-${BUILD_DIR:-build}/libtcgemm.a}
[[ -f "$LIB" ]] || { echo "no library at $LIB (build first: scripts/build.sh)" >&2; exit 1; }
command -v cuobjdump >/dev/null || { echo "cuobjdump not found" >&2; exit 1; }
demangle() { if command -v cu++filt >/dev/null; then cu++filt; elif command -v c++filt >/dev/null; then c++filt; else cat; fi; }

# --dump-resource-usage prints, per cubin, "arch = sm_XX" (in the ELF header block) and then
# "Function NAME:" followed by "REG:n STACK:n SHARED:n LOCAL:n ...".
cuobjdump --dump-resource-usage "$LIB" 2>/dev/null | awk '
  /^arch = / { arch = $3 }
  /Function [^ ]+:$/ { fn = $2; sub(/:$/, "", fn); next }
  /REG:/ && fn != "" {
    reg = stack = shared = local = "?"
    for (i = 1; i <= NF; ++i) {
      split($i, kv, ":")
      if (kv[1] == "REG") reg = kv[2]; else if (kv[1] == "STACK") stack = kv[2];
      else if (kv[1] == "SHARED") shared = kv[2]; else if (kv[1] == "LOCAL") local = kv[2]
    }
    printf "%-7s %4s %6s %7s %6s  %s\n", arch, reg, stack, shared, local, fn
    fn = ""
  }' | sort -u -k6 -k1 | demangle | awk 'BEGIN { printf "%-7s %4s %6s %7s %6s  %s\n", "arch", "regs", "stack", "smem", "local", "kernel" } { print }'
echo "(local > 0 means spills to local memory; smem is static only: dynamic shared memory is set at launch)"
