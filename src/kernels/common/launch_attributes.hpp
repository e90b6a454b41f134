// Per-function launch attributes, set once per device instead of on every launch: for a small
// GEMM the host-side cost of a launch is comparable to the kernel, and cudaFuncSetAttribute is a
// driver call per launch that can be made once (its cost alone was not measured).
#pragma once

#include "tcgemm/types.hpp"

namespace tcgemm {

// Opts `kernel` into `bytes` of dynamic shared memory on the current device (needed above 48 KiB);
// remembers what it set, so later calls with the same or fewer bytes cost a lookup. Thread-safe.
Status allow_dynamic_smem(const void* kernel, int bytes);

}  // namespace tcgemm
