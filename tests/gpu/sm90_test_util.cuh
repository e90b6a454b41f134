// Helpers shared by the sm90 test files: a seeded device fill, an owning device buffer, and the
// element count of a strided operand. Each test file gets its own copy (anonymous namespace).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "kernels/common/element.cuh"
#include "tcgemm/problem.hpp"

namespace tcgemm {
namespace {

__device__ uint32_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

// Uniform in [-1, 1], never exactly zero everywhere; a fresh seed per call.
__global__ void fill_uniform(void* p, int64_t count, DType t, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count; i += int64_t{gridDim.x} * blockDim.x) {
    const float u = (mix(seed * 0x9e3779b97f4a7c15ULL + i) >> 8) * (1.0f / 16777216.0f);
    dev::store_from_float(p, i, t, 2.0f * u - 1.0f);
  }
}

struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(size_t bytes) { (void)cudaMalloc(&p, std::max<size_t>(bytes, 16)); }
  ~DeviceBuffer() { if (p) (void)cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

size_t stored_elements(StoredExtent e, Layout l, int64_t ld) {
  return static_cast<size_t>(l == Layout::row ? e.rows : e.cols) * static_cast<size_t>(ld);
}

uint64_t next_seed() {
  static uint64_t s = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return ++s;
}

void fill(void* p, size_t count, DType t) {
  fill_uniform<<<256, 256>>>(p, static_cast<int64_t>(count), t, next_seed());
}

struct Shape { int64_t m, n, k; };

// bf16 TN with tight ld's and a row-major bf16 C and D: the problems of the bench suites.
[[maybe_unused]] GemmDesc tn_bf16(int64_t m, int64_t n, int64_t k) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = {DType::bf16, Layout::row, k};
  g.b = {DType::bf16, Layout::column, k};
  g.d = {DType::bf16, Layout::row, n};
  g.c = g.d;
  return g;
}

}  // namespace
}  // namespace tcgemm
