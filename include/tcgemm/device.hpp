// Device profiles: what the analyzer needs to know about a GPU, built in or read live.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tcgemm/types.hpp"

namespace tcgemm {

// Dense (no sparsity) peak rates in TFLOP/s (TOP/s for int8), datasheet values at boost clock.
struct PeakRates {
  double fp64_tc = 0;    // FP64 on Tensor Cores (0 where there are none)
  double tf32 = 0;
  double fp16 = 0;       // FP16 and BF16 inputs, FP32 accumulation
  double fp8 = 0;        // E4M3/E5M2 (0 where unsupported)
  double int8 = 0;
  double fp32_simt = 0;  // plain FFMA on the CUDA cores
};

struct DeviceProfile {
  std::string name;         // key used by --device: "h200", "h100-sxm", ...
  std::string description;  // "NVIDIA H200 SXM (141 GB HBM3e)"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int warp_size = 32;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 1024;
  int max_blocks_per_sm = 0;
  int regs_per_sm = 65536;
  int max_regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_unit = 256;         // registers are granted per warp in units of this many
  int warp_alloc_granularity = 4;   // warps are counted in groups of this for register allocation
  int64_t smem_per_sm = 0;          // bytes of shared memory per SM at the largest carve-out
  int64_t smem_per_block_optin = 0; // max dynamic + static per block after cudaFuncSetAttribute
  int64_t smem_reserved_per_block = 1024;  // the runtime's per-block reservation (sm_80+)
  int64_t smem_alloc_unit = 128;    // shared memory granularity (bytes)
  int64_t l2_bytes = 0;
  double boost_clock_mhz = 0;
  // SM clock measured under sustained dense Tensor Core load at the board's power cap; 0 where
  // not measured. Below the boost clock, a partial last wave runs faster than a full one (its
  // idle SMs leave power to the busy ones), which the time model charges (time_model.cpp).
  double sustained_clock_mhz = 0;
  double mem_bandwidth_gbs = 0;     // datasheet DRAM bandwidth, GB/s
  // What a plain read stream reached on this board, timed as `profile` times a GEMM (`tcgemm
  // bandwidth`): stream_fixed_us + bytes / stream_tbps. 0 where not measured.
  double stream_tbps = 0, stream_fixed_us = 0;
  PeakRates peak;
  bool live = false;                // true when read from cudaGetDeviceProperties
};

// Peak DRAM bandwidth in GB/s from the runtime's memory clock (kHz) and bus width (bits): the bus
// transfers twice per clock (DDR), so 2 x clock x width. HBM parts report this close to the
// datasheet figure (H200 4814, H100 SXM 3352).
constexpr double dram_peak_gbs(int mem_clock_khz, int bus_bits) {
  return 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

// The built-in table: h100-sxm, h100-pcie, h200, a100, l40s, rtx4090, b200, rtx5090.
std::span<const DeviceProfile> builtin_device_profiles();
// nullptr when the name is unknown.
const DeviceProfile* find_device_profile(std::string_view name);
// Comma-separated list of built-in names, for error messages.
std::string device_profile_names();
// Peak dense Tensor Core rate for these input types (SIMT rate for plain f32), TFLOP/s.
double peak_tflops(const DeviceProfile& d, DType input);

// Reads the live GPU through the CUDA runtime (rates from the closest built-in profile).
// Defined in the GPU library (src/runtime); no_device when none is present.
Result<DeviceProfile> live_device_profile(int ordinal = 0);

}  // namespace tcgemm
