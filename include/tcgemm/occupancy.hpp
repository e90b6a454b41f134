// The CUDA occupancy rules, reimplemented: how many CTAs of a kernel fit on one SM, and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tcgemm/device.hpp"

namespace tcgemm {

struct KernelResources {
  int threads_per_block = 0;
  int regs_per_thread = 0;
  int64_t static_smem = 0;   // bytes
  int64_t dynamic_smem = 0;  // bytes
  // cudaFuncAttributePreferredSharedMemoryCarveout, percent of the SM's shared memory; -1 is the
  // default (no preference), under which the occupancy rules assume the largest carve-out.
  int carveout_percent = -1;
  // Hardware block barriers the kernel uses (named barriers; __syncthreads alone is 1). 0 means
  // unknown: cudaFuncAttributes does not expose it, so it is only modelled when given.
  int block_barriers = 0;
};

enum class Limiter : uint8_t { registers, shared_memory, threads, blocks, barriers };
std::string_view to_string(Limiter l);

struct Occupancy {
  int ctas_per_sm = 0;
  // The CTAs/SM each resource alone would allow.
  // barriers is 0 when the kernel's barrier count is unknown or the rule does not apply.
  struct Limits { int registers = 0, shared_memory = 0, threads = 0, blocks = 0, barriers = 0; } limits;
  std::vector<Limiter> binding;    // every resource whose own limit equals ctas_per_sm
  bool closed = false;             // more than one binds: freeing one alone cannot raise it
  int registers_per_cta = 0;       // as allocated (per-warp granularity)
  int64_t smem_per_cta = 0;        // as allocated (granularity + per-block reservation)
  int64_t smem_carveout = 0;       // shared memory per SM the rules assumed (the carve-out)
  int active_warps_per_sm = 0;
  double occupancy = 0;            // active warps / max warps per SM
  std::vector<std::string> notes;  // plain-language reading, e.g. the one-CTA/SM consequence
};

// Fails (invalid_argument, message naming the field) for threads outside 1..max_threads_per_block,
// registers outside 1..max_regs_per_thread, shared memory beyond smem_per_block_optin.
Result<Occupancy> compute_occupancy(const DeviceProfile& device, const KernelResources& kernel);

}  // namespace tcgemm
