// Per-function launch attributes, set once per device instead of on every launch: for a small
// GEMM the host-side cost of a launch is comparable to the kernel, and cudaFuncSetAttribute is a
// driver call per launch that can be made once (its cost alone was not measured).
#pragma once

#include <cuda_runtime_api.h>

#include "tcgemm/types.hpp"

namespace tcgemm {

// Opts `kernel` into `bytes` of dynamic shared memory on the current device (needed above 48 KiB);
// remembers what it set, so later calls with the same or fewer bytes cost a lookup. Thread-safe.
Status allow_dynamic_smem(const void* kernel, int bytes);

// Whether the current device has programmatic dependent launch (sm_90 and newer); cached per device.
bool device_has_pdl();
// The launch attribute that lets a kernel overlap its prologue with the previous kernel's drain
// (its code must call dev::pdl_wait() before touching global memory, common/pdl.cuh).
cudaLaunchAttribute pdl_attribute();

}  // namespace tcgemm
