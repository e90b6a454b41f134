// The swapped fitting widths (src/kernels/sm90/pc_swap.hpp): D^T = B^T A^T on the cluster
// kernel's 128x144/160/176/192 tiles, whose epilogue then writes the swapped problem's column-major
// D (the caller's row-major D) as width x 64 boxes, C's likewise TMA-loaded where beta != 0.
// Against the device reference, bf16 and f16, every width, beta 0 and -0.5, M/N/K tails (M not a
// multiple of the width: the box's lines past M are clipped; N tails inside a tile row; K not a
// multiple of 64), D poisoned with NaN and its ld padding checked, on every cluster that fits and
// on one cluster walking every tile (the C buffer reused across tiles); each run twice and
// compared bit for bit. The registry entry gemm() picks, and the host rules: where gemm() swaps,
// and what the entry refuses.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/path_rules.hpp"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/pc_swap.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

struct Width {
  DType input;
  PcTile tile;
  const char* name;
};
const Width kWidths[] = {{DType::bf16, PcTile::m128n144, "bf16_128x144"}, {DType::bf16, PcTile::m128n160, "bf16_128x160"},
                         {DType::bf16, PcTile::m128n176, "bf16_128x176"}, {DType::bf16, PcTile::m128n192, "bf16_128x192"},
                         {DType::f16, PcTile::m128n144, "f16_128x144"},   {DType::f16, PcTile::m128n160, "f16_128x160"},
                         {DType::f16, PcTile::m128n176, "f16_128x176"},   {DType::f16, PcTile::m128n192, "f16_128x192"}};

// N % 8 == 0 (the entry's rule); M of 1 to 600 (one to five tile columns of the swapped problem,
// ragged); 600x12288 is ~3 rounds of pair-tiles on 66 clusters.
const Shape kShapes[] = {{1, 8, 1},         {7, 16, 7},        {33, 136, 33},      {129, 264, 129},
                         {154, 1136, 300},  {320, 1024, 256},  {385, 2056, 130},  {600, 12288, 64}};

// run_and_check takes a registry entry; this one launches a fixed width on a capped grid.
template <DType In, PcTile T, int kMaxClusters>
Status launch_width(const GemmArgs& a) {
  return sm90_pc_swap_launch(a, In, T, kMaxClusters);
}
template <int kMaxClusters>
auto launcher(const Width& w) -> Status (*)(const GemmArgs&) {
  const bool bf = w.input == DType::bf16;
  switch (w.tile) {
    case PcTile::m128n144: return bf ? &launch_width<DType::bf16, PcTile::m128n144, kMaxClusters> : &launch_width<DType::f16, PcTile::m128n144, kMaxClusters>;
    case PcTile::m128n160: return bf ? &launch_width<DType::bf16, PcTile::m128n160, kMaxClusters> : &launch_width<DType::f16, PcTile::m128n160, kMaxClusters>;
    case PcTile::m128n176: return bf ? &launch_width<DType::bf16, PcTile::m128n176, kMaxClusters> : &launch_width<DType::f16, PcTile::m128n176, kMaxClusters>;
    default: return bf ? &launch_width<DType::bf16, PcTile::m128n192, kMaxClusters> : &launch_width<DType::f16, PcTile::m128n192, kMaxClusters>;
  }
}

// width, shape, grid (0: every cluster that fits; 1: one cluster walks every tile)
using Case = std::tuple<int, int, int>;
class Sm90PcSwap : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PcSwap, MatchesDeviceReferenceTwice) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [wi, si, clusters] = GetParam();
  const Shape s = kShapes[si];
  if (small_only() && s.m * s.n > 400000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  if (clusters == 1 && s.m * s.n > 2000000) GTEST_SKIP() << "one cluster: the smaller shapes";
  const Width& w = kWidths[wi];
  // ld padded by 8 (D's padding checked), alpha 1.25 on odd shapes; every third shape reads C
  // (beta -0.5, its own buffer with a wider ld), C^T's box TMA-loaded into the epilogue's.
  GemmDesc g = tn_problem(w.input, s, 8, si % 2 ? 1.25f : 1.0f);
  if (si % 3 == 1) {
    g.beta = -0.5f;
    g.c = g.d;
    g.c.ld = g.d.ld + 16;
  }
  const Status sup = sm90_pc_swap_supports(g, w.input);
  ASSERT_TRUE(sup.ok()) << sup.message();
  KernelEntry k{};
  k.input = w.input;
  k.launch = clusters == 0 ? launcher<0>(w) : launcher<1>(w);
  run_and_check(k, g, 0, true);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [wi, si, clusters] = info.param;
  return std::string(kWidths[wi].name) + "_" + shape_name(kShapes[si]) + (clusters == 0 ? "_full" : "_one_cluster");
}

INSTANTIATE_TEST_SUITE_P(Widths, Sm90PcSwap,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kWidths))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Values(0, 1)),
                         case_name);

// --- the registry entry gemm() picks: the widths its rule chooses ----------------------------------
struct EntryCase {
  const char* entry;
  Shape shape;
};
const EntryCase kEntryCases[] = {{"sm90_wgmma_bf16_128xNfit_s4_pc2x1_swapab", {320, 8192, 512}},    // 160
                                 {"sm90_wgmma_bf16_128xNfit_s4_pc2x1_swapab", {154, 11328, 200}},   // 160
                                 {"sm90_wgmma_f16_128xNfit_s4_pc2x1_swapab", {384, 8192, 256}},     // 192
                                 {"sm90_wgmma_f16_128xNfit_s4_pc2x1_swapab", {640, 8192, 128}}};    // 160

class Sm90PcSwapEntries : public ::testing::TestWithParam<int> {};

TEST_P(Sm90PcSwapEntries, MatchesDeviceReferenceTwice) {
  TCGEMM_REQUIRE_GPU(90);
  if (small_only()) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const EntryCase& c = kEntryCases[GetParam()];
  const KernelEntry* k = find_kernel(c.entry);
  ASSERT_NE(k, nullptr) << c.entry;
  const GemmDesc g = tn_problem(k->input, c.shape, 0, 0.75f);
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  run_and_check(*k, g, 0, true);
}

INSTANTIATE_TEST_SUITE_P(Entries, Sm90PcSwapEntries, ::testing::Range(0, static_cast<int>(std::size(kEntryCases))),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string n = kEntryCases[info.param].entry;
                           return n.substr(std::string("sm90_wgmma_").size()) + "_" +
                                  shape_name(kEntryCases[info.param].shape);
                         });

// --- host: the rule and gemm()'s pick ------------------------------------------------------------
TEST(Sm90PcSwapHost, RuleSwapsWhereMPadsOrLeavesGhostRows) {
  EXPECT_EQ(swap_fit_tile_width(320, 8192, 132), 160);    // 2 x 160 = 320; 128x256: a quarter ghosts
  EXPECT_EQ(swap_fit_tile_width(384, 8192, 132), 192);    // 2 x 192
  EXPECT_EQ(swap_fit_tile_width(154, 11328, 132), 160);   // 154 in one 160 column; 128-row tiles pad 40%
  EXPECT_EQ(swap_fit_tile_width(640, 8192, 132), 160);    // 4 x 160: 2 rounds of 160 against 2 of 192
  EXPECT_EQ(swap_fit_tile_width(440, 10768, 132), 0);     // 2 rounds of 160 against 2 of 176: lost 3% (run 95)
  EXPECT_EQ(swap_fit_tile_width(256, 9216, 132), 0);      // the unswapped 144 fills one round already
  EXPECT_EQ(swap_fit_tile_width(768, 4096, 132), 0);      // the unswapped 192: 66 pair-tiles exactly
  EXPECT_EQ(swap_fit_tile_width(192, 11008, 132), 192);   // one 192 column, no padding: 43.6 against 45.4 us (run 101)
  EXPECT_EQ(swap_fit_tile_width(4096, 4096, 132), 0);
  EXPECT_EQ(swap_fit_tile_width(8192, 8192, 132), 0);
  EXPECT_EQ(swap_fit_tile_width(4224, 4224, 132), 0);     // the 192x192 tile's
  EXPECT_EQ(swap_fit_tile_width(128, 8192, 132), 0);      // M <= 128: swap-A/B's narrow tiles
  EXPECT_EQ(swap_fit_tile_width(8192, 320, 132), 0);      // N the short side: nothing to swap onto
  EXPECT_EQ(swap_fit_tile_width(256, 256, 132), 0);       // under half the clusters: split-K
}

TEST(Sm90PcSwapHost, GemmSwapsOnlyWhereTheEntryApplies) {
  for (DType in : {DType::bf16, DType::f16}) {
    const std::string want = std::string("sm90_wgmma_") + std::string(to_string(in)) + "_128xNfit_s4_pc2x1_swapab";
    GemmDesc g = tn_problem(in, {320, 8192, 8192});
    EXPECT_EQ(pick_kernel(g).value(), want);
    const KernelEntry* k = find_kernel(want);
    ASSERT_NE(k, nullptr);
    EXPECT_NE(k->function(), nullptr);
    EXPECT_TRUE(k->supports(g).ok());
    GemmDesc beta = g;  // C row-major in D's type: TMA-loaded as D's boxes
    beta.beta = 1.0f;
    EXPECT_EQ(pick_kernel(beta).value(), want);
    beta.c.layout = Layout::column;
    beta.c.ld = g.m;
    EXPECT_EQ(k->supports(beta).code(), StatusCode::unsupported);
    EXPECT_NE(pick_kernel(beta).value(), want);
    GemmDesc ragged = tn_problem(in, {320, 8188, 8192});  // N % 8 != 0
    EXPECT_EQ(k->supports(ragged).code(), StatusCode::unsupported);
    GemmDesc nn = g;  // B row-major: A^T would be M-major
    nn.b.layout = Layout::row;
    nn.b.ld = g.n;
    EXPECT_EQ(k->supports(nn).code(), StatusCode::unsupported);
    GemmDesc col_d = g;
    col_d.d.layout = Layout::column;
    col_d.d.ld = g.m;
    EXPECT_EQ(k->supports(col_d).code(), StatusCode::unsupported);
    // explain --measure predicts the tile the entry runs for the shape, in the caller's orientation.
    ASSERT_NE(k->tile_for, nullptr);
    EXPECT_EQ(k->tile_for(g), (std::pair<int, int>{160, 128}));
    const KernelEntry* fit = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + "_128xNfit_s4_pc2x1_tmastore");
    ASSERT_NE(fit, nullptr);
    ASSERT_NE(fit->tile_for, nullptr);
    EXPECT_EQ(fit->tile_for(tn_problem(in, {256, 9216, 8192})), (std::pair<int, int>{128, 144}));
    // The peak shapes and the unswapped widths' shapes keep their kernels.
    EXPECT_NE(pick_kernel(tn_problem(in, {4096, 4096, 4096})).value(), want);
    EXPECT_NE(pick_kernel(tn_problem(in, {256, 9216, 8192})).value(), want);
    EXPECT_NE(pick_kernel(tn_problem(in, {768, 4096, 4096})).value(), want);
  }
}

}  // namespace
}  // namespace tcgemm
