// The device profile of the GPU actually present, read through the CUDA runtime.
#include <cuda_runtime_api.h>

#include <string>
#include <string_view>

#include "tcgemm/device.hpp"

namespace tcgemm {
namespace {

Status cuda_failure(cudaError_t e, std::string_view what) {
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

// Rates are not something the runtime reports, so they come from the built-in profile of the
// same part: by product name first (an H200 and an H100 share sm_90 but not their bandwidth),
// then by exact compute capability. nullptr when nothing is close.
const DeviceProfile* closest_builtin(std::string_view device_name, int major, int minor) {
  const auto has = [&](std::string_view s) { return device_name.find(s) != std::string_view::npos; };
  const char* by_name = nullptr;
  if (has("H200")) by_name = "h200";
  else if (has("H100") && has("PCIe")) by_name = "h100-pcie";
  else if (has("H100")) by_name = "h100-sxm";
  else if (has("A100")) by_name = "a100";
  else if (has("L40S")) by_name = "l40s";
  else if (has("4090")) by_name = "rtx4090";
  else if (has("B200")) by_name = "b200";
  else if (has("5090")) by_name = "rtx5090";
  if (by_name != nullptr) {
    const DeviceProfile* d = find_device_profile(by_name);
    if (d != nullptr && d->cc_major == major && d->cc_minor == minor) return d;
  }
  for (const DeviceProfile& d : builtin_device_profiles())
    if (d.cc_major == major && d.cc_minor == minor) return &d;
  return nullptr;
}

}  // namespace

Result<DeviceProfile> live_device_profile(int ordinal) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();  // a missing driver leaves a sticky-looking error; clear it
    return Status(StatusCode::no_device, "no CUDA GPU is present; pass --device=<" +
                                             device_profile_names() + "> to analyze without one");
  }
  if (ordinal < 0 || ordinal >= count)
    return Status::invalid("--device=" + std::to_string(ordinal) + " is out of range: " +
                           std::to_string(count) + " CUDA device(s) present");

  cudaDeviceProp p{};
  if (cudaError_t e = cudaGetDeviceProperties(&p, ordinal); e != cudaSuccess)
    return cuda_failure(e, "cudaGetDeviceProperties");

  // CUDA 13 dropped clockRate and memoryClockRate from cudaDeviceProp; the attributes remain.
  int clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  if (cudaError_t e = cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, ordinal); e != cudaSuccess)
    return cuda_failure(e, "cudaDeviceGetAttribute(ClockRate)");
  if (cudaError_t e = cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal);
      e != cudaSuccess)
    return cuda_failure(e, "cudaDeviceGetAttribute(MemoryClockRate)");
  if (cudaError_t e = cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
      e != cudaSuccess)
    return cuda_failure(e, "cudaDeviceGetAttribute(GlobalMemoryBusWidth)");

  DeviceProfile d;
  d.name = std::string("auto:") + p.name;
  d.description = std::string(p.name) + " (live)";
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.warp_size = p.warpSize;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  d.regs_per_sm = p.regsPerMultiprocessor;
  d.max_regs_per_block = p.regsPerBlock;
  d.smem_per_sm = static_cast<int64_t>(p.sharedMemPerMultiprocessor);
  d.smem_per_block_optin = static_cast<int64_t>(p.sharedMemPerBlockOptin);
  d.smem_reserved_per_block = static_cast<int64_t>(p.reservedSharedMemPerBlock);
  d.l2_bytes = p.l2CacheSize;
  d.boost_clock_mhz = clock_khz / 1000.0;
  d.mem_bandwidth_gbs = dram_peak_gbs(mem_clock_khz, bus_bits);
  d.live = true;

  if (const DeviceProfile* ref = closest_builtin(p.name, p.major, p.minor)) {
    d.peak = ref->peak;
    d.sustained_clock_mhz = ref->sustained_clock_mhz;
    d.stream_tbps = ref->stream_tbps;
    d.stream_fixed_us = ref->stream_fixed_us;
    d.description += ", peak rates from the built-in '" + ref->name + "' profile";
  } else {
    d.description += ", peak rates unknown (no built-in profile of sm_" +
                     std::to_string(p.major * 10 + p.minor) + ")";
  }
  return d;
}

}  // namespace tcgemm
