#include "gpu/gemm_test_util.cuh"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "kernels/common/element.cuh"
#include "runtime/device_reference.hpp"

namespace tcgemm::test {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(const Status& s) {
  if (!s.ok()) throw std::runtime_error(s.to_string());
}

__device__ __forceinline__ uint64_t mix(uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_random_kernel(void* p, int64_t n, DType t, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const uint64_t h = mix(seed * 0x2545f4914f6cdd1dull + static_cast<uint64_t>(i));
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    const float mag = 0.0625f + 0.9375f * u;
    dev::store_from_float(p, i, t, (h & 1) ? -mag : mag);
  }
}

__global__ void fill_value_kernel(void* p, int64_t n, DType t, float v) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x)
    dev::store_from_float(p, i, t, v);
}

unsigned blocks_for(int64_t n) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + 255) / 256, 1, 4096));
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  check(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (p_) (void)cudaFree(p_);
    p_ = o.p_;
    bytes_ = o.bytes_;
    o.p_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}
DeviceBuffer::~DeviceBuffer() {
  if (p_) (void)cudaFree(p_);
}

void fill_random(void* p, int64_t n, DType t, uint64_t seed) {
  fill_random_kernel<<<blocks_for(n), 256>>>(p, n, t, seed);
  check(cudaGetLastError(), "fill_random");
}

void fill_value(void* p, int64_t n, DType t, float v) {
  fill_value_kernel<<<blocks_for(n), 256>>>(p, n, t, v);
  check(cudaGetLastError(), "fill_value");
}

void set_element(void* p, int64_t i, DType t, float v) {
  fill_value_kernel<<<1, 1>>>(static_cast<char*>(p) + i * static_cast<int64_t>(dtype_bytes(t)), 1, t, v);
  check(cudaGetLastError(), "set_element");
}

GemmBuffers::GemmBuffers(const GemmDesc& g, uint64_t seed) {
  const int64_t na = stored_elements(g.a, extent_a(g)), nb = stored_elements(g.b, extent_b(g));
  const int64_t nd = stored_elements(g.d, extent_c(g));
  a = DeviceBuffer(na * dtype_bytes(g.a.dtype));
  b = DeviceBuffer(nb * dtype_bytes(g.b.dtype));
  d = DeviceBuffer(nd * dtype_bytes(g.d.dtype));
  fill_random(a.get(), na, g.a.dtype, seed * 3 + 1);
  fill_random(b.get(), nb, g.b.dtype, seed * 3 + 2);
  if (g.beta != 0.0f) {
    const int64_t nc = stored_elements(g.c, extent_c(g));
    c = DeviceBuffer(nc * dtype_bytes(g.c.dtype));
    fill_random(c.get(), nc, g.c.dtype, seed * 3 + 3);
  }
  fill_value(d.get(), nd, g.d.dtype, std::nanf(""));
}

Tolerance tolerance_for(const GemmDesc& g) {
  double rel = 1e-5, eps = 1e-5, floor = 1e-5;
  switch (g.a.dtype) {
    case DType::bf16: rel = 1e-2; eps = 1e-4; break;
    case DType::f16: rel = 5e-3; eps = 1e-4; break;
    case DType::tf32: rel = 2e-3; eps = 2e-3; floor = 1e-3; break;  // rna vs hardware rounding
    default: break;
  }
  const auto out = [&](DType t) {
    if (t == DType::f16) { rel = std::max(rel, 2e-3); eps = std::max(eps, 1e-3); }
    if (t == DType::bf16) { rel = std::max(rel, 8e-3); eps = std::max(eps, 4e-3); }
  };
  out(g.d.dtype);
  // Accumulation-order differences grow like sqrt(K) times the typical partial sum.
  return {rel, eps, floor * std::sqrt(static_cast<double>(g.k))};
}

std::vector<float> download_d(const GemmDesc& g, const void* D) {
  DeviceBuffer out(static_cast<std::size_t>(g.m * g.n) * sizeof(float));
  check(convert_to_float_device(g, D, static_cast<float*>(out.get())));
  std::vector<float> h(static_cast<std::size_t>(g.m * g.n));
  check(cudaMemcpy(h.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return h;
}

Comparison compare_with_reference(const GemmDesc& g, const void* A, const void* B, const void* C,
                                  const void* D, const Tolerance& tol) {
  DeviceBuffer ref(static_cast<std::size_t>(g.m * g.n) * sizeof(float));
  check(reference_gemm_device(g, A, B, C, static_cast<float*>(ref.get()), false));
  std::vector<float> r(static_cast<std::size_t>(g.m * g.n));
  check(cudaMemcpy(r.data(), ref.get(), ref.bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  const std::vector<float> d = download_d(g, D);

  Comparison c;
  std::ostringstream bad;
  int64_t mismatches = 0;
  double diff2 = 0, ref2 = 0;
  for (int64_t i = 0; i < g.m * g.n; ++i) {
    const double x = d[i], y = r[i];
    const bool x_ok = std::isfinite(x), y_ok = std::isfinite(y);
    bool good;
    if (!x_ok || !y_ok) {
      good = (std::isnan(x) && std::isnan(y)) || (std::isinf(x) && x == y);
    } else {
      good = std::fabs(x - y) <= tol.eps * (std::fabs(x) + std::fabs(y)) + tol.floor;
      diff2 += (x - y) * (x - y);
      ref2 += y * y;
    }
    if (!good && mismatches++ < 8)
      bad << "\n  D(" << i / g.n << "," << i % g.n << ") = " << x << ", reference " << y;
  }
  c.rel_norm = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  // The norm bound carries the elementwise floor too: a few elements whose alpha*AB and beta*C
  // nearly cancel have a tiny reference norm (tests/gpu/test_sm90_wgmma.cu, run 19).
  const double count = static_cast<double>(g.m * g.n);
  c.ok = mismatches == 0 && std::sqrt(diff2) <= tol.rel_norm * std::sqrt(ref2) + tol.floor * std::sqrt(count);
  std::ostringstream msg;
  msg << g.m << "x" << g.n << "x" << g.k << ": relative norm error " << c.rel_norm << " (limit "
      << tol.rel_norm << "), " << mismatches << " elements outside |d-r| <= " << tol.eps
      << "*(|d|+|r|) + " << tol.floor << bad.str();
  c.message = msg.str();
  return c;
}

}  // namespace tcgemm::test
