// Stream-K and serial split-K (wgmma_ws_streamk.cu) against the device reference: partial waves,
// tails in M/N/K, tiles cut into many pieces, beta != 0 with C, D in f32/bf16/f16 and either
// layout, forced serial split counts 1..64 (clipped to the k-blocks), bitwise determinism (two
// runs, the workspace poisoned differently each time), and the workspace-too-small refusal.
// Fresh random inputs each run; D is poisoned with NaN first. Cases named "Small" are the ones
// scripts/device/h200.sh runs under compute-sanitizer (SAN_FILTER='*StreamK*Small*').
// TCGEMM_BENCH=1 adds timings of stream-K plans (4224^3, 512x1024x32768 bf16) in one process.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {


constexpr const char* kStreamKBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_streamk";
constexpr const char* kStreamKF16 = "sm90_wgmma_f16_128x256x64_s4_ws_streamk";
constexpr const char* kSerialBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_serial_splitk";
constexpr const char* kSerialF16 = "sm90_wgmma_f16_128x256x64_s4_ws_serial_splitk";



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
// poisoned differently and compares D bit for bit (sm90_entry_check.cuh).
void run_and_check(const KernelEntry& k, const GemmDesc& g, bool twice) { run_and_check(k, g, 0, twice); }


// "Small": at most a few CTAs, quick under compute-sanitizer, yet with partial tiles handed over
// (64x64x1024: one tile cut into 16 pieces; 200x300x640: 4 tiles, 40 iterations on 40 CTAs).
bool is_small(Shape s) { return s.m * s.n * s.k <= int64_t{64} * 64 * 1024 || (s.m == 200 && s.n == 300); }

// --- stream-K -----------------------------------------------------------------------------------
// 4224^3: 561 tiles = 4 full waves + 33 on 132 SMs (the target); 2000x4100x200: 272 tiles, 4
// k-blocks each, 8 past 2 waves: remainder + one wave split, every CTA's share (4.2 iterations)
// crosses tile edges; 1x1x19200: one tile in 16 pieces (15 partials for the owner); 33x4097x333:
// N tail, K tail, 17 tiles in 7 pieces each.
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

// TCGEMM_BENCH=1: stream-K plans against the persistent and split-K kernels, same process, inputs
// rotated over 3 buffer sets (cold-ish L2, as the profiler times). D bf16 row-major, beta = 0.
struct Timed {
  std::string name;
  std::function<Status(const GemmArgs&)> launch;
  size_t workspace;
};

void time_all(Shape sh, const std::vector<Timed>& runs) {
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  constexpr int kSets = 3;
  std::vector<std::unique_ptr<DeviceBuffer>> a, b;
  for (int i = 0; i < kSets; ++i) {
    a.push_back(std::make_unique<DeviceBuffer>(size_t(g.m) * g.k * 2));
    b.push_back(std::make_unique<DeviceBuffer>(size_t(g.n) * g.k * 2));
    fill(a.back()->p, size_t(g.m) * g.k, DType::bf16);
    fill(b.back()->p, size_t(g.n) * g.k, DType::bf16);
  }
  DeviceBuffer D(size_t(g.m) * g.n * 2);
  for (const Timed& r : runs) {
    DeviceBuffer W(r.workspace);
    GemmArgs args;
    args.desc = g;
    args.d = D.p;
    args.workspace = W.p;
    args.workspace_bytes = r.workspace;
    auto launch = [&](int i) {
      args.a = a[i % kSets]->p;
      args.b = b[i % kSets]->p;
      return r.launch(args);
    };
    for (int i = 0; i < 6; ++i) ASSERT_TRUE(launch(i).ok()) << r.name;
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    constexpr int kIters = 30;
    CUDA_OK(cudaEventRecord(e0));
    for (int i = 0; i < kIters; ++i) ASSERT_TRUE(launch(i).ok()) << r.name;
    CUDA_OK(cudaEventRecord(e1));
    CUDA_OK(cudaEventSynchronize(e1));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    const double us = 1000.0 * ms / kIters;
    std::printf("[bench] %s %s bf16: %.1f us, %.1f TFLOP/s\n", shape_name(sh).c_str(), r.name.c_str(), us,
                2.0 * g.m * g.n * g.k / us / 1e6);
    CUDA_OK(cudaEventDestroy(e0));
    CUDA_OK(cudaEventDestroy(e1));
  }
}

Timed entry_run(const char* name, const GemmDesc& g) {
  const KernelEntry* k = find_kernel(name);
  return {name, [k](const GemmArgs& a) { return k->launch(a); }, k->workspace_bytes ? k->workspace_bytes(g) : 0};
}

Timed plan_run(const std::string& label, const GemmDesc& g, int64_t sk_tiles, int64_t grid) {
  StreamKPlan p = plan_streamk(g, current_sm_count(), false);
  p.serial = p.distributed = false;
  p.sk_tiles = sk_tiles;
  p.grid = grid;
  p.slots = sk_tiles > 0 ? grid : 0;
  return {"streamk plan " + label + " (split tiles " + std::to_string(sk_tiles) + ", grid " + std::to_string(grid) + ")",
          [p](const GemmArgs& a) { return sm90_wgmma_ws_streamk_launch_plan(a, DType::bf16, p); },
          streamk_workspace_bytes(p)};
}

// The aligned pieces with the last split adding the others' partials alone (no reduce-scatter).
Timed owner_run(const GemmDesc& g, int splits) {
  StreamKPlan p = plan_streamk(g, current_sm_count(), false);
  p.serial = true;
  p.distributed = false;
  p.splits = splits;
  p.k_per_split = (p.k_blocks + splits - 1) / splits;
  p.grid = p.tiles * splits;
  p.slots = p.tiles * (splits - 1);
  return {"serial plan, " + std::to_string(splits) + " splits, owner fix-up",
          [p](const GemmArgs& a) { return sm90_wgmma_ws_streamk_launch_plan(a, DType::bf16, p); },
          streamk_workspace_bytes(p)};
}

TEST(Sm90StreamKBench, PlansAgainstPersistentAndSplitK) {
  TCGEMM_REQUIRE_GPU(90);
  const char* bench = std::getenv("TCGEMM_BENCH");
  if (!bench || std::strcmp(bench, "1") != 0) GTEST_SKIP() << "set TCGEMM_BENCH=1";
  if (current_sm_count() != 132) GTEST_SKIP() << "plans chosen for 132 SMs";
  GemmDesc g;
  g.m = g.n = g.k = 4224;
  time_all({4224, 4224, 4224}, {entry_run("sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore", g),
                                entry_run(kStreamKBf16, g), plan_run("DP only", g, 0, 132),
                                plan_run("DP + 1-tile SK", g, 33, 132), plan_run("DP + 2-tile SK", g, 165, 132),
                                entry_run("sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore", g)});
  g.m = 512;
  g.n = 1024;
  g.k = 32768;
  time_all({512, 1024, 32768}, {entry_run("sm90_wgmma_bf16_128x256x64_s4_ws_splitk", g), entry_run(kSerialBf16, g),
                                entry_run(kStreamKBf16, g), plan_run("even", g, 16, 132),
                                owner_run(g, 8)});
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
  EXPECT_EQ(p.sk_tiles, 33);  // 4 data-parallel waves, then the 33 tiles in 4 pieces each
  EXPECT_EQ(p.slots, 132);
  EXPECT_EQ(streamk_workspace_bytes(p), 1280u /* 132*2 flags, rounded to 256 */ + 132u * 128 * 256 * 4);

  g.m = 128 * 133;  // 133 tiles: one tile past a wave would be cut in 132: remainder + one wave
  g.n = 256;
  g.k = 4096;
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.sk_tiles, 133);
  EXPECT_EQ(p.grid, 132);

  g.m = 512;  // 4 x 4 = 16 tiles of 512 k-blocks, no full wave: 8 aligned pieces each,
  g.n = 1024;  // one per CTA, so the fix-up is a reduce-scatter over 16 x 8 slots
  g.k = 32768;
  p = plan_streamk(g, 132, false);
  EXPECT_TRUE(p.serial);
  EXPECT_EQ(p.splits, 8);
  EXPECT_EQ(p.k_per_split, 64);
  EXPECT_TRUE(p.distributed);
  EXPECT_EQ(p.grid, 128);
  EXPECT_EQ(p.slots, 128);

  g.m = g.n = g.k = 1;  // one iteration: one CTA
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.grid, 1);
  g.m = g.n = 64;  // one tile of 16 k-blocks: 16 pieces
  g.k = 1024;
  p = plan_streamk(g, 132, false);
  EXPECT_EQ(p.grid, 16);

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
    EXPECT_TRUE(p.distributed);  // 14 units on 132 CTAs
    EXPECT_EQ(p.slots, 2 * 7);
    EXPECT_EQ(p.grid, 14);
  }
  {
    const ForcedSplits forced(16);
    g.m = 512;  // 16 tiles x 16 splits = 256 units > 132 CTAs: the last split owns, adds 15
    g.n = 1024;
    g.k = 4096;
    p = plan_streamk(g, 132, true);
    EXPECT_FALSE(p.distributed);
    EXPECT_EQ(p.slots, 16 * 15);
    EXPECT_EQ(p.grid, 132);
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
  EXPECT_EQ(plan_streamk(g, 132, false).grid, 2 * 16);  // 66 pieces would be possible; 16 at most
  if (current_sm_count() == 132) {
    g.m = 128 * 12;  // exactly one wave of tiles
    g.n = 256 * 11;
    g.k = 4096;
    EXPECT_EQ(sk->supports(g).code(), StatusCode::unsupported);
  }
}

}  // namespace
}  // namespace tcgemm
