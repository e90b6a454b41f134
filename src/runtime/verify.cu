#include "runtime/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "kernels/common/element.cuh"
#include "runtime/device_reference.hpp"

namespace tcgemm {
namespace {

struct Accum {
  double sum_ref2;
  double sum_diff2;
  unsigned long long finite_refs;
  unsigned long long nan_count;
  unsigned long long failures;
  unsigned int max_rel_bits;  // a non-negative float's bits order like the float
};

constexpr int kThreads = 256;

__device__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

// Pass 1: the norms, and non-finite D where the reference is finite.
__global__ void norms_kernel(const float* d, const float* ref, int64_t count, Accum* acc) {
  double ref2 = 0, diff2 = 0;
  unsigned long long finite = 0, nans = 0;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const float r = ref[i], x = d[i];
    if (!isfinite(r)) continue;
    ++finite;
    ref2 += double(r) * r;
    if (!isfinite(x)) { ++nans; continue; }
    const double e = double(x) - r;
    diff2 += e * e;
  }
  ref2 = warp_sum(ref2);
  diff2 = warp_sum(diff2);
  finite = warp_sum(finite);
  nans = warp_sum(nans);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&acc->sum_ref2, ref2);
    atomicAdd(&acc->sum_diff2, diff2);
    atomicAdd(&acc->finite_refs, finite);
    atomicAdd(&acc->nan_count, nans);
  }
}

// Pass 2: cutlass_profiler's relative rule, with a floor so that entries near zero (from
// cancellation) are judged against the matrix's typical magnitude instead of their own.
__global__ void elementwise_kernel(const float* d, const float* ref, int64_t count, float floor,
                                   float eps, Accum* acc) {
  float worst = 0;
  unsigned long long fails = 0;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const float r = ref[i], x = d[i];
    if (!isfinite(r)) continue;
    float rel;
    if (!isfinite(x)) {
      rel = INFINITY;
    } else {
      rel = fabsf(x - r) / fmaxf(fabsf(x) + fabsf(r), floor);
    }
    worst = fmaxf(worst, rel);
    if (!(rel <= eps)) ++fails;
  }
  worst = warp_max(worst);
  fails = warp_sum(fails);
  if ((threadIdx.x & 31) == 0) {
    atomicMax(&acc->max_rel_bits, __float_as_uint(worst));
    atomicAdd(&acc->failures, fails);
  }
}

__global__ void fill_kernel(void* data, int64_t count, DType t, double lo, double hi,
                            uint64_t seed, int* any_nonzero) {
  bool nonzero = false;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    // splitmix64 of (seed, index): independent of launch shape, so a seed names the data.
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(i) + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0);
    float v = static_cast<float>(lo + u * (hi - lo));
    if (t == DType::tf32) v = dev::round_tf32(v);
    dev::store_from_float(data, i, t, v);
    nonzero |= dev::load_as_double(data, i, t) != 0.0;
  }
  if (__any_sync(0xffffffffu, nonzero) && (threadIdx.x & 31) == 0) atomicExch(any_nonzero, 1);
}

Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::success();
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

unsigned grid_for(int64_t count) {
  return static_cast<unsigned>(std::clamp<int64_t>((count + kThreads - 1) / kThreads, 1, 4096));
}

double tolerance_of(DType t) {
  switch (t) {
    case DType::bf16: return 1e-2;
    case DType::f16: return 5e-3;
    case DType::tf32: return 2e-3;
    case DType::e4m3: return 6e-2;
    case DType::e5m2: return 1.2e-1;
    default: return 1e-5;
  }
}

// Device memory freed on every return path; a failed free has no one left to report to.
struct DeviceBuffer {
  void* p = nullptr;
  ~DeviceBuffer() { if (p) (void)cudaFree(p); }
};

}  // namespace

Tolerance default_tolerance(const GemmDesc& g) {
  const double t = std::max({tolerance_of(g.a.dtype), tolerance_of(g.b.dtype), tolerance_of(g.d.dtype)});
  return {t, std::clamp(5 * t, 1e-4, 0.1)};
}

Tolerance against_rounded_reference(Tolerance t) { return {2 * t.rel_norm, 2 * t.elementwise}; }

Tolerance for_baseline(Tolerance t) { return {t.rel_norm, 3 * t.elementwise}; }

Result<VerifyResult> compare_device(const float* d, const float* ref, int64_t m, int64_t n,
                                    const Tolerance& tol, cudaStream_t stream) {
  const int64_t count = m * n;
  DeviceBuffer buf;
  if (Status s = cuda_status(cudaMalloc(&buf.p, sizeof(Accum)), "verify: cudaMalloc"); !s.ok())
    return s;
  auto* acc = static_cast<Accum*>(buf.p);
  if (Status s = cuda_status(cudaMemsetAsync(acc, 0, sizeof(Accum), stream), "verify: memset");
      !s.ok())
    return s;
  norms_kernel<<<grid_for(count), kThreads, 0, stream>>>(d, ref, count, acc);
  if (Status s = cuda_status(cudaGetLastError(), "verify: norms kernel"); !s.ok()) return s;
  Accum h{};
  if (Status s = cuda_status(cudaMemcpyAsync(&h, acc, sizeof(h), cudaMemcpyDeviceToHost, stream),
                             "verify: copy");
      !s.ok())
    return s;
  if (Status s = cuda_status(cudaStreamSynchronize(stream), "verify: sync"); !s.ok()) return s;

  VerifyResult r;
  if (h.finite_refs == 0) {
    r.message = "reference has no finite element";
    return r;
  }
  const double rms = std::sqrt(h.sum_ref2 / static_cast<double>(h.finite_refs));
  // A tenth of the typical magnitude: loose enough for a near-zero entry whose inputs were
  // rounded differently (tf32 truncation against rounding), tight enough that one element off by
  // half its value fails (the floor at the full RMS let such an element through on the device).
  const float floor = std::max(static_cast<float>(0.1 * rms), 1e-30f);
  elementwise_kernel<<<grid_for(count), kThreads, 0, stream>>>(
      d, ref, count, floor, static_cast<float>(tol.elementwise), acc);
  if (Status s = cuda_status(cudaGetLastError(), "verify: elementwise kernel"); !s.ok()) return s;
  if (Status s = cuda_status(cudaMemcpyAsync(&h, acc, sizeof(h), cudaMemcpyDeviceToHost, stream),
                             "verify: copy");
      !s.ok())
    return s;
  if (Status s = cuda_status(cudaStreamSynchronize(stream), "verify: sync"); !s.ok()) return s;

  r.nan_count = h.nan_count;
  r.failures = h.failures;
  float max_rel;
  static_assert(sizeof(max_rel) == sizeof(h.max_rel_bits));
  std::memcpy(&max_rel, &h.max_rel_bits, sizeof(max_rel));
  r.max_rel = max_rel;
  r.rel_norm = h.sum_ref2 > 0 ? std::sqrt(h.sum_diff2 / h.sum_ref2)
                              : (h.sum_diff2 > 0 ? INFINITY : 0.0);
  if (r.nan_count > 0) r.rel_norm = INFINITY;
  r.passed = r.nan_count == 0 && r.failures == 0 && r.rel_norm <= tol.rel_norm;
  char line[256];
  if (r.passed) {
    std::snprintf(line, sizeof(line), "rel_norm %.2e <= %.1e, max_rel %.2e <= %.1e", r.rel_norm,
                  tol.rel_norm, r.max_rel, tol.elementwise);
  } else {
    std::snprintf(line, sizeof(line),
                  "rel_norm %.2e (tol %.1e), %llu of %lld elements over %.1e (max_rel %.2e), "
                  "%llu NaN/Inf where the reference is finite",
                  r.rel_norm, tol.rel_norm, static_cast<unsigned long long>(r.failures),
                  static_cast<long long>(count), tol.elementwise, r.max_rel,
                  static_cast<unsigned long long>(r.nan_count));
  }
  r.message = line;
  return r;
}

Result<VerifyResult> verify_gemm_output(const GemmDesc& desc, const void* D, const float* ref,
                                        float* scratch, const Tolerance& tol,
                                        cudaStream_t stream) {
  if (Status s = convert_to_float_device(desc, D, scratch, stream); !s.ok()) return s;
  return compare_device(scratch, ref, desc.m, desc.n, tol, stream);
}

Status fill_random_device(void* data, std::size_t count, DType dtype, double lo, double hi,
                          uint64_t seed, cudaStream_t stream) {
  if (!(hi >= lo)) return Status::invalid("random fill: max must be >= min");
  if (count == 0) return Status::success();
  DeviceBuffer flag;
  if (Status s = cuda_status(cudaMalloc(&flag.p, sizeof(int)), "fill: cudaMalloc"); !s.ok())
    return s;
  if (Status s = cuda_status(cudaMemsetAsync(flag.p, 0, sizeof(int), stream), "fill: memset");
      !s.ok())
    return s;
  const auto n = static_cast<int64_t>(count);
  fill_kernel<<<grid_for(n), kThreads, 0, stream>>>(data, n, dtype, lo, hi, seed,
                                                     static_cast<int*>(flag.p));
  if (Status s = cuda_status(cudaGetLastError(), "fill kernel"); !s.ok()) return s;
  int any = 0;
  if (Status s = cuda_status(cudaMemcpyAsync(&any, flag.p, sizeof(any), cudaMemcpyDeviceToHost,
                                             stream),
                             "fill: copy");
      !s.ok())
    return s;
  if (Status s = cuda_status(cudaStreamSynchronize(stream), "fill: sync"); !s.ok()) return s;
  if (!any)
    return Status::invalid("random fill in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                           "] rounded every " + std::string(to_string(dtype)) +
                           " element to zero; widen --dist");
  return Status::success();
}

Status poison_device(void* data, std::size_t bytes, cudaStream_t stream) {
  return cuda_status(cudaMemsetAsync(data, 0xFF, bytes, stream), "poison: memset");
}

}  // namespace tcgemm
