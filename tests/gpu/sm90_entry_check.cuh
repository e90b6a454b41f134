// The check every registry-entry test of the sm90 paths runs: fresh random A/B/C, D and the
// workspace poisoned, the entry's own launch, the device reference, the elementwise and norm
// tolerances, and optionally a second run compared bit for bit (deterministic paths).
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/sm90_test_util.cuh"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

#ifndef CUDA_OK
#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess) << #x << ": " << cudaGetErrorString(cudaGetLastError())
#endif

// D (row-major M x n_cols floats) against the reference r: every element finite and within
// eps * (|d| + |r|) + floor, and the norm of the difference within eps * ||r|| + floor * sqrt(MN).
// The norm bound carries the elementwise floor: a problem of a few elements whose alpha*AB and
// beta*C nearly cancel has a tiny reference norm (tf32 1x1x1 with beta = -0.5 failed a plain
// relative-norm bound once, 2.5e-3 against 2e-3, run 19, its element inside the element bound).
[[maybe_unused]] void expect_close(const std::vector<float>& d, const std::vector<float>& r, int64_t n_cols, double eps,
                                   double floor) {
  double diff2 = 0, ref2 = 0;
  int64_t bad = 0, first_bad = -1;
  for (size_t i = 0; i < r.size(); ++i) {
    const double x = d[i], y = r[i];
    diff2 += (x - y) * (x - y);
    ref2 += y * y;
    const bool ok = std::isfinite(x) && std::fabs(x - y) <= eps * (std::fabs(x) + std::fabs(y)) + floor;
    if (!ok && bad++ == 0) first_bad = static_cast<int64_t>(i);
  }
  EXPECT_EQ(bad, 0) << bad << " of " << r.size() << " elements off; first at (" << first_bad / n_cols << ", "
                    << first_bad % n_cols << "): got " << d[first_bad] << ", want " << r[first_bad];
  EXPECT_LE(std::sqrt(diff2), eps * std::sqrt(ref2) + floor * std::sqrt(static_cast<double>(r.size())))
      << "relative norm error " << std::sqrt(diff2) / std::max(std::sqrt(ref2), 1e-30);
}

// D's ld padding (row-major: columns [N, ld) of each row; column-major: rows [M, ld) of each
// column) must keep the 0xFF poison: it is the caller's memory.
[[maybe_unused]] void expect_padding_untouched(const GemmDesc& g, const void* d) {
  const int64_t ld = effective_ld(g.d, extent_c(g));
  const int64_t lines = g.d.layout == Layout::row ? g.m : g.n, length = g.d.layout == Layout::row ? g.n : g.m;
  if (ld <= length) return;
  const size_t eb = dtype_bytes(g.d.dtype);
  std::vector<unsigned char> raw(static_cast<size_t>(lines * ld) * eb);
  ASSERT_EQ(cudaMemcpy(raw.data(), d, raw.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  int64_t touched = 0;
  for (int64_t l = 0; l < lines; ++l)
    for (size_t i = static_cast<size_t>(l * ld + length) * eb; i < static_cast<size_t>((l + 1) * ld) * eb; ++i)
      touched += raw[i] != 0xFF;
  EXPECT_EQ(touched, 0) << "the launch wrote " << touched << " bytes into D's ld padding";
}

// Runs k on g (A/B base pointers `offset_bytes` past a cudaMalloc'd address, D's `d_offset_bytes`),
// checks D against the device reference, and (determinism) optionally runs again and compares D
// bit for bit. The bytes in front of an offset D must keep their poison.
[[maybe_unused]] void run_and_check(const KernelEntry& k, const GemmDesc& g, size_t offset_bytes, bool twice,
                                   size_t d_offset_bytes = 0) {
  const DType input = g.a.dtype;
  const size_t na = stored_elements(extent_a(g), g.a.layout, effective_ld(g.a, extent_a(g)));
  const size_t nb = stored_elements(extent_b(g), g.b.layout, effective_ld(g.b, extent_b(g)));
  const size_t nc = stored_elements(extent_c(g), g.c.layout, effective_ld(g.c, extent_c(g)));
  const size_t nd = stored_elements(extent_c(g), g.d.layout, effective_ld(g.d, extent_c(g)));
  const size_t d_bytes = nd * dtype_bytes(g.d.dtype);
  DeviceBuffer A(na * 2 + offset_bytes), B(nb * 2 + offset_bytes), Cb(nc * dtype_bytes(g.c.dtype)),
      D(d_bytes + d_offset_bytes);
  const size_t ws_bytes = k.workspace_bytes ? k.workspace_bytes(g) : 0;
  DeviceBuffer W(ws_bytes);
  DeviceBuffer ref(g.m * g.n * sizeof(float)), got(g.m * g.n * sizeof(float));
  ASSERT_TRUE(A.p && B.p && Cb.p && D.p && W.p && ref.p && got.p);
  void* a = static_cast<char*>(A.p) + offset_bytes;
  void* b = static_cast<char*>(B.p) + offset_bytes;
  void* d_out = static_cast<char*>(D.p) + d_offset_bytes;
  fill(a, na, input);
  fill(b, nb, input);
  fill(Cb.p, nc, g.c.dtype);
  CUDA_OK(cudaMemset(D.p, 0xFF, d_bytes + d_offset_bytes));  // NaN in f32, f16 and bf16
  CUDA_OK(cudaMemset(W.p, 0xFF, std::max<size_t>(ws_bytes, 16)));

  GemmArgs args;
  args.desc = g;
  args.a = a;
  args.b = b;
  args.c = Cb.p;
  args.d = d_out;
  args.workspace = W.p;
  args.workspace_bytes = ws_bytes;
  const Status run = k.launch(args);
  ASSERT_TRUE(run.ok()) << run.message();
  CUDA_OK(cudaDeviceSynchronize());
  expect_padding_untouched(g, d_out);
  if (d_offset_bytes > 0) {
    std::vector<unsigned char> front(d_offset_bytes);
    CUDA_OK(cudaMemcpy(front.data(), D.p, d_offset_bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(std::count(front.begin(), front.end(), 0xFF), static_cast<std::ptrdiff_t>(d_offset_bytes))
        << "the launch wrote in front of D";
  }

  ASSERT_TRUE(reference_gemm_device(g, a, b, Cb.p, static_cast<float*>(ref.p), false).ok());
  ASSERT_TRUE(convert_to_float_device(g, d_out, static_cast<float*>(got.p)).ok());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<float> r(g.m * g.n), d(g.m * g.n);
  CUDA_OK(cudaMemcpy(r.data(), ref.p, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(d.data(), got.p, d.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // The kernel's tolerance (test_sm90_wgmma.cu), tightened by the output dtype's rounding.
  double eps = input == DType::bf16 ? 1e-2 : 5e-3;
  if (g.d.dtype == DType::bf16) eps = std::max(eps, 1e-2);
  const double floor = 0.1 * eps * std::sqrt(static_cast<double>(g.k));
  expect_close(d, r, g.n, eps, floor);

  if (twice) {
    std::vector<unsigned char> first(d_bytes), second(d_bytes);
    CUDA_OK(cudaMemcpy(first.data(), d_out, d_bytes, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemset(d_out, 0xFF, d_bytes));
    CUDA_OK(cudaMemset(W.p, 0x7F, std::max<size_t>(ws_bytes, 16)));
    const Status again = k.launch(args);
    ASSERT_TRUE(again.ok()) << again.message();
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(second.data(), d_out, d_bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(std::memcmp(first.data(), second.data(), d_bytes), 0) << "D differs between two identical runs";
  }
}

// One case of the entries that take misaligned A/B without a copy (thread loads, row classes): the
// epilogue varied by `variant`, a refusal by design skipped with its reason, then run_and_check
// twice (bitwise) with A and B `offset_bytes` past their allocations.
[[maybe_unused]] void check_misaligned_case(const KernelEntry& k, GemmDesc g, int variant, size_t offset_bytes) {
  const DType in = g.a.dtype;
  const DType outs[] = {in, DType::f32, in == DType::bf16 ? DType::f16 : DType::bf16};
  vary_epilogue(g, variant, outs);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status supported = k.supports(g);
  if (supported.code() == StatusCode::unsupported) GTEST_SKIP() << "refused by design: " << supported.message();
  ASSERT_TRUE(supported.ok()) << supported.message();
  SCOPED_TRACE("splits " + std::to_string(k.split_k(g)) + ", " + k.describe(g));
  run_and_check(k, g, offset_bytes, /*twice=*/true);
}

// One case of the tiny and skinny kernels' sweeps: `entry` (16-bit inputs `in`) on shape `sh`, A/B
// layouts `layouts` (bit 0: A column-major, bit 1: B row-major), alignment `mode` (0: odd ld's, 1:
// tight ld's with the bases 2 bytes off, 2: tight and aligned), the cluster size forced to
// `splits` (0: the plan's), the epilogue varied by `variant`.
[[maybe_unused]] void check_stream_case(const char* entry, DType in, Shape sh, int layouts, int mode, int splits,
                                        int variant) {
  if (small_only() && sh.k > 1000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  const KernelEntry* k = find_kernel(entry);
  ASSERT_NE(k, nullptr) << entry;
  const ForcedSplits forced(splits);
  GemmDesc g = ab_problem(in, sh, layouts % 2 ? Layout::column : Layout::row, layouts / 2 ? Layout::row : Layout::column);
  const size_t offset = mode == 2 ? 0 : misalign_ab(g, mode == 0);
  check_misaligned_case(*k, g, variant, offset);
}

}  // namespace
}  // namespace tcgemm
