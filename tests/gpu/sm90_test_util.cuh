// Helpers shared by the sm90 test files: a seeded device fill, an owning device buffer, the
// element count of a strided operand, TN problem builders, shape names, the forced split count
// and the small-case switch. Each test file gets its own copy (anonymous namespace).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernels/common/element.cuh"
#include "kernels/sm90/split_k.hpp"
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

[[maybe_unused]] std::string shape_name(Shape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// A split-K case's test name: "<entry without sm90_wgmma_>_<m>x<n>x<k>_splits<count|auto>".
[[maybe_unused]] std::string split_case_suffix(const char* entry, Shape s, int count) {
  return std::string(entry).substr(std::string("sm90_wgmma_").size()) + "_" + shape_name(s) + "_splits" +
         (count == 0 ? std::string("auto") : std::to_string(count));
}

[[maybe_unused]] int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

// A TN problem with row-major D (the input type; f32 for tf32), lds padded to TMA's 16 bytes
// (8 16-bit or 4 f32 elements) plus `extra` (B: twice that), beta = 0.
[[maybe_unused]] GemmDesc tn_problem(DType input, Shape s, int64_t extra = 0, float alpha = 1.0f) {
  const DType out = input == DType::tf32 ? DType::f32 : input;
  const int64_t in16 = 16 / static_cast<int64_t>(dtype_bytes(input));
  const int64_t d16 = 16 / static_cast<int64_t>(dtype_bytes(out));
  GemmDesc g;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.a = {input, Layout::row, round_up(s.k, in16) + extra};
  g.b = {input, Layout::column, round_up(s.k, in16) + 2 * extra};
  g.d = {out, Layout::row, round_up(s.n, d16) + extra};
  g.c = g.d;
  g.alpha = alpha;
  g.beta = 0.0f;
  return g;
}

// Args for a launch on device buffers (C unused: beta = 0), for the status tests.
[[maybe_unused]] GemmArgs device_args(const GemmDesc& g, void* a, void* b, void* d, void* workspace,
                                      std::size_t workspace_bytes) {
  return GemmArgs{.desc = g, .a = a, .b = b, .d = d, .workspace = workspace, .workspace_bytes = workspace_bytes};
}

// Restores the automatic split count however the test ends.
struct ForcedSplits {
  explicit ForcedSplits(int s) { set_forced_split_k(s); }
  ~ForcedSplits() { set_forced_split_k(0); }
  ForcedSplits(const ForcedSplits&) = delete;
  ForcedSplits& operator=(const ForcedSplits&) = delete;
};

// What a case writes, varied by its index: D's and C's dtypes (from outs) and layouts, D's ld
// (tight or tight + 3), alpha (1 or 1.25) and beta (0 or 0.5). M, N and K must be set.
[[maybe_unused]] void vary_epilogue(GemmDesc& g, int variant, const DType (&outs)[3]) {
  g.d = {outs[variant % 3], variant % 2 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (variant % 4 == 3 ? 3 : 0);
  g.c = {outs[(variant + 1) % 3], variant % 4 < 2 ? Layout::row : Layout::column, 0};
  g.alpha = variant % 2 ? 1.0f : 1.25f;
  g.beta = variant % 3 == 2 ? 0.0f : 0.5f;
}

// The misaligned-path tests' problem: M x N x K of `in` with these A/B layouts; the test sets the
// ld's and alignments, vary_epilogue the rest.
[[maybe_unused]] GemmDesc ab_problem(DType in, Shape s, Layout a, Layout b) {
  GemmDesc g;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.a = {in, a, 0};
  g.b = {in, b, 0};
  return g;
}

// The two misalignments of the misaligned-path tests: odd ld's (tight + 1 where tight is even, so
// never a multiple of 8), or tight ld's with A's and B's base pointers 2 bytes off. Returns the
// offset run_and_check / check_misaligned_case put the bases at.
[[maybe_unused]] size_t misalign_ab(GemmDesc& g, bool odd_ld) {
  auto ld_of = [&](StoredExtent e, Layout l) {
    const int64_t t = tight_ld(e, l);
    return odd_ld && t % 2 == 0 ? t + 1 : t;
  };
  g.a.ld = ld_of(extent_a(g), g.a.layout);
  g.b.ld = ld_of(extent_b(g), g.b.layout);
  g.a.pointer_alignment = g.b.pointer_alignment = odd_ld ? 256 : 2;
  return odd_ld ? 0 : 2;
}

// TCGEMM_TEST_SMALL=1 (the compute-sanitizer runs) keeps only the small cases.
[[maybe_unused]] bool small_only() {
  const char* v = std::getenv("TCGEMM_TEST_SMALL");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace
}  // namespace tcgemm
