// The CUDA occupancy rules, as cudaOccupancyMaxActiveBlocksPerMultiprocessor applies them on
// sm_80 and later (the rules are spelled out in CUDA's cuda_occupancy.h; this is our own
// implementation of them, checked against the runtime by tests/gpu/test_occupancy_gpu.cu).
#include "tcgemm/occupancy.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <string>

namespace tcgemm {

std::string_view to_string(Limiter l) {
  switch (l) {
    case Limiter::registers: return "registers";
    case Limiter::shared_memory: return "shared memory";
    case Limiter::threads: return "threads";
    case Limiter::blocks: return "blocks";
    case Limiter::barriers: return "barriers";
  }
  return "?";
}

namespace {

constexpr int64_t KiB = 1024;

// Each SM's register file is split evenly over its four sub-partitions (warp schedulers), and
// a warp's registers all come from one of them: a warp that does not fit in what a
// sub-partition has left cannot use the remainder of another.
constexpr int kSubPartitions = 4;

int64_t round_up(int64_t x, int64_t unit) { return (x + unit - 1) / unit * unit; }
int64_t div_up(int64_t x, int64_t unit) { return (x + unit - 1) / unit; }

// The L1/shared split is not continuous: the SM offers a fixed ladder of shared memory sizes
// and a requested carve-out is rounded up to the next rung. The rungs are the same on every
// architecture from sm_80 on; each part stops at its own maximum (164 KB on sm_80, 100 KB on
// sm_86/89/120, 228 KB on sm_90/100).
int64_t round_up_to_carveout(int64_t bytes, int64_t smem_per_sm) {
  static constexpr std::array<int64_t, 10> rungs_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  for (int64_t kib : rungs_kib)
    if (kib * KiB >= bytes && kib * KiB <= smem_per_sm) return kib * KiB;
  return smem_per_sm;
}

int warps_per_cta(const DeviceProfile& d, int threads) {
  return static_cast<int>(div_up(threads, d.warp_size));
}

int64_t regs_per_warp(const DeviceProfile& d, int regs_per_thread) {
  return round_up(int64_t{regs_per_thread} * d.warp_size, d.reg_alloc_unit);
}

// CTAs/SM the register file allows, or 0 when one CTA can never launch.
int register_limit(const DeviceProfile& d, int threads, int regs_per_thread) {
  const int warps = warps_per_cta(d, threads);
  const int64_t per_warp = regs_per_warp(d, regs_per_thread);
  // The launch check assumes every sub-partition receives the same number of the CTA's warps,
  // so a CTA's warp count is rounded up to a multiple of four before the per-block cap.
  const int64_t assumed = per_warp * round_up(warps, d.warp_alloc_granularity);
  if (assumed > d.max_regs_per_block || per_warp * warps > d.max_regs_per_block) return 0;
  const int64_t warps_per_partition = (d.regs_per_sm / kSubPartitions) / per_warp;
  return static_cast<int>(warps_per_partition * kSubPartitions / warps);
}

int64_t smem_allocated(const DeviceProfile& d, int64_t static_smem, int64_t dynamic_smem) {
  return round_up(static_smem + dynamic_smem + d.smem_reserved_per_block, d.smem_alloc_unit);
}

// The shared memory per SM the rules assume: the preferred carve-out when a CTA fits in it,
// otherwise the smallest carve-out that holds one CTA. Without a preference the full size.
int64_t carveout_bytes(const DeviceProfile& d, int carveout_percent, int64_t per_cta) {
  if (carveout_percent < 0) return d.smem_per_sm;
  const int64_t preferred = round_up_to_carveout(carveout_percent * d.smem_per_sm / 100, d.smem_per_sm);
  if (preferred >= per_cta) return preferred;
  return round_up_to_carveout(per_cta, d.smem_per_sm);
}

int smem_limit(const DeviceProfile& d, int64_t per_cta, int64_t carveout) {
  if (per_cta > d.smem_per_block_optin + d.smem_reserved_per_block) return 0;
  return static_cast<int>(carveout / per_cta);
}

// Hopper and later only: each CTA slot comes with a fixed number of hardware barriers
// (two per slot on sm_90/sm_100, one on the parts with the smaller SM).
int barrier_limit(const DeviceProfile& d, int barriers) {
  if (d.cc_major < 9 || barriers <= 0) return 0;
  const bool one_per_slot = d.max_blocks_per_sm < 32;
  const int available = d.max_blocks_per_sm * (one_per_slot ? 1 : 2);
  return available / barriers;
}

Status check_device(const DeviceProfile& d) {
  const auto bad = [&](std::string_view field) {
    return Status::invalid("device profile '" + d.name + "' has no usable " + std::string(field));
  };
  if (d.cc_major < 8) return Status::unsupported("occupancy rules are implemented for sm_80 and "
                                                 "later; '" + d.name + "' is sm_" +
                                                 std::to_string(d.cc_major * 10 + d.cc_minor));
  if (d.warp_size <= 0) return bad("warp_size");
  if (d.max_threads_per_sm <= 0) return bad("max_threads_per_sm");
  if (d.max_threads_per_block <= 0) return bad("max_threads_per_block");
  if (d.max_blocks_per_sm <= 0) return bad("max_blocks_per_sm");
  if (d.regs_per_sm <= 0) return bad("regs_per_sm");
  if (d.max_regs_per_block <= 0) return bad("max_regs_per_block");
  if (d.max_regs_per_thread <= 0) return bad("max_regs_per_thread");
  if (d.reg_alloc_unit <= 0) return bad("reg_alloc_unit");
  if (d.warp_alloc_granularity <= 0) return bad("warp_alloc_granularity");
  if (d.smem_per_sm <= 0) return bad("smem_per_sm");
  if (d.smem_per_block_optin <= 0) return bad("smem_per_block_optin");
  if (d.smem_alloc_unit <= 0) return bad("smem_alloc_unit");
  if (d.smem_reserved_per_block < 0) return bad("smem_reserved_per_block");
  return {};
}

Status check_kernel(const DeviceProfile& d, const KernelResources& k) {
  const std::string on = " on " + d.name;
  if (k.threads_per_block < 1)
    return Status::invalid("--threads=" + std::to_string(k.threads_per_block) +
                           ": a block needs at least 1 thread");
  if (k.threads_per_block > d.max_threads_per_block)
    return Status::invalid("--threads=" + std::to_string(k.threads_per_block) + " exceeds the " +
                           std::to_string(d.max_threads_per_block) + " threads a block may have" + on);
  if (k.regs_per_thread < 1)
    return Status::invalid("--regs=" + std::to_string(k.regs_per_thread) +
                           ": registers per thread must be at least 1 (take numRegs from "
                           "cudaFuncGetAttributes or ptxas -v)");
  if (k.regs_per_thread > d.max_regs_per_thread)
    return Status::invalid("--regs=" + std::to_string(k.regs_per_thread) + " exceeds the " +
                           std::to_string(d.max_regs_per_thread) + " registers a thread may have" + on);
  if (k.static_smem < 0)
    return Status::invalid("--static-smem=" + std::to_string(k.static_smem) + " is negative");
  if (k.dynamic_smem < 0)
    return Status::invalid("--smem=" + std::to_string(k.dynamic_smem) + " is negative");
  const int64_t total = k.static_smem + k.dynamic_smem;
  if (total > d.smem_per_block_optin)
    return Status::invalid("--smem: " + std::to_string(total) +
                           " bytes of shared memory per block (static " + std::to_string(k.static_smem) +
                           " + dynamic " + std::to_string(k.dynamic_smem) + ") exceeds the " +
                           std::to_string(d.smem_per_block_optin) + " bytes a block may opt into" + on);
  if (k.carveout_percent < -1 || k.carveout_percent > 100)
    return Status::invalid("--carveout=" + std::to_string(k.carveout_percent) +
                           " must be -1 (no preference) or a percentage 0..100");
  if (k.block_barriers < 0 || k.block_barriers > 16)
    return Status::invalid("--barriers=" + std::to_string(k.block_barriers) +
                           " must be 0 (unknown) .. 16 hardware barriers per block");
  return {};
}

// The largest registers/thread that still lets `target` CTAs fit, or 0 when none does.
int max_regs_for(const DeviceProfile& d, int threads, int target) {
  for (int r = d.max_regs_per_thread; r >= 1; --r)
    if (register_limit(d, threads, r) >= target) return r;
  return 0;
}

// The largest static + dynamic shared memory per CTA that still lets `target` CTAs fit.
int64_t max_smem_for(const DeviceProfile& d, int64_t carveout, int target) {
  const int64_t per_cta = carveout / target / d.smem_alloc_unit * d.smem_alloc_unit;
  return std::min(per_cta - d.smem_reserved_per_block, d.smem_per_block_optin);
}

void add_notes(const DeviceProfile& d, const KernelResources& k, Occupancy& o) {
  const std::string n = std::to_string(o.ctas_per_sm);
  if (o.ctas_per_sm == 0) {
    if (o.limits.registers == 0)
      o.notes.push_back("the kernel cannot launch: " + std::to_string(o.registers_per_cta) +
                        " registers per block (" + std::to_string(k.regs_per_thread) + " per thread, " +
                        "allocated per warp in units of " + std::to_string(d.reg_alloc_unit) +
                        ") exceed the " + std::to_string(d.max_regs_per_block) +
                        " a block may hold; use fewer threads or cap registers with __launch_bounds__");
    if (o.limits.shared_memory == 0)
      o.notes.push_back("the kernel cannot launch: a block's shared memory does not fit on one SM");
    return;
  }

  std::string binding;
  for (Limiter l : o.binding) binding += (binding.empty() ? "" : " and ") + std::string(to_string(l));
  o.notes.push_back(n + " CTA" + (o.ctas_per_sm == 1 ? "" : "s") + "/SM, bound by " + binding + "; " +
                    std::to_string(o.active_warps_per_sm) + " of " +
                    std::to_string(d.max_threads_per_sm / d.warp_size) + " warp slots in use");

  if (o.closed) {
    o.notes.push_back("occupancy is closed: " + binding + " each allow only " + n +
                      " CTA" + (o.ctas_per_sm == 1 ? "" : "s") +
                      "/SM, so freeing one of them alone cannot raise it");
  } else {
    const int next = o.ctas_per_sm + 1;
    const Limiter only = o.binding.front();
    if (only == Limiter::registers) {
      const int r = max_regs_for(d, k.threads_per_block, next);
      if (r > 0)
        o.notes.push_back("registers bind: " + std::to_string(k.regs_per_thread) + " per thread x " +
                          std::to_string(k.threads_per_block) + " threads allocates " +
                          std::to_string(o.registers_per_cta) + " per CTA; at most " +
                          std::to_string(r) + " registers/thread would allow " +
                          std::to_string(next) + " CTAs/SM");
    } else if (only == Limiter::shared_memory) {
      const int64_t s = max_smem_for(d, o.smem_carveout, next);
      if (s >= 0)
        o.notes.push_back("shared memory binds: " + std::to_string(o.smem_per_cta) +
                          " bytes allocated per CTA (128-byte units, plus the " +
                          std::to_string(d.smem_reserved_per_block) +
                          "-byte per-block reservation); at most " + std::to_string(s) +
                          " bytes of static + dynamic shared memory would allow " +
                          std::to_string(next) + " CTAs/SM");
    } else if (only == Limiter::threads) {
      o.notes.push_back("the warp slots bind: all " + std::to_string(d.max_threads_per_sm) +
                        " threads of the SM are in use; only smaller blocks, not fewer resources, "
                        "change the CTA count");
    } else if (only == Limiter::blocks) {
      o.notes.push_back("the " + std::to_string(d.max_blocks_per_sm) +
                        "-block limit binds: blocks this small leave warp slots empty; use larger "
                        "blocks");
    }
  }

  if (o.ctas_per_sm == 1)
    o.notes.push_back("one CTA per SM: stage depth is the only latency hiding left; spend shared "
                      "memory on pipeline stages, not on occupancy");
}

}  // namespace

Result<Occupancy> compute_occupancy(const DeviceProfile& device, const KernelResources& kernel) {
  if (Status s = check_device(device); !s.ok()) return s;
  if (Status s = check_kernel(device, kernel); !s.ok()) return s;
  const DeviceProfile& d = device;
  const KernelResources& k = kernel;

  Occupancy o;
  const int warps = warps_per_cta(d, k.threads_per_block);
  o.registers_per_cta = static_cast<int>(regs_per_warp(d, k.regs_per_thread) * warps);
  o.smem_per_cta = smem_allocated(d, k.static_smem, k.dynamic_smem);
  o.smem_carveout = carveout_bytes(d, k.carveout_percent, o.smem_per_cta);

  o.limits.registers = register_limit(d, k.threads_per_block, k.regs_per_thread);
  o.limits.shared_memory = smem_limit(d, o.smem_per_cta, o.smem_carveout);
  o.limits.threads = (d.max_threads_per_sm / d.warp_size) / warps;
  o.limits.blocks = d.max_blocks_per_sm;
  o.limits.barriers = barrier_limit(d, k.block_barriers);
  const bool barriers_apply = d.cc_major >= 9 && k.block_barriers > 0;

  o.ctas_per_sm = std::min({o.limits.registers, o.limits.shared_memory, o.limits.threads,
                            o.limits.blocks, barriers_apply ? o.limits.barriers : INT_MAX});
  if (o.limits.registers == o.ctas_per_sm) o.binding.push_back(Limiter::registers);
  if (o.limits.shared_memory == o.ctas_per_sm) o.binding.push_back(Limiter::shared_memory);
  if (o.limits.threads == o.ctas_per_sm) o.binding.push_back(Limiter::threads);
  if (o.limits.blocks == o.ctas_per_sm) o.binding.push_back(Limiter::blocks);
  if (barriers_apply && o.limits.barriers == o.ctas_per_sm) o.binding.push_back(Limiter::barriers);
  o.closed = o.binding.size() > 1;

  o.active_warps_per_sm = o.ctas_per_sm * warps;
  o.occupancy = static_cast<double>(o.active_warps_per_sm) / (d.max_threads_per_sm / d.warp_size);
  add_notes(d, k, o);
  return o;
}

}  // namespace tcgemm
