// Back-to-back gemm() calls on one stream with no synchronization between them, where each call
// reads what the one before wrote (D1 becomes A2) and then a third overwrites D1 while the second
// may still be reading it. The sm90 kernels, the copies and split-K's reduce are launched with
// programmatic stream serialization (common/pdl.cuh): their prologue may overlap the previous
// kernel, and this is the test that nothing global is touched before griddepcontrol.wait. D1 is
// poisoned with NaN first, so a GEMM that read it early shows NaN. One case per gemm() path:
// cluster kernel, split-K (the workspace is shared by consecutive calls), repack with D's
// temporary, swap A/B.
#include <cuda_runtime_api.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_test_util.cuh"
#include "runtime/device_reference.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

struct ChainCase {
  int64_t m, n, k, n2;  // GEMM 1: m x n x k; GEMM 2: m x n2 x n (its A is GEMM 1's D)
  int64_t ld_pad;       // added to every leading dimension (odd: the repack paths)
};

GemmDesc tn(int64_t m, int64_t n, int64_t k, int64_t pad) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = {DType::bf16, Layout::row, k + pad};
  g.b = {DType::bf16, Layout::column, k + pad};
  g.d = {DType::bf16, Layout::row, n + pad};
  g.c = g.d;
  return g;
}

std::vector<float> to_host(const GemmDesc& g, const void* d) {
  DeviceBuffer f(g.m * g.n * sizeof(float));
  EXPECT_TRUE(convert_to_float_device(g, d, static_cast<float*>(f.p)).ok());
  std::vector<float> h(g.m * g.n);
  EXPECT_EQ(cudaMemcpy(h.data(), f.p, h.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

std::vector<float> reference(const GemmDesc& g, const void* a, const void* b) {
  DeviceBuffer f(g.m * g.n * sizeof(float));
  EXPECT_TRUE(reference_gemm_device(g, a, b, nullptr, static_cast<float*>(f.p), false).ok());
  std::vector<float> h(g.m * g.n);
  EXPECT_EQ(cudaMemcpy(h.data(), f.p, h.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

// bf16 output of a k-long dot product of [-1, 1] inputs: relative 1e-2 plus an absolute floor.
int64_t mismatches(const std::vector<float>& got, const std::vector<float>& want, int64_t k) {
  const double floor = 1e-3 * std::sqrt(static_cast<double>(k));
  int64_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    bad += !(std::isfinite(got[i]) && std::fabs(got[i] - want[i]) <= 1e-2 * (std::fabs(got[i]) + std::fabs(want[i])) + floor);
  return bad;
}

class PdlChain : public ::testing::TestWithParam<ChainCase> {};

TEST_P(PdlChain, EachCallSeesThePreviousOnesWrites) {
  TCGEMM_REQUIRE_GPU(90);
  const ChainCase c = GetParam();
  const GemmDesc g1 = tn(c.m, c.n, c.k, c.ld_pad);
  GemmDesc g2 = tn(c.m, c.n2, c.n, c.ld_pad);
  g2.a.ld = g1.d.ld;  // A2 is D1 as stored
  const size_t a1 = c.m * g1.a.ld, b1 = c.n * g1.b.ld, d1 = c.m * g1.d.ld;
  const size_t b2 = c.n2 * g2.b.ld, d2 = c.m * g2.d.ld;
  DeviceBuffer A1(a1 * 2), B1(b1 * 2), A3(a1 * 2), B3(b1 * 2), D1(d1 * 2), B2(b2 * 2), D2(d2 * 2), keep(d1 * 2);
  fill(A1.p, a1, DType::bf16);
  fill(B1.p, b1, DType::bf16);
  fill(A3.p, a1, DType::bf16);
  fill(B3.p, b1, DType::bf16);
  fill(B2.p, b2, DType::bf16);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  SCOPED_TRACE(std::string("gemm() picks ") + std::string(pick_kernel(g1).value()) + " then " +
               std::string(pick_kernel(g2).value()));

  // D1 alone first (kept for the reference): the kernels are deterministic, so the chain's D1 is
  // bitwise this one.
  ASSERT_TRUE(gemm(g1, A1.p, B1.p, nullptr, keep.p).ok());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(cudaMemsetAsync(D1.p, 0xFF, d1 * 2, s), cudaSuccess);  // NaN: an early read shows
    ASSERT_EQ(cudaMemsetAsync(D2.p, 0xFF, d2 * 2, s), cudaSuccess);
    ASSERT_TRUE(gemm(g1, A1.p, B1.p, nullptr, D1.p, s).ok());  // D1 = A1 B1
    ASSERT_TRUE(gemm(g2, D1.p, B2.p, nullptr, D2.p, s).ok());  // D2 = D1 B2 (reads D1)
    ASSERT_TRUE(gemm(g1, A3.p, B3.p, nullptr, D1.p, s).ok());  // D1 = A3 B3 (overwrites D2's input)
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_EQ(mismatches(to_host(g2, D2.p), reference(g2, keep.p, B2.p), c.n), 0) << "round " << round;
    EXPECT_EQ(mismatches(to_host(g1, D1.p), reference(g1, A3.p, B3.p), c.k), 0) << "round " << round;
  }
  ASSERT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(Paths, PdlChain,
                         ::testing::Values(ChainCase{2048, 2048, 1024, 1024, 0},   // cluster kernel
                                           ChainCase{256, 256, 16384, 256, 0},     // split-K, shared workspace
                                           ChainCase{1001, 1003, 1005, 777, 1},    // repack + D temporary
                                           ChainCase{16, 4096, 4096, 512, 0}),     // swap A/B
                         [](const ::testing::TestParamInfo<ChainCase>& i) {
                           return std::to_string(i.param.m) + "x" + std::to_string(i.param.n) + "x" +
                                  std::to_string(i.param.k) + (i.param.ld_pad ? "_oddld" : "");
                         });

}  // namespace
}  // namespace tcgemm
