// Stream-K and serial split-K (wgmma_ws_streamk.cu) against the device reference: partial waves,
// tails in M/N/K, tiles cut into many pieces, beta != 0 with C, D in f32/bf16/f16 and either
// layout, forced serial split counts 1..64 (clipped to the k-blocks), bitwise determinism (two
// runs, the workspace poisoned differently each time), and the workspace-too-small refusal.
// Fresh random inputs each run; D is poisoned with NaN first. Cases named "Small" are the ones
// scripts/device/h200.sh runs under compute-sanitizer (SAN_FILTER='*StreamK*Small*').
// TCGEMM_BENCH=1 adds a 4224^3 bf16 timing against the persistent kernel.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess) << #x << ": " << cudaGetErrorString(cudaGetLastError())

constexpr const char* kStreamKBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_streamk";
constexpr const char* kStreamKF16 = "sm90_wgmma_f16_128x256x64_s4_ws_streamk";
constexpr const char* kSerialBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_serial_splitk";
constexpr const char* kSerialF16 = "sm90_wgmma_f16_128x256x64_s4_ws_serial_splitk";
constexpr const char* kPersistentBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_persistent";

std::string shape_name(Shape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

struct ForcedSplits {
  explicit ForcedSplits(int s) { set_forced_split_k(s); }
  ~ForcedSplits() { set_forced_split_k(0); }
};

// A K-major (A row-major, B column-major) problem with TMA-legal ld's (rounded up to 8), D and C
// dtypes/layouts/scalars varied by `variant`.
GemmDesc make_problem(DType input, Shape s, int variant) {
  const DType outs[] = {DType::bf16, DType::f32, DType::f16};
  GemmDesc g;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.a = {input, Layout::row, 0};
  g.b = {input, Layout::column, 0};
  g.a.ld = (tight_ld(extent_a(g), g.a.layout) + 7) / 8 * 8;
  g.b.ld = (tight_ld(extent_b(g), g.b.layout) + 7) / 8 * 8;
  // variant % 4 == 0: row-major D of the input type with beta == 0, the register direct store.
  g.d = {variant % 4 == 0 ? input : outs[variant % 3], variant % 4 == 3 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (variant % 4 == 2 ? 5 : 0);
  g.c = {outs[(variant + 1) % 3], variant % 2 ? Layout::row : Layout::column, 0};
  g.alpha = variant % 2 ? 1.0f : 1.25f;
  g.beta = variant % 4 == 0 ? 0.0f : -0.5f;
  return g;
}

// Runs k on g, checks D against the device reference and (twice) runs again with the workspace
// poisoned differently and compares D bit for bit.
void run_and_check(const KernelEntry& k, const GemmDesc& g, bool twice) {
  const DType input = g.a.dtype;
  const size_t na = stored_elements(extent_a(g), g.a.layout, effective_ld(g.a, extent_a(g)));
  const size_t nb = stored_elements(extent_b(g), g.b.layout, effective_ld(g.b, extent_b(g)));
  const size_t nc = stored_elements(extent_c(g), g.c.layout, effective_ld(g.c, extent_c(g)));
  const size_t nd = stored_elements(extent_c(g), g.d.layout, effective_ld(g.d, extent_c(g)));
  const size_t d_bytes = nd * dtype_bytes(g.d.dtype);
  DeviceBuffer A(na * 2), B(nb * 2), Cb(nc * dtype_bytes(g.c.dtype)), D(d_bytes);
  const size_t ws_bytes = k.workspace_bytes ? k.workspace_bytes(g) : 0;
  DeviceBuffer W(ws_bytes);
  DeviceBuffer ref(g.m * g.n * sizeof(float)), got(g.m * g.n * sizeof(float));
  ASSERT_TRUE(A.p && B.p && Cb.p && D.p && W.p && ref.p && got.p);
  fill(A.p, na, input);
  fill(B.p, nb, input);
  fill(Cb.p, nc, g.c.dtype);
  CUDA_OK(cudaMemset(D.p, 0xFF, d_bytes));  // NaN in f32, f16 and bf16
  CUDA_OK(cudaMemset(W.p, 0xFF, std::max<size_t>(ws_bytes, 16)));  // flags too: launch must zero them

  GemmArgs args;
  args.desc = g;
  args.a = A.p;
  args.b = B.p;
  args.c = Cb.p;
  args.d = D.p;
  args.workspace = W.p;
  args.workspace_bytes = ws_bytes;
  const Status run = k.launch(args);
  ASSERT_TRUE(run.ok()) << run.message();
  CUDA_OK(cudaDeviceSynchronize());

  ASSERT_TRUE(reference_gemm_device(g, A.p, B.p, Cb.p, static_cast<float*>(ref.p), false).ok());
  ASSERT_TRUE(convert_to_float_device(g, D.p, static_cast<float*>(got.p)).ok());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<float> r(g.m * g.n), d(g.m * g.n);
  CUDA_OK(cudaMemcpy(r.data(), ref.p, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(d.data(), got.p, d.size() * sizeof(float), cudaMemcpyDeviceToHost));

  double eps = input == DType::bf16 ? 1e-2 : 5e-3;
  if (g.d.dtype == DType::bf16) eps = std::max(eps, 1e-2);
  const double floor = 0.1 * eps * std::sqrt(static_cast<double>(g.k));
  double diff2 = 0, ref2 = 0;
  int64_t bad = 0, first_bad = -1;
  for (size_t i = 0; i < r.size(); ++i) {
    const double x = d[i], y = r[i];
    diff2 += (x - y) * (x - y);
    ref2 += y * y;
    const bool ok = std::isfinite(x) && std::fabs(x - y) <= eps * (std::fabs(x) + std::fabs(y)) + floor;
    if (!ok && bad++ == 0) first_bad = static_cast<int64_t>(i);
  }
  const double rel = std::sqrt(diff2) / std::max(std::sqrt(ref2), 1e-30);
  EXPECT_EQ(bad, 0) << bad << " of " << r.size() << " elements off; first at (" << first_bad / g.n << ", "
                    << first_bad % g.n << "): got " << d[first_bad] << ", want " << r[first_bad];
  EXPECT_LE(rel, eps) << "relative norm error " << rel;

  if (twice) {
    std::vector<unsigned char> first(d_bytes), second(d_bytes);
    CUDA_OK(cudaMemcpy(first.data(), D.p, d_bytes, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemset(D.p, 0xFF, d_bytes));
    CUDA_OK(cudaMemset(W.p, 0x7F, std::max<size_t>(ws_bytes, 16)));
    const Status again = k.launch(args);
    ASSERT_TRUE(again.ok()) << again.message();
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(second.data(), D.p, d_bytes, cudaMemcpyDeviceToHost));
    EXPECT_EQ(std::memcmp(first.data(), second.data(), d_bytes), 0) << "D differs between two identical runs";
  }
}

bool small_only() {
  const char* v = std::getenv("TCGEMM_TEST_SMALL");
  return v && std::strcmp(v, "1") == 0;
}

// "Small": at most a few CTAs, quick under compute-sanitizer, yet with partial tiles handed over
// (64x64x1024: one tile cut into 16 pieces; 200x300x640: 4 tiles, 40 iterations on 40 CTAs).
bool is_small(Shape s) { return s.m * s.n * s.k <= int64_t{64} * 64 * 1024 || (s.m == 200 && s.n == 300); }

// --- stream-K -----------------------------------------------------------------------------------
// 4224^3: 561 tiles = 4 full waves + 33 on 132 SMs (the target); 2000x4100x200: 272 tiles, 4
// k-blocks each, so every CTA's share (4.2 iterations) crosses tile edges; 1x1x19200: one tile in
// 132 pieces (131 partials for the owner); 33x4097x333: N tail, K tail, 17 tiles.
const Shape kStreamKShapes[] = {{1, 1, 1},         {7, 7, 7},         {64, 64, 1024},     {200, 300, 640},
                                {129, 257, 1000},  {256, 256, 8192},  {33, 4097, 333},    {1, 1, 19200},
                                {2000, 4100, 200}, {512, 1024, 4096}, {4224, 4224, 4224}};

using StreamKCase = std::tuple<DType, int, int>;  // input, shape index, epilogue variant
class Sm90StreamK : public ::testing::TestWithParam<StreamKCase> {};

TEST_P(Sm90StreamK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, variant] = GetParam();
  const Shape sh = kStreamKShapes[si];
  if (small_only() && !is_small(sh)) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kStreamKBf16 : kStreamKF16);
  ASSERT_NE(k, nullptr);
  const GemmDesc g = make_problem(input, sh, variant);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status sup = k->supports(g);
  if (!sup.ok()) GTEST_SKIP() << sup.message();  // whole waves on this device's SM count
  const StreamKPlan p = plan_streamk(g, current_sm_count(), false);
  SCOPED_TRACE("grid " + std::to_string(p.grid) + ", split tiles " + std::to_string(p.sk_tiles) + " of " +
               std::to_string(p.tiles) + ", " + std::to_string(p.k_blocks) + " k-blocks");
  run_and_check(*k, g, /*twice=*/true);
}

std::string streamk_name(const ::testing::TestParamInfo<StreamKCase>& info) {
  const auto [input, si, variant] = info.param;
  const Shape s = kStreamKShapes[si];
  return std::string(to_string(input)) + "_" + shape_name(s) + "_v" + std::to_string(variant) +
         (is_small(s) ? "_Small" : "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90StreamK,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kStreamKShapes))),
                                            ::testing::Values(0, 1, 2, 3)),
                         streamk_name);

// --- serial split-K -----------------------------------------------------------------------------
const Shape kSerialShapes[] = {{64, 64, 1024}, {1, 1, 4097}, {129, 257, 1000}, {256, 256, 8192}, {33, 4097, 333},
                               {512, 1024, 4096}};
const int kSerialCounts[] = {1, 2, 3, 7, 16, 64};

using SerialCase = std::tuple<DType, int, int>;  // input, shape index, split-count index
class Sm90SerialSplitK : public ::testing::TestWithParam<SerialCase> {};

TEST_P(Sm90SerialSplitK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, ci] = GetParam();
  const Shape sh = kSerialShapes[si];
  if (small_only() && !is_small(sh)) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kSerialBf16 : kSerialF16);
  ASSERT_NE(k, nullptr);
  const ForcedSplits forced(kSerialCounts[ci]);
  const GemmDesc g = make_problem(input, sh, si + ci);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  const StreamKPlan p = plan_streamk(g, current_sm_count(), true);
  EXPECT_GE(p.splits, 1);
  EXPECT_LE(p.splits, std::min<int64_t>(kSerialCounts[ci], p.k_blocks));
  EXPECT_EQ(k->workspace_bytes(g), streamk_workspace_bytes(p));
  SCOPED_TRACE("splits " + std::to_string(p.splits) + " of " + std::to_string(p.k_per_split) + " k-blocks, grid " +
               std::to_string(p.grid));
  run_and_check(*k, g, /*twice=*/true);
}

std::string serial_name(const ::testing::TestParamInfo<SerialCase>& info) {
  const auto [input, si, ci] = info.param;
  const Shape s = kSerialShapes[si];
  return std::string(to_string(input)) + "_" + shape_name(s) + "_splits" + std::to_string(kSerialCounts[ci]) +
         (is_small(s) ? "_StreamKSmall" : "");
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90SerialSplitK,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kSerialShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kSerialCounts)))),
                         serial_name);

// --- refusals -----------------------------------------------------------------------------------
TEST(Sm90StreamKStatus, WorkspaceTooSmallIsAStatus) {
  TCGEMM_REQUIRE_GPU(90);
  const ForcedSplits forced(4);
  GemmDesc g;
  g.m = g.n = 64;
  g.k = 1024;
  DeviceBuffer A(64 * 1024 * 2), B(64 * 1024 * 2), D(64 * 64 * 2);
  for (const char* name : {kStreamKBf16, kSerialBf16}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr);
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    const size_t need = k->workspace_bytes(g);
    ASSERT_GT(need, 0u) << name;
    DeviceBuffer W(need);
    GemmArgs args;
    args.desc = g;
    args.a = A.p;
    args.b = B.p;
    args.d = D.p;
    args.workspace = W.p;
    args.workspace_bytes = need - 1;
    const Status s = k->launch(args);
    EXPECT_EQ(s.code(), StatusCode::workspace_too_small) << name << ": " << s.message();
    EXPECT_NE(s.message().find(std::to_string(need)), std::string::npos) << s.message();
    args.workspace = nullptr;
    args.workspace_bytes = 0;
    EXPECT_EQ(k->launch(args).code(), StatusCode::workspace_too_small) << name;
  }
}

// TCGEMM_BENCH=1: 4224^3 bf16, stream-K against the persistent kernel (same process).
TEST(Sm90StreamKBench, Time4224Cubed) {
  TCGEMM_REQUIRE_GPU(90);
  const char* bench = std::getenv("TCGEMM_BENCH");
  if (!bench || std::strcmp(bench, "1") != 0) GTEST_SKIP() << "set TCGEMM_BENCH=1";
  GemmDesc g;
  g.m = g.n = g.k = 4224;
  DeviceBuffer A(size_t(4224) * 4224 * 2), B(size_t(4224) * 4224 * 2), D(size_t(4224) * 4224 * 2);
  fill(A.p, size_t(4224) * 4224, DType::bf16);
  fill(B.p, size_t(4224) * 4224, DType::bf16);
  for (const char* name : {kPersistentBf16, kStreamKBf16}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr);
    const size_t ws = k->workspace_bytes ? k->workspace_bytes(g) : 0;
    DeviceBuffer W(ws);
    GemmArgs args;
    args.desc = g;
    args.a = A.p;
    args.b = B.p;
    args.d = D.p;
    args.workspace = W.p;
    args.workspace_bytes = ws;
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(k->launch(args).ok());
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    CUDA_OK(cudaEventRecord(e0));
    constexpr int kIters = 20;
    for (int i = 0; i < kIters; ++i) ASSERT_TRUE(k->launch(args).ok());
    CUDA_OK(cudaEventRecord(e1));
    CUDA_OK(cudaEventSynchronize(e1));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    const double us = 1000.0 * ms / kIters;
    std::printf("[bench] %s 4224^3 bf16: %.1f us, %.1f TFLOP/s\n", name, us, 2.0 * 4224.0 * 4224 * 4224 / us / 1e6);
    CUDA_OK(cudaEventDestroy(e0));
    CUDA_OK(cudaEventDestroy(e1));
  }
}

// --- host-only checks (run without a GPU) -------------------------------------------------------
TEST(Sm90StreamKHost, RegisteredByNameOnly) {
  for (const char* name : {kStreamKBf16, kStreamKF16, kSerialBf16, kSerialF16}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->min_sm, 90);
    EXPECT_EQ(k->family, MmaFamily::wgmma);
    EXPECT_EQ(k->tile_m, 128);
    EXPECT_EQ(k->tile_n, 256);
    EXPECT_EQ(k->preference, 0) << name << ": not measured to win yet, so gemm() must not pick it";
    EXPECT_NE(k->workspace_bytes, nullptr);
  }
}

TEST(Sm90StreamKHost, PlanSplitsTheTailEvenly) {
  GemmDesc g;
  g.m = g.n = g.k = 4224;  // 33 x 17 = 561 tiles, 66 k-blocks
  StreamKPlan p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.tiles, 561);
  EXPECT_EQ(p.k_blocks, 66);
  EXPECT_EQ(p.grid, 132);
  EXPECT_EQ(p.sk_tiles, 33 + 132);  // 3 data-parallel waves, then 1.25 tiles per CTA
  EXPECT_EQ(p.slots, 132);
  EXPECT_EQ(streamk_workspace_bytes(p), 1280u /* 132*2 flags, rounded to 256 */ + 132u * 128 * 256 * 4);

  g.m = 512;  // 4 x 4 = 16 tiles of 512 k-blocks: everything split, 62 iterations a CTA
  g.n = 1024;
  g.k = 32768;
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.sk_tiles, 16);
  EXPECT_EQ(p.grid, 132);

  g.m = g.n = g.k = 1;  // one iteration: one CTA
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.grid, 1);

  g.m = 128 * 12;  // 132 tiles: whole waves, nothing to split
  g.n = 256 * 11;
  g.k = 512;
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.sk_tiles, 0);
  EXPECT_EQ(p.slots, 0);
  EXPECT_EQ(streamk_workspace_bytes(p), 0u);

  // Serial: the split-K chooser's count, slots for all but the last split of each tile.
  {
    const ForcedSplits forced(7);
    g.m = g.n = 256;
    g.k = 8192;  // 2 tiles, 128 k-blocks: 7 splits of 19
    p = plan_streamk(g, 132, true);
    EXPECT_EQ(p.splits, 7);
    EXPECT_EQ(p.k_per_split, 19);
    EXPECT_EQ(p.slots, 2 * 6);
    EXPECT_EQ(p.grid, 14);
  }
}

TEST(Sm90StreamKHost, SupportsOnlyWhereItMakesSense) {
  const KernelEntry* sk = find_kernel(kStreamKBf16);
  const KernelEntry* serial = find_kernel(kSerialBf16);
  ASSERT_TRUE(sk && serial);
  set_forced_split_k(0);
  GemmDesc g;
  g.m = g.n = g.k = 4224;
  if (current_sm_count() == 132) EXPECT_TRUE(sk->supports(g).ok()) << sk->supports(g).message();
  g.a.layout = Layout::column;  // K-major only
  EXPECT_EQ(sk->supports(g).code(), StatusCode::unsupported);
  EXPECT_EQ(serial->supports(g).code(), StatusCode::unsupported);
  g.a.layout = Layout::row;
  g.a.dtype = g.b.dtype = DType::f16;
  EXPECT_EQ(sk->supports(g).code(), StatusCode::unsupported);
  EXPECT_TRUE(find_kernel(kStreamKF16)->supports(g).ok() || current_sm_count() != 132);
  g.a.dtype = g.b.dtype = DType::bf16;
  // Serial split-K refuses what would not split (unless a count is forced).
  EXPECT_EQ(serial->supports(g).code(), StatusCode::unsupported);
  g.m = g.n = 256;
  g.k = 65536;
  EXPECT_TRUE(serial->supports(g).ok()) << serial->supports(g).message();
  if (current_sm_count() == 132) {
    g.m = 128 * 12;  // exactly one wave of tiles
    g.n = 256 * 11;
    g.k = 4096;
    EXPECT_EQ(sk->supports(g).code(), StatusCode::unsupported);
  }
}

}  // namespace
}  // namespace tcgemm
