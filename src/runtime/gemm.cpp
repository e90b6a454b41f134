// gemm(), gemm_with_kernel(), pick_kernel(): validation at the API edge, the real pointer
// alignments, the device's compute capability, then the registry's best supported kernel.
#include "tcgemm/gemm.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <mutex>
#include <string>

#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "runtime/split_autotune.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

Status cuda_status(const char* what, cudaError_t e) {
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

// Compute capability x10 of the current device, read once per device.
Result<int> current_device_sm() {
  static std::array<std::atomic<int>, 64> cache{};
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) {
    (void)cudaGetLastError();
    return Status(StatusCode::no_device, std::string("no CUDA device: ") + cudaGetErrorString(e));
  }
  if (dev >= 0 && dev < static_cast<int>(cache.size()))
    if (int sm = cache[dev].load(std::memory_order_relaxed); sm != 0) return sm;
  int major = 0, minor = 0;
  cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    // cudaGetDevice can succeed with no GPU present; the first real query is where that shows.
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
      return Status(StatusCode::no_device, std::string("no CUDA device: ") + cudaGetErrorString(e));
    return cuda_status("cudaDeviceGetAttribute", e);
  }
  const int sm = major * 10 + minor;
  if (dev >= 0 && dev < static_cast<int>(cache.size())) cache[dev].store(sm, std::memory_order_relaxed);
  return sm;
}

// sm_90a code (wgmma, setmaxnreg, and everything built for sm_90a alone: min_sm 90) runs on
// compute capability 9.0 only; the rest runs on any device at least as new as min_sm.
bool runs_on(const KernelEntry& k, int sm) {
  return k.family == MmaFamily::wgmma || k.min_sm == 90 ? sm == 90 : sm >= k.min_sm;
}

int family_rank(MmaFamily f) {
  switch (f) {
    case MmaFamily::wgmma: return 3;
    case MmaFamily::mma_sync: return 2;
    case MmaFamily::wmma: return 1;
    case MmaFamily::simt: return 0;
  }
  return -1;
}

// A gated entry that outranks the families first (it declined every problem it would lose on);
// then the highest rung that supports the problem, then the entry's preference
// (a shape-specific path over the general kernel), then the larger CTA tile (a tiled kernel over
// its naive sibling), then the deeper pipeline.
bool better(const KernelEntry& x, const KernelEntry& y) {
  if (x.outranks_families != y.outranks_families) return x.outranks_families;
  if (family_rank(x.family) != family_rank(y.family)) return family_rank(x.family) > family_rank(y.family);
  if (x.preference != y.preference) return x.preference > y.preference;
  const int64_t ax = int64_t{x.tile_m} * x.tile_n, ay = int64_t{y.tile_m} * y.tile_n;
  if (ax != ay) return ax > ay;
  return x.stages > y.stages;
}

Result<const KernelEntry*> scan_registry(const GemmDesc& g, int sm) {
  const KernelEntry* best = nullptr;
  for (const KernelEntry& k : kernel_registry()) {
    if (k.input != g.a.dtype || !runs_on(k, sm) || !k.supports || !k.launch) continue;
    if (!k.supports(g).ok()) continue;
    if (!best || better(k, *best)) best = &k;
  }
  if (best) return best;
  // Only now spell out every refusal (building them costs more than the scan).
  std::string reasons;
  for (const KernelEntry& k : kernel_registry())
    if (k.input == g.a.dtype && runs_on(k, sm) && k.supports && k.launch)
      reasons += "\n  " + std::string(k.name) + ": " + k.supports(g).message();
  return Status::unsupported("no kernel for " + std::string(to_string(g.a.dtype)) + " inputs on sm_" +
                             std::to_string(sm) + (reasons.empty() ? std::string(" is registered") : reasons));
}

// What the choice depends on: every field of the desc (with the real pointer alignments), the SM
// version, the device (its SM count sizes the plans), the process-wide split-K override and the
// tuned plans (some entries decline by their plan).
struct ChoiceKey {
  GemmDesc g;
  int sm = 0, device = 0, forced_splits = 0;
  uint64_t tuned = 0;
};

bool same_matrix(const MatrixDesc& x, const MatrixDesc& y) {
  return x.dtype == y.dtype && x.layout == y.layout && x.ld == y.ld && x.pointer_alignment == y.pointer_alignment;
}

bool same_key(const ChoiceKey& x, const ChoiceKey& y) {
  const GemmDesc &a = x.g, &b = y.g;
  return x.sm == y.sm && x.device == y.device && x.forced_splits == y.forced_splits && x.tuned == y.tuned &&
         a.m == b.m && a.n == b.n &&
         a.k == b.k && same_matrix(a.a, b.a) && same_matrix(a.b, b.b) && same_matrix(a.c, b.c) &&
         same_matrix(a.d, b.d) && a.accumulate == b.accumulate &&
         std::bit_cast<uint32_t>(a.alpha) == std::bit_cast<uint32_t>(b.alpha) &&
         std::bit_cast<uint32_t>(a.beta) == std::bit_cast<uint32_t>(b.beta);
}

// The registry scan asks every entry's supports() (some plan split-K or stream-K): ~10 us of host
// time a call for an unaligned 1000x1000x1001 on the build machine, more than the 14 us its kernels
// take on the GPU, so repeated calls on one problem were host-bound (bench/NOTES.md, "gemm()'s
// host time"). The last few choices are kept; a refusal is not.
class ChoiceCache {
 public:
  Result<const KernelEntry*> choose(const GemmDesc& g, int sm) {
    ChoiceKey key{g, sm, 0, forced_split_k(), tuned_split_plans_generation()};
    if (cudaGetDevice(&key.device) != cudaSuccess) {
      (void)cudaGetLastError();
      key.device = -1;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int i = 0; i < used_; ++i)
        if (same_key(slots_[i].key, key)) return slots_[i].entry;
    }
    Result<const KernelEntry*> k = scan_registry(g, sm);
    if (k.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      slots_[next_] = {key, *k};
      next_ = (next_ + 1) % kSlots;
      used_ = std::min(used_ + 1, kSlots);
    }
    return k;
  }

 private:
  static constexpr int kSlots = 32;
  struct Slot {
    ChoiceKey key;
    const KernelEntry* entry = nullptr;
  };
  std::mutex mutex_;
  std::array<Slot, kSlots> slots_{};
  int used_ = 0, next_ = 0;
};

Result<const KernelEntry*> choose(const GemmDesc& g, int sm) {
  static ChoiceCache* cache = new ChoiceCache;  // never destroyed, like the workspace
  return cache->choose(g, sm);
}

// First byte past the last element of an operand, for the aliasing check.
std::uintptr_t end_of(const void* p, const MatrixDesc& m, StoredExtent e) {
  return reinterpret_cast<std::uintptr_t>(p) +
         static_cast<std::uintptr_t>(stored_elements(m, e) * static_cast<int64_t>(dtype_bytes(m.dtype)));
}

bool overlaps(const void* p, std::uintptr_t p_end, const void* q, std::uintptr_t q_end) {
  const auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(q);
  return a < q_end && b < p_end;
}

// Everything gemm() and gemm_with_kernel() check before a kernel sees the problem; returns the
// desc with each operand's pointer_alignment lowered to what its real address provides.
Result<GemmDesc> prepare(const GemmDesc& desc, const void* A, const void* B, const void* C, void* D) {
  if (Status s = validate(desc); !s.ok()) return s;
  if (!A || !B || !D) return Status::invalid("A, B and D must not be null");
  if (desc.beta != 0.0f && !C) return Status::invalid("C must not be null when beta != 0");
  const std::uintptr_t d_end = end_of(D, desc.d, extent_c(desc));
  if (overlaps(D, d_end, A, end_of(A, desc.a, extent_a(desc))))
    return Status::invalid("D overlaps A; D must not alias A or B");
  if (overlaps(D, d_end, B, end_of(B, desc.b, extent_b(desc))))
    return Status::invalid("D overlaps B; D must not alias A or B");
  GemmDesc g = desc;
  g.a.pointer_alignment = std::min(g.a.pointer_alignment, address_alignment(A));
  g.b.pointer_alignment = std::min(g.b.pointer_alignment, address_alignment(B));
  if (C) g.c.pointer_alignment = std::min(g.c.pointer_alignment, address_alignment(C));
  g.d.pointer_alignment = std::min(g.d.pointer_alignment, address_alignment(D));
  return g;
}

// One grow-only workspace per device, shared by every call on it. Growing waits for the device so
// no kernel still reads the old buffer; calls from several host threads are serialized here only
// while the pointer is handed out, so concurrent streams must not share it (documented in gemm.hpp).
class Workspace {
 public:
  Result<void*> get(std::size_t bytes) {
    int dev = 0;
    if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return cuda_status("cudaGetDevice", e);
    if (dev < 0 || dev >= kMaxDevices) return Status(StatusCode::internal, "device ordinal out of range");
    std::lock_guard<std::mutex> lock(mutex_);
    Slot& s = slots_[dev];
    if (s.bytes >= bytes) return s.ptr;
    if (s.ptr) {
      if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_status("workspace: sync", e);
      if (cudaError_t e = cudaFree(s.ptr); e != cudaSuccess) return cuda_status("workspace: cudaFree", e);
      s = Slot{};
    }
    // Round up so a sweep of growing shapes does not reallocate at every step.
    const std::size_t want = std::max<std::size_t>(bytes + bytes / 4, std::size_t{1} << 20);
    if (cudaError_t e = cudaMalloc(&s.ptr, want); e != cudaSuccess) {
      (void)cudaGetLastError();
      return Status(StatusCode::workspace_too_small,
                    "could not allocate a " + std::to_string(want) + "-byte workspace: " + cudaGetErrorString(e));
    }
    s.bytes = want;
    return s.ptr;
  }

 private:
  static constexpr int kMaxDevices = 64;
  struct Slot { void* ptr = nullptr; std::size_t bytes = 0; };
  std::mutex mutex_;
  std::array<Slot, kMaxDevices> slots_{};
};

Workspace& workspace() {
  static Workspace* w = new Workspace;  // never destroyed: freeing at exit races the CUDA runtime's teardown
  return *w;
}

Status run(const KernelEntry& k, const GemmDesc& g, const void* A, const void* B, const void* C,
           void* D, cudaStream_t stream) {
  GemmArgs args;
  if (k.workspace_bytes)
    if (const std::size_t need = k.workspace_bytes(g); need != 0) {
      Result<void*> ws = workspace().get(need);
      if (!ws.ok()) return ws.status();
      args.workspace = *ws;
      args.workspace_bytes = need;
    }
  args.desc = g;
  args.a = A;
  args.b = B;
  args.c = C;
  args.d = D;
  args.stream = stream;
  return k.launch(args);
}

}  // namespace

Status gemm(const GemmDesc& desc, const void* A, const void* B, const void* C, void* D,
            cudaStream_t stream) {
  Result<GemmDesc> g = prepare(desc, A, B, C, D);
  if (!g.ok()) return g.status();
  Result<int> sm = current_device_sm();
  if (!sm.ok()) return sm.status();
  Result<const KernelEntry*> k = choose(*g, *sm);
  if (!k.ok()) return k.status();
  // Autotuning (tcgemm/tuning.hpp), off by default: a plan it adds changes the table's generation,
  // so the choice is made again under it.
  if (split_autotune_wanted(**k, *g)) {
    if (Status s = split_autotune_run(*g, A, B, C, stream); !s.ok()) return s;
    k = choose(*g, *sm);
    if (!k.ok()) return k.status();
  }
  return run(**k, *g, A, B, C, D, stream);
}

Status gemm_with_kernel(std::string_view kernel_name, const GemmDesc& desc, const void* A,
                        const void* B, const void* C, void* D, cudaStream_t stream) {
  const KernelEntry* k = find_kernel(kernel_name);
  if (!k) return Status::invalid("no kernel named '" + std::string(kernel_name) + "' (see `tcgemm kernels`)");
  Result<GemmDesc> g = prepare(desc, A, B, C, D);
  if (!g.ok()) return g.status();
  Result<int> sm = current_device_sm();
  if (!sm.ok()) return sm.status();
  if (!runs_on(*k, *sm))
    return Status::unsupported(std::string(k->name) + " needs sm_" + std::to_string(k->min_sm) +
                               (k->family == MmaFamily::wgmma ? " exactly" : " or newer") +
                               ", device is sm_" + std::to_string(*sm));
  if (!k->supports || !k->launch) return Status(StatusCode::internal, std::string(k->name) + " is incomplete");
  if (Status s = k->supports(*g); !s.ok()) return s;
  return run(*k, *g, A, B, C, D, stream);
}

Result<std::string_view> pick_kernel(const GemmDesc& desc) {
  if (Status s = validate(desc); !s.ok()) return s;
  // Without a GPU (reports on a build machine) answer for the project's target, the H200.
  Result<int> sm = current_device_sm();
  Result<const KernelEntry*> k = choose(desc, sm.ok() ? *sm : 90);
  if (!k.ok()) return k.status();
  return (*k)->name;
}

}  // namespace tcgemm
