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

// The launch attribute for clusters of `ctas` CTAs along x.
cudaLaunchAttribute cluster_dim_attribute(unsigned ctas);

// How many clusters of `cluster_ctas` CTAs (along x) of `kernel` can be resident at once on the
// current device with `threads` threads and `smem_bytes` of dynamic shared memory a CTA (a
// cluster needs its CTAs' SMs in one GPC, so this is less than SMs / cluster_ctas where GPCs
// have odd SM counts): the persistent grid. Asked once per device and kernel, then remembered
// (per cluster size). Thread-safe.
Result<int> resident_clusters(const void* kernel, unsigned cluster_ctas, int threads, int smem_bytes);

// SMs of the current device, read once per device; 0 without a device.
int current_device_sm_count();
// The current device's peak DRAM bandwidth in GB/s (dram_peak_gbs of its attributes, as
// live_device_profile reads it), read once per device; 0 without a device.
double current_device_mem_bandwidth_gbs();
// Whether the current device has programmatic dependent launch (sm_90 and newer); cached per device.
bool device_has_pdl();
// The launch attribute that lets a kernel overlap its prologue with the previous kernel's drain
// (its code must call dev::pdl_wait() before touching global memory, common/pdl.cuh).
cudaLaunchAttribute pdl_attribute();

}  // namespace tcgemm
