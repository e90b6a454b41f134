// The ping-pong persistent cluster kernel (src/kernels/sm90/wgmma_ws_pingpong.cu) against the
// device reference (sm90_entry_check.cuh: fresh random inputs, D poisoned with NaN, every element
// checked, run twice and compared bit for bit): bf16 and f16, 4 and 5 stages, 1/7/33 cubes, M/N/K tails, odd
// tile-row counts (the ghost CTA), a partial last round of pair-tiles, clusters with an odd
// number of turns (warpgroup 2 idle on the last one, or on all of them). Grids capped at 1-3
// clusters make each consumer warpgroup take many turns, so the turn barriers, the ring's skips
// over the other warpgroup's k-blocks and the C buffers' store waits cross many tiles at small
// sizes. Cases in `Sm90PingPongSmall` are quick enough for compute-sanitizer. Also: D's ld
// padding stays untouched (TMA stores whole 16-byte chunks), what supports() refuses, and the
// entries are registered by name only.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/wgmma_ws_pingpong.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

// [stages - 4][input: 0 bf16, 1 f16]
constexpr const char* kNames[2][2] = {
    {"sm90_wgmma_bf16_64x256x64_s4_pingpong", "sm90_wgmma_f16_64x256x64_s4_pingpong"},
    {"sm90_wgmma_bf16_64x256x64_s5_pingpong", "sm90_wgmma_f16_64x256x64_s5_pingpong"}};



// "s4_" (appended to, not prepended: GCC 12 warns -Wrestrict on "literal" + std::string).
std::string stage_prefix(int stages) {
  std::string p = "s";
  p += std::to_string(stages);
  p += "_";
  return p;
}


const KernelEntry& entry(DType input, int stages) {
  const KernelEntry* k = find_kernel(kNames[stages - 4][input == DType::bf16 ? 0 : 1]);
  EXPECT_NE(k, nullptr);
  return *k;
}

template <DType In, int kStages, int kClusters>
KernelEntry capped_entry() {
  KernelEntry e = entry(In, kStages);
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pingpong_launch(a, In, kStages, kClusters); };
  return e;
}

template <int kStages>
KernelEntry capped_for(DType input, int cap) {
  const bool bf = input == DType::bf16;
  switch (cap) {
    case 1: return bf ? capped_entry<DType::bf16, kStages, 1>() : capped_entry<DType::f16, kStages, 1>();
    case 2: return bf ? capped_entry<DType::bf16, kStages, 2>() : capped_entry<DType::f16, kStages, 2>();
    case 3: return bf ? capped_entry<DType::bf16, kStages, 3>() : capped_entry<DType::f16, kStages, 3>();
    default: return entry(input, kStages);
  }
}

// cap 0: the registry's entry (every resident cluster).
KernelEntry entry_for(DType input, int stages, int cap) {
  return stages == 4 ? capped_for<4>(input, cap) : capped_for<5>(input, cap);
}

// --- the registry entries on odd and round shapes ------------------------------------------------
// 129x257x1000: 3 tile rows (a ghost CTA), N tail in a tile's second half, K tail;
// 1024x2304x256: 72 pair-tiles on the H200's 66 clusters, a partial last round (6 clusters take
// a second turn, warpgroup 2 of the others none); 130x253x72 and 300x700x130: N % 8 != 0 (the
// columns past the last 16-byte chunk) and K tails.
const Shape kShapes[] = {{1, 1, 1},       {7, 7, 7},           {33, 33, 33},       {129, 257, 1000},
                         {1000, 1000, 1000}, {4096, 4096, 512}, {1024, 2304, 256}, {130, 253, 72},
                         {300, 700, 130},  {2048, 2048, 2048}};

using Case = std::tuple<int, int, int>;  // stages, input (0 bf16, 1 f16), shape index
class Sm90PingPong : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PingPong, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [stages, in, si] = GetParam();
  const DType input = in == 0 ? DType::bf16 : DType::f16;
  const float alphas[] = {1.0f, 0.75f, -1.25f};
  const GemmDesc g = tn_problem(input, kShapes[si], si % 3 == 1 ? 8 : 0, alphas[si % 3]);
  const KernelEntry k = entry_for(input, stages, 0);
  ASSERT_TRUE(k.supports(g).ok()) << k.supports(g).message();
  run_and_check(k, g, 0, /*twice=*/true);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [stages, in, si] = info.param;
  return stage_prefix(stages) + (in == 0 ? "bf16_" : "f16_") + shape_name(kShapes[si]);
}

INSTANTIATE_TEST_SUITE_P(Registry, Sm90PingPong,
                         ::testing::Combine(::testing::Values(4, 5), ::testing::Range(0, 2),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes)))),
                         case_name);

// --- few clusters: many turns per warpgroup --------------------------------------------------------
// 1000x1000x1000: 32 pair-tiles of 16 k-blocks (1 cluster: 16 turns each; 3: 11/11/10 turns);
// 1100x4500x100: 9 pair rows (ghost) x 18 columns, 2 k-blocks (fewer than the 4 stages);
// 640x2100x333: N tail in the first half of a tile, 6 k-blocks.
const Shape kFewShapes[] = {{1000, 1000, 1000}, {1100, 4500, 100}, {640, 2100, 333}};
using FewCase = std::tuple<int, int, int, int>;  // stages, input, shape index, clusters
class Sm90PingPongFewClusters : public ::testing::TestWithParam<FewCase> {};

TEST_P(Sm90PingPongFewClusters, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [stages, in, si, cap] = GetParam();
  const DType input = in == 0 ? DType::bf16 : DType::f16;
  const GemmDesc g = tn_problem(input, kFewShapes[si], si == 1 ? 8 : 0, si == 2 ? -0.5f : 1.0f);
  run_and_check(entry_for(input, stages, cap), g, 0, /*twice=*/true);
}

std::string few_case_name(const ::testing::TestParamInfo<FewCase>& info) {
  const auto [stages, in, si, cap] = info.param;
  return stage_prefix(stages) + (in == 0 ? "bf16_" : "f16_") + shape_name(kFewShapes[si]) + "_clusters" +
         std::to_string(cap);
}

INSTANTIATE_TEST_SUITE_P(Capped, Sm90PingPongFewClusters,
                         ::testing::Combine(::testing::Values(4, 5), ::testing::Range(0, 2), ::testing::Range(0, 3),
                                            ::testing::Values(1, 3)),
                         few_case_name);

// --- small: for compute-sanitizer (memcheck, racecheck, synccheck) ---------------------------------
// 130x300x200 on 1 cluster: 2 pair rows (a ghost) x 2 columns = 4 turns, N tail, 4 k-blocks;
// 100x600x70 on 2 clusters: 3 pair-tiles, so cluster 0 takes 2 turns and cluster 1 one (its
// warpgroup 2 never multiplies), 2 k-blocks; 200x520x136 on 3 clusters: 2 turns each, 3 k-blocks
// (fewer than the stages).
const Shape kSmallShapes[] = {{130, 300, 200}, {100, 600, 70}, {200, 520, 136}};
constexpr int kSmallCaps[] = {1, 2, 3};
using SmallCase = std::tuple<int, int>;  // stages, shape index
class Sm90PingPongSmall : public ::testing::TestWithParam<SmallCase> {};

TEST_P(Sm90PingPongSmall, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [stages, si] = GetParam();
  const GemmDesc g = tn_problem(DType::bf16, kSmallShapes[si], si == 1 ? 8 : 0, 1.0f);
  run_and_check(entry_for(DType::bf16, stages, kSmallCaps[si]), g, 0, /*twice=*/false);
}

std::string small_case_name(const ::testing::TestParamInfo<SmallCase>& info) {
  const auto [stages, si] = info.param;
  return stage_prefix(stages) + shape_name(kSmallShapes[si]) + "_clusters" + std::to_string(kSmallCaps[si]);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90PingPongSmall, ::testing::Combine(::testing::Values(4, 5), ::testing::Range(0, 3)),
                         small_case_name);

// --- D's ld padding ----------------------------------------------------------------------------------
// TMA stores write whole 16-byte chunks: with N % 8 != 0 and ld > N, a store clipped only at N
// would overwrite the caller's memory past each row.
TEST(Sm90PingPongPadding, LdPaddingStaysUntouched) {
  TCGEMM_REQUIRE_GPU(90);
  for (const auto& [stages, s] : {std::pair{4, Shape{130, 253, 72}}, std::pair{5, Shape{257, 515, 64}},
                                  std::pair{5, Shape{130, 253, 72}}}) {
    const GemmDesc g = tn_problem(DType::bf16, s, 16, 1.0f);
    const size_t na = stored_elements(extent_a(g), g.a.layout, g.a.ld);
    const size_t nb = stored_elements(extent_b(g), g.b.layout, g.b.ld);
    const size_t nd = stored_elements(extent_c(g), g.d.layout, g.d.ld);
    DeviceBuffer A(na * 2), B(nb * 2), D(nd * 2);
    ASSERT_TRUE(A.p && B.p && D.p);
    fill(A.p, na, DType::bf16);
    fill(B.p, nb, DType::bf16);
    ASSERT_EQ(cudaMemset(D.p, 0xFF, nd * 2), cudaSuccess);
    GemmArgs args;
    args.desc = g;
    args.a = A.p;
    args.b = B.p;
    args.d = D.p;
    const Status run = sm90_wgmma_ws_pingpong_launch(args, DType::bf16, stages);
    ASSERT_TRUE(run.ok()) << run.message();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint16_t> d(nd);
    ASSERT_EQ(cudaMemcpy(d.data(), D.p, nd * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    int64_t touched = 0, unwritten = 0;
    for (int64_t r = 0; r < g.m; ++r)
      for (int64_t c = 0; c < g.d.ld; ++c) {
        const bool poison = d[r * g.d.ld + c] == 0xFFFF;
        if (c >= g.n) touched += !poison;
        else unwritten += poison;
      }
    EXPECT_EQ(touched, 0) << shape_name(s) << ": the kernel wrote into D's ld padding";
    EXPECT_EQ(unwritten, 0) << shape_name(s) << ": elements of D left unwritten";
  }
}

// The small-M entry (gemm()'s pick for 64 < M <= 128 over many column tiles) through the registry:
// M just past 64 and at 128, an N tail, K tails; one cluster per pair-tile.
TEST(Sm90PingPong, SmallMEntryMatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  for (DType input : {DType::bf16, DType::f16}) {
    const KernelEntry* k = find_kernel(input == DType::bf16 ? "sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm"
                                                            : "sm90_wgmma_f16_64x256x64_s5_pingpong_smallm");
    ASSERT_NE(k, nullptr);
    for (Shape s : {Shape{100, 12288, 256}, Shape{65, 11800, 100}, Shape{128, 16384, 72}}) {
      const GemmDesc g = tn_problem(input, s, 0, 1.0f);
      if (!k->supports(g).ok()) GTEST_SKIP() << k->supports(g).message();  // fewer SMs than an H200
      SCOPED_TRACE(shape_name(s));
      run_and_check(*k, g, 0, /*twice=*/false);
    }
  }
}

// --- host ----------------------------------------------------------------------------------------------
TEST(Sm90PingPongHost, RegisteredByNameOnlyWithThePersistentClusterContract) {
  for (const char* name : {kNames[0][0], kNames[0][1], kNames[1][0], kNames[1][1]}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->preference, 0) << name;
    EXPECT_EQ(k->cluster_m, 2) << name;
    EXPECT_EQ(k->tile_m, 64) << name;
    EXPECT_EQ(k->tile_n, 256) << name;
    EXPECT_EQ(k->stages, std::string(name).find("_s4_") != std::string::npos ? 4 : 5) << name;
  }
  const GemmDesc ok = tn_problem(DType::bf16, {256, 256, 256}, 0, 1.0f);
  EXPECT_TRUE(sm90_wgmma_ws_pingpong_supports(ok, DType::bf16).ok());
  GemmDesc beta = ok;
  beta.beta = 1.0f;
  EXPECT_FALSE(sm90_wgmma_ws_pingpong_supports(beta, DType::bf16).ok());
  GemmDesc nn = ok;
  nn.b.layout = Layout::row;
  EXPECT_FALSE(sm90_wgmma_ws_pingpong_supports(nn, DType::bf16).ok());
  GemmDesc f32d = ok;
  f32d.d.dtype = DType::f32;
  EXPECT_FALSE(sm90_wgmma_ws_pingpong_supports(f32d, DType::bf16).ok());
  GemmDesc tf32 = ok;
  tf32.a.dtype = tf32.b.dtype = DType::tf32;
  tf32.d.dtype = tf32.c.dtype = DType::f32;
  EXPECT_FALSE(sm90_wgmma_ws_pingpong_supports(tf32, DType::tf32).ok());
}

TEST(Sm90PingPongHost, SmallMEntryTakesTwoRealTilesAPair) {
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->preference, 4);
  EXPECT_EQ(k->stages, 5);
  EXPECT_FALSE(k->supports(tn_problem(DType::bf16, {64, 12288, 4096})).ok()) << "M <= 64: swap A/B";
  EXPECT_FALSE(k->supports(tn_problem(DType::bf16, {129, 12288, 4096})).ok()) << "two 128-row tiles";
  // The CTA rule is for this device's SMs; the numbers below are an H200's 132 (96 and 64 CTAs).
  if (current_sm_count() != 132) GTEST_SKIP() << "the fill thresholds below assume 132 SMs";
  const GemmDesc wide = tn_problem(DType::bf16, {100, 12288, 4096});
  EXPECT_TRUE(k->supports(wide).ok()) << k->supports(wide).message();
  EXPECT_EQ(pick_kernel(wide).value(), "sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm");
  const GemmDesc narrow = tn_problem(DType::bf16, {128, 8192, 8192});
  EXPECT_FALSE(k->supports(narrow).ok()) << "64 CTAs: half the SMs";
  EXPECT_NE(pick_kernel(narrow).value(), "sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm");
}

}  // namespace
}  // namespace tcgemm
