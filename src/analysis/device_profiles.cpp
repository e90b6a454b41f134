// The built-in device table: the analyzer's view of a GPU when none is attached.
//
// Sources, per field:
// - SM resources (threads, blocks, registers, shared memory per SM and per block, the 1 KB
//   per-block reservation, allocation granularities): the "Technical Specifications per Compute
//   Capability" table of the CUDA C++ Programming Guide, cross-checked against the per-arch rules
//   in /usr/local/cuda/include/cuda_occupancy.h (CUDA 13.0): 32 blocks/SM on sm_80/90/100,
//   24 on sm_89/120; 2048 threads/SM on sm_80/90/100, 1536 on sm_89/120.
// - SM counts, clocks, L2, DRAM bandwidth, and dense Tensor Core rates: the vendor datasheets and
//   architecture whitepapers named beside each entry. Datasheets quote sparse rates first; every
//   rate here is the dense one (half the sparse figure).
// - L2 sizes are what cudaGetDeviceProperties reports (MiB), which is what the datasheets mean by
//   "MB" (H100/H200: 50 MiB, A100: 40 MiB).
#include <array>
#include <string>
#include <utility>

#include "tcgemm/device.hpp"

namespace tcgemm {
namespace {

constexpr int64_t KiB = 1024;
constexpr int64_t MiB = 1024 * 1024;

// The per-compute-capability part of a profile: everything the occupancy rules read.
DeviceProfile arch_sm80() {
  DeviceProfile d;
  d.cc_major = 8; d.cc_minor = 0;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.smem_per_sm = 164 * KiB;
  d.smem_per_block_optin = 163 * KiB;
  return d;
}

DeviceProfile arch_sm89() {
  DeviceProfile d;
  d.cc_major = 8; d.cc_minor = 9;
  d.max_threads_per_sm = 1536;
  d.max_blocks_per_sm = 24;
  d.smem_per_sm = 100 * KiB;
  d.smem_per_block_optin = 99 * KiB;
  return d;
}

DeviceProfile arch_sm90() {
  DeviceProfile d;
  d.cc_major = 9; d.cc_minor = 0;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.smem_per_sm = 228 * KiB;
  d.smem_per_block_optin = 227 * KiB;
  return d;
}

DeviceProfile arch_sm100() {
  DeviceProfile d = arch_sm90();  // same SM resource limits as Hopper
  d.cc_major = 10; d.cc_minor = 0;
  return d;
}

DeviceProfile arch_sm120() {
  DeviceProfile d = arch_sm89();  // consumer Blackwell keeps Ada's SM resource limits
  d.cc_major = 12; d.cc_minor = 0;
  return d;
}

DeviceProfile make(DeviceProfile arch, std::string name, std::string description, int sms,
                   int64_t l2, double boost_mhz, double bandwidth_gbs, PeakRates peak) {
  arch.name = std::move(name);
  arch.description = std::move(description);
  arch.sm_count = sms;
  arch.l2_bytes = l2;
  arch.boost_clock_mhz = boost_mhz;
  arch.mem_bandwidth_gbs = bandwidth_gbs;
  arch.peak = peak;
  return arch;
}

// Measured sustained clock under the cap (DeviceProfile::sustained_clock_mhz).
DeviceProfile with_sustained_clock(DeviceProfile d, double mhz) {
  d.sustained_clock_mhz = mhz;
  return d;
}

// Measured plain-stream model (DeviceProfile::stream_tbps, stream_fixed_us).
DeviceProfile with_stream(DeviceProfile d, double tbps, double fixed_us) {
  d.stream_tbps = tbps;
  d.stream_fixed_us = fixed_us;
  return d;
}

std::array<DeviceProfile, 8> build_table() {
  return {
      // NVIDIA H100 Tensor Core GPU datasheet (SXM5 column) and the H100 whitepaper
      // (132 SMs, 1980 MHz max boost, 50 MB L2).
      make(arch_sm90(), "h100-sxm", "NVIDIA H100 SXM5 (80 GB HBM3)", 132, 50 * MiB, 1980, 3350,
           {.fp64_tc = 67, .tf32 = 494.7, .fp16 = 989.4, .fp8 = 1978.9, .int8 = 1978.9,
            .fp32_simt = 67}),
      // H100 datasheet (PCIe column): 114 SMs, 1755 MHz boost, 2.0 TB/s HBM2e.
      make(arch_sm90(), "h100-pcie", "NVIDIA H100 PCIe (80 GB HBM2e)", 114, 50 * MiB, 1755, 2000,
           {.fp64_tc = 51, .tf32 = 378, .fp16 = 756, .fp8 = 1513, .int8 = 1513,
            .fp32_simt = 51}),
      // NVIDIA H200 datasheet (SXM column): the H100 die and clocks with 141 GB of HBM3e at
      // 4.8 TB/s, so the same SM count and compute rates as H100 SXM. L2: cudaGetDeviceProperties
      // on an H200 here reported 62,914,560 B (60 MiB), 2026-11-29.
      // Sustained: 1519-1526 MHz at 657-667 W over 2.5 s of 4096^3 bf16, ours and cuBLAS's kernel
      // alike, 700 W cap (bench/NOTES.md, run 48).
      // The stream model: `tcgemm bandwidth` reads of 32, 134 and 470 MB at 4 CTAs a SM on the
      // H200 here (bench/NOTES.md, run 109): 3.8 us + bytes / 4.56 TB/s.
      with_stream(with_sustained_clock(make(arch_sm90(), "h200", "NVIDIA H200 SXM (141 GB HBM3e)", 132, 60 * MiB, 1980,
                                            4800,
                                            {.fp64_tc = 67, .tf32 = 494.7, .fp16 = 989.4, .fp8 = 1978.9,
                                             .int8 = 1978.9, .fp32_simt = 67}),
                                       1520),
                  4.56, 3.8),
      // NVIDIA A100 datasheet (80 GB SXM column) and the Ampere whitepaper: 108 SMs, 1410 MHz,
      // 40 MB L2, 2039 GB/s. No FP8 on Ampere.
      make(arch_sm80(), "a100", "NVIDIA A100 SXM (80 GB HBM2e)", 108, 40 * MiB, 1410, 2039,
           {.fp64_tc = 19.5, .tf32 = 156, .fp16 = 312, .fp8 = 0, .int8 = 624,
            .fp32_simt = 19.5}),
      // NVIDIA L40S datasheet: 142 SMs, 2520 MHz boost, 96 MB L2, 864 GB/s GDDR6.
      // Ada has no FP64 Tensor Cores.
      make(arch_sm89(), "l40s", "NVIDIA L40S (48 GB GDDR6)", 142, 96 * MiB, 2520, 864,
           {.fp64_tc = 0, .tf32 = 91.6, .fp16 = 362.05, .fp8 = 733, .int8 = 733,
            .fp32_simt = 91.6}),
      // Ada Lovelace whitepaper, RTX 4090 column: 128 SMs, 2520 MHz boost, 72 MB L2, 1008 GB/s.
      // GeForce runs FP16/FP8 MMA with FP32 accumulation at half the FP16-accumulate rate; our
      // kernels accumulate in FP32, so those are the rates quoted (FP16 165.2, FP8 330.3).
      make(arch_sm89(), "rtx4090", "NVIDIA GeForce RTX 4090 (24 GB GDDR6X)", 128, 72 * MiB, 2520,
           1008,
           {.fp64_tc = 0, .tf32 = 82.6, .fp16 = 165.2, .fp8 = 330.3, .int8 = 660.6,
            .fp32_simt = 82.6}),
      // NVIDIA HGX B200 datasheet, per GPU (1000 W): 148 SMs, 8 TB/s HBM3e. Dense rates are the
      // datasheet's sparse figures halved (TF32 1.1 PF, FP16 2.25 PF, FP8/INT8 4.5 P). FP64 and
      // FP32 follow the later datasheet revision (37 / 75 per GPU; the first one said 40 / 80).
      // The boost clock and L2 size are not on the datasheet and third-party figures disagree;
      // treat them as estimates and prefer a live read on a real B200.
      make(arch_sm100(), "b200", "NVIDIA B200 (180 GB HBM3e)", 148, 126 * MiB, 1965, 8000,
           {.fp64_tc = 37, .tf32 = 1100, .fp16 = 2250, .fp8 = 4500, .int8 = 4500,
            .fp32_simt = 75}),
      // NVIDIA RTX Blackwell GPU architecture whitepaper, RTX 5090 column: 170 SMs, 2407 MHz
      // boost, 96 MB L2, 1792 GB/s GDDR7; FP16/FP8 with FP32 accumulation, as for the 4090.
      make(arch_sm120(), "rtx5090", "NVIDIA GeForce RTX 5090 (32 GB GDDR7)", 170, 96 * MiB, 2407,
           1792,
           {.fp64_tc = 0, .tf32 = 104.8, .fp16 = 209.5, .fp8 = 419, .int8 = 838,
            .fp32_simt = 104.8}),
  };
}

}  // namespace

std::span<const DeviceProfile> builtin_device_profiles() {
  static const std::array<DeviceProfile, 8> table = build_table();
  return table;
}

const DeviceProfile* find_device_profile(std::string_view name) {
  for (const DeviceProfile& d : builtin_device_profiles())
    if (d.name == name) return &d;
  return nullptr;
}

std::string device_profile_names() {
  std::string out;
  for (const DeviceProfile& d : builtin_device_profiles()) {
    if (!out.empty()) out += ", ";
    out += d.name;
  }
  return out;
}

double peak_tflops(const DeviceProfile& d, DType input) {
  switch (input) {
    case DType::f64: return d.peak.fp64_tc;
    case DType::f32: return d.peak.fp32_simt;
    case DType::tf32: return d.peak.tf32;
    case DType::f16: case DType::bf16: return d.peak.fp16;
    case DType::e4m3: case DType::e5m2: return d.peak.fp8;
    case DType::s8: return d.peak.int8;
    case DType::s32: return 0;  // an accumulator type, never an MMA input
  }
  return 0;
}

}  // namespace tcgemm
