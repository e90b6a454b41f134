// Swap A/B for small M (sm90_wgmma_*_swapab and the narrow tiles) against the device reference:
// D^T = B^T A^T puts the large N on wgmma's 64-row side. Forced split counts, tails, every D/C type
// and layout, each run twice and compared bit for bit; which entry gemm() takes for M <= 128, and
// what the swapped descriptor and plan look like (host checks, no GPU needed).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/path_rules.hpp"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/element.cuh"
#include "kernels/common/repack.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/pc_repack.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "reference/reference_gemm.hpp"
#include "runtime/cublaslt_provider.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const DType kOutTypes[] = {DType::bf16, DType::f32, DType::f16};

// --- swap A/B (small M) ----------------------------------------------------------------------
const Shape kSwapShapes[] = {{1, 1, 1},      {7, 33, 7},       {16, 1000, 1001}, {17, 129, 4097}, {33, 4097, 64},
                             {64, 256, 8192}, {65, 300, 33},   {100, 2000, 3000}, {128, 1024, 1024}};
const int kSwapSplitCounts[] = {0, 1, 3, 64};

// The swap entries that take this M: the one gemm() may run (preference 4, or 3 for the 128-wide
// tile, level with planned split-K) first, then any 128-row alternate of the same width. (The
// cluster kernel's swapped widths, *_pc2x1_swapab, take M > 128 only: none of these shapes.)
std::vector<const KernelEntry*> swap_entries_for(const GemmDesc& g) {
  std::vector<const KernelEntry*> found;
  for (const KernelEntry& k : kernel_registry())
    if (k.input == g.a.dtype && std::string_view(k.name).ends_with("_swapab") && k.supports(g).ok()) {
      EXPECT_TRUE(k.split_k && k.workspace_bytes) << k.name << ": a swap entry for M <= 128 without its plan";
      if (!k.split_k || !k.workspace_bytes) continue;
      found.insert(k.preference >= 3 ? found.begin() : found.end(), &k);
    }
  EXPECT_FALSE(found.empty()) << "no swap entry for M = " << g.m;
  // Width 64 runs its 64-row tile (preference 5) where those tiles fit one round (run 194).
  const int preferred = g.m > 64 ? 3 : tiles64x64_fit_one_round(g.m, g.n, current_sm_count()) ? 5 : 4;
  if (!found.empty())
    EXPECT_EQ(found.front()->preference, preferred) << "no preferred swap entry for M = " << g.m;
  return found;
}

// M = 128: split-K on 128x256 where its plan fits one round (measured faster); the ping-pong
// kernel's 64-row tiles where many columns fill the SMs (bench/NOTES.md, "Small M on the ping-pong
// kernel"); M = 64 keeps the swap tile. The 128-wide swap tile takes TN problems neither takes.
TEST(Sm90SwapABHost, WhoTakesMOf128) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {128, 8192, 28672})).value(), "sm90_wgmma_bf16_128xN_ws_splitk");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {128, 57344, 8192})).value(),
            "sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 28672, 8192})).value(), "sm90_wgmma_bf16_64x256x64_s5_swapab_wide");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {48, 57344, 8192})).value(), "sm90_wgmma_bf16_64x256x64_s5_swapab_wide");
  // Below 80% of the SMs in 256-row tiles: 64x64 tiles where they fit one round (run 194: 42.5 us
  // against 47.2 at 64x8192x8192 swapped; run 199: 40.5 unswapped), swapped where A or B is not
  // K-major; else the 128-row swap tile (0.88x against 0.84x for 256 rows at N = 8192).
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 8192, 8192})).value(), "sm90_wgmma_bf16_64x64x64_s14_narrow_midm");
  EXPECT_EQ(pick_kernel(tn_problem(DType::f16, {64, 8448, 8192})).value(), "sm90_wgmma_f16_64x64x64_s14_narrow_midm");
  GemmDesc nn = tn_problem(DType::bf16, {64, 8192, 8192});
  nn.b.layout = Layout::row;
  nn.b.ld = 8192;
  EXPECT_EQ(pick_kernel(nn).value(), "sm90_wgmma_bf16_64x64x64_s14_swapab");
  // A column-major: the unswapped 64x64 tile reads it MN-major where K is long (run 215), else the
  // 128-row split-K tile as before.
  GemmDesc tt = tn_problem(DType::bf16, {64, 3072, 12288});
  tt.a = {DType::bf16, Layout::column, 64};
  EXPECT_EQ(pick_kernel(tt).value(), "sm90_wgmma_bf16_64x64x64_s14_narrow_midm");
  tt.k = 4096;
  EXPECT_EQ(pick_kernel(tt).value(), "sm90_wgmma_bf16_128xN_ws_splitk");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 8449, 8192})).value(), "sm90_wgmma_bf16_64x128x64_s9_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 26880, 8192})).value(), "sm90_wgmma_bf16_64x128x64_s9_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {32, 28672, 8192})).value(), "sm90_wgmma_bf16_32x64x64_s16_swapab");
}

// M <= 32: 128 rows of N a CTA where 64 would take a second round and 128 fit one (run 174); the
// decode shapes whose 64-row tiles fit one round, and N past two rounds of 128, keep 64 rows.
TEST(Sm90SwapABHost, NarrowTilesTake128RowsForOneRound) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the rule's bounds are for 132 SMs";
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {26, 9666, 32})).value(), "sm90_wgmma_bf16_32x128x64_s11_swapab_oneround");
  EXPECT_EQ(pick_kernel(tn_problem(DType::f16, {16, 16384, 2048})).value(), "sm90_wgmma_f16_16x128x64_s12_swapab_oneround");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {16, 8192, 8192})).value(), "sm90_wgmma_bf16_16x64x64_s16_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {16, 8448, 64})).value(), "sm90_wgmma_bf16_16x64x64_s16_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {32, 16897, 64})).value(), "sm90_wgmma_bf16_32x64x64_s16_swapab");
  EXPECT_TRUE(swap_narrow_takes_128_rows(32, 8449, 132));
  EXPECT_TRUE(swap_narrow_takes_128_rows(1, 16896, 132));
  EXPECT_FALSE(swap_narrow_takes_128_rows(33, 9000, 132));  // the 64-wide tile has its own rules
}

// gemm()'s 128-row entries of widths 16 and 32 on shapes their rule admits, with a K tail, alpha,
// beta and an f32 D, against the device reference and twice bit for bit.
TEST(Sm90SwapABOneRound, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : {Shape{13, 9000 - 3, 200}, Shape{26, 16384, 32}}) {
      const std::string name = std::string("sm90_wgmma_") + std::string(to_string(in)) +
                               (sh.m <= 16 ? "_16x128x64_s12" : "_32x128x64_s11") + "_swapab_oneround";
      const KernelEntry* k = find_kernel(name);
      ASSERT_NE(k, nullptr) << name;
      GemmDesc g = tn_problem(in, sh, 0, -0.5f);
      if (sh.m > 16) {
        g.c = g.d = {DType::f32, Layout::row, 0};
        g.beta = 0.25f;
      }
      if (current_sm_count() == 132) ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
      if (!k->supports(g).ok()) continue;
      run_and_check(*k, g, 0, /*twice=*/true);
    }
}

// gemm()'s entry for the wide tile on a shape its rule admits, with a K tail and alpha, against
// the device reference and twice bit for bit (the by-name entry is in Sm90SwapAB's cases).
TEST(Sm90SwapABWide, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  for (DType in : {DType::bf16, DType::f16}) {
    const KernelEntry* k = find_kernel(in == DType::bf16 ? "sm90_wgmma_bf16_64x256x64_s5_swapab_wide"
                                                         : "sm90_wgmma_f16_64x256x64_s5_swapab_wide");
    ASSERT_NE(k, nullptr);
    GemmDesc g = tn_problem(in, {37, 28672 - 5, 200}, 0, -0.5f);
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

// gemm()'s unswapped 64x64 tile for M of 33-64 on shapes its rule admits (ragged N, a K tail, one
// tile, forced cluster splits), alpha, beta, f32 and column-major D, against the device reference
// and twice bit for bit.
TEST(Sm90NarrowMidM, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape shapes[] = {{37, 8448 - 5, 200}, {64, 4096, 4097}, {33, 1, 64}, {50, 130, 1000}};
  int variant = 0;
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : shapes)
      for (int forced : {0, 3, 8}) {
        ++variant;
        const ForcedSplits f(forced);
        const KernelEntry* k = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + "_64x64x64_s14_narrow_midm");
        ASSERT_NE(k, nullptr);
        GemmDesc g = tn_problem(in, sh, 0, variant % 2 ? -0.5f : 1.0f);
        if (variant % 3 == 0) {
          g.c = g.d = {DType::f32, variant % 2 ? Layout::column : Layout::row, 0};
          g.beta = 0.25f;
        }
        ASSERT_TRUE(validate(g).ok()) << validate(g).message();
        SCOPED_TRACE(shape_name(sh) + ", forced " + std::to_string(forced) + ", splits " + std::to_string(k->split_k(g)));
        if (current_sm_count() == 132) ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
        if (!k->supports(g).ok()) continue;
        EXPECT_EQ(k->workspace_bytes(g), 0u) << "the 64x64 tile sums its splits in clusters";
        run_and_check(*k, g, 0, /*twice=*/true);
      }
}

// A column-major A (M contiguous) on the unswapped narrow tiles: 64x64 MN-major boxes of A, B
// K-major; every narrow entry by name, and gemm()'s pick where the 64x64 rule holds.
TEST(Sm90NarrowMidM, ColumnMajorA) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape shapes[] = {{37, 8448 - 5, 200}, {64, 4096, 4097}, {33, 1, 64}, {50, 130, 1000}, {7, 100, 33},
                          {40, 300, kNarrow64MnMajorAMinK + 5}};
  int variant = 0;
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : shapes)
      for (int forced : {0, 3}) {
        ++variant;
        const ForcedSplits f(forced);
        GemmDesc g = tn_problem(in, sh, 0, variant % 2 ? -0.5f : 1.0f);
        g.a = {in, Layout::column, round_up(sh.m, 8) + (variant % 3 == 0 ? 8 : 0)};
        if (variant % 2 == 0) {
          g.c = g.d = {DType::f32, variant % 4 == 0 ? Layout::column : Layout::row, 0};
          g.beta = 0.25f;
        }
        ASSERT_TRUE(validate(g).ok()) << validate(g).message();
        for (const char* tile : {"_64x64x64_s14_narrow_midm", "_64x64x64_s14_narrow", "_64x32x64_s16_narrow",
                                 "_64x16x64_s16_narrow"}) {
          const KernelEntry* k = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + tile);
          if (k == nullptr && in == DType::f16) continue;  // 64x16 and 64x32 are bf16 only
          ASSERT_NE(k, nullptr) << tile;
          SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + ", forced " + std::to_string(forced) +
                       ", splits " + std::to_string(k->split_k(g)));
          const bool midm = std::string_view(tile) == "_64x64x64_s14_narrow_midm";
          if (!midm || (tiles64x64_fit_one_round(g.m, g.n, current_sm_count()) && g.k >= kNarrow64MnMajorAMinK))
            ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
          if (!k->supports(g).ok()) continue;
          run_and_check(*k, g, 0, /*twice=*/true);
        }
      }
}

using SwapCase = std::tuple<DType, int, int>;  // input, shape index, split-count index
class Sm90SwapAB : public ::testing::TestWithParam<SwapCase> {};

TEST_P(Sm90SwapAB, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, ci] = GetParam();
  const Shape sh = kSwapShapes[si];
  const ForcedSplits forced(kSwapSplitCounts[ci]);
  const int variant = si + ci;
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, Layout::row, 0};
  g.b = {input, variant % 2 ? Layout::row : Layout::column, 0};
  g.a.ld = (tight_ld(extent_a(g), g.a.layout) + 7) / 8 * 8;
  g.b.ld = (tight_ld(extent_b(g), g.b.layout) + 7) / 8 * 8 + (variant % 3 == 0 ? 8 : 0);
  g.d = {kOutTypes[variant % 3], variant % 4 == 1 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (variant % 2 ? 3 : 0);
  g.c = {kOutTypes[(variant + 1) % 3], variant % 4 < 2 ? Layout::row : Layout::column, 0};
  g.alpha = variant % 2 ? 1.0f : -0.75f;
  g.beta = variant % 3 == 2 ? 0.0f : 0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  for (const KernelEntry* k : swap_entries_for(g)) {
    SCOPED_TRACE(std::string(k->name) + ", splits " + std::to_string(k->split_k(g)));
    const GemmDesc s = swapped_desc(g);  // the slabs are D^T's
    // 2..8 splits are summed in a cluster, without slabs (swap_ab.hpp): forced counts on every swap
    // tile the kernel compiles it for (widths up to kMaxClusterSumWidth), the plan's own counts on the
    // one-consumer tiles (256 threads) and widths 16/32; the 64/128-wide two-consumer tiles plan slabs.
    const bool forced_count = kSwapSplitCounts[ci] > 0;
    const bool cluster = !swap_cluster_split_disabled() && k->split_k(g) > 1 && k->split_k(g) <= kMaxClusterSplits &&
                         k->tile_m <= kMaxClusterSumWidth &&
                         (forced_count || k->tile_m <= 32 || k->threads == 256 || swap_cluster_split_wide());
    const bool slabs = k->split_k(g) > 1 && !cluster;
    EXPECT_EQ(k->workspace_bytes(g), slabs ? split_slabs_bytes(s.m, s.n, s.d.layout == Layout::row, k->split_k(g)) : 0u);
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

std::string swap_name(const ::testing::TestParamInfo<SwapCase>& info) {
  const auto [input, si, ci] = info.param;
  return std::string(to_string(input)) + "_" + shape_name(kSwapShapes[si]) + "_splits" +
         (kSwapSplitCounts[ci] == 0 ? std::string("auto") : std::to_string(kSwapSplitCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90SwapAB,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kSwapShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kSwapSplitCounts)))),
                         swap_name);

// A bf16 problem of shape sh with a row-major A and a B of layout lb, their lds padded to 8 elements.
GemmDesc small_swap_desc(Shape sh, Layout lb) {
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {DType::bf16, Layout::row, (sh.k + 7) / 8 * 8};
  g.b = {DType::bf16, lb, ((lb == Layout::row ? sh.n : sh.k) + 7) / 8 * 8};
  return g;
}

// Small, for compute-sanitizer (TCGEMM_TEST_SMALL=1 runs *Small*).
TEST(Sm90SwapABSmall, NarrowTilesWithAndWithoutSplits) {
  TCGEMM_REQUIRE_GPU(90);
  for (const Shape sh : {Shape{5, 200, 300}, Shape{40, 130, 129}, Shape{120, 64, 200}})
    for (int splits : {1, 3}) {
      const ForcedSplits forced(splits);
      GemmDesc g = small_swap_desc(sh, Layout::column);
      g.c = g.d = {DType::f32, Layout::row, 0};
      g.beta = 0.25f;
      for (const KernelEntry* k : swap_entries_for(g)) {
        SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + " splits " + std::to_string(splits));
        run_and_check(*k, g, 0, false);
      }
    }
}

// A row-major 16-bit D with beta == 0 is the swapped kernel's column-major D^T: with ldd % 8 == 0
// it goes out 8 rows a 16-byte store (store_staged_cols16), ragged row and column tails element by
// element; an odd ldd keeps the per-element loop. Both against the device reference.
TEST(Sm90SwapABSmall, ColumnStoresOf16BitD) {
  TCGEMM_REQUIRE_GPU(90);
  int variant = 0;
  for (const Shape sh : {Shape{5, 200, 300}, Shape{40, 130, 129}, Shape{120, 64, 200}, Shape{64, 1003, 64}})
    for (int splits : {1, 3}) {
      ++variant;
      const ForcedSplits forced(splits);
      GemmDesc g = small_swap_desc(sh, variant % 3 == 0 ? Layout::row : Layout::column);
      g.d = {variant % 2 ? DType::f16 : DType::bf16, Layout::row, (sh.n + 7) / 8 * 8 + (variant % 4 == 3 ? 3 : 8)};
      g.c = g.d;
      g.alpha = -0.5f;
      ASSERT_TRUE(validate(g).ok()) << validate(g).message();
      for (const KernelEntry* k : swap_entries_for(g)) {
        SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + " splits " + std::to_string(splits) + " ldd " +
                     std::to_string(g.d.ld));
        run_and_check(*k, g, 0, false);
      }
    }
}

TEST(Sm90SwapABHost, SwappedDescAndPlan) {
  set_forced_split_k(0);
  GemmDesc g;
  g.m = 16;
  g.n = 8192;
  g.k = 8192;
  g.a = {DType::bf16, Layout::row, 8200};
  g.b = {DType::bf16, Layout::column, 0};
  g.d = {DType::bf16, Layout::row, 0};
  const GemmDesc s = swapped_desc(g);
  EXPECT_EQ(s.m, 8192);
  EXPECT_EQ(s.n, 16);
  EXPECT_EQ(s.a.layout, Layout::row);     // B^T of a column-major B: K contiguous, row-major
  EXPECT_EQ(s.a.ld, 8192);
  EXPECT_EQ(s.b.layout, Layout::column);  // A^T of a row-major A
  EXPECT_EQ(s.b.ld, 8200);
  EXPECT_EQ(s.d.layout, Layout::column);
  EXPECT_EQ(s.d.ld, 8192);
  EXPECT_TRUE(validate(s).ok()) << validate(s).message();
  // 128 tiles of 64 rows of N: one wave on 132 SMs without a split.
  SwapAbPlan p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.variant, (Sm90WsVariant{16, 16, 1}));
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.workspace_bytes, 0u);
  // The 128-row alternate: 64 tiles, two splits fill 128 of 132 SMs, summed in clusters of 2.
  p = plan_swap_ab(g, 132, sm90_wgmma_ws_narrow_variant(16));
  EXPECT_EQ(p.splits, 2);
  EXPECT_EQ(p.in_cluster, !swap_cluster_split_disabled());
  EXPECT_EQ(p.workspace_bytes, p.in_cluster ? 0u : 2u * 16 * 8192 * 4);
  g.m = 64;
  g.n = 28672;  // 224 tiles: 1.7 waves unsplit
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.variant, sm90_wgmma_ws_narrow_variant(64));
  EXPECT_GE(p.splits, 1);
  EXPECT_LE(p.splits, 32);
  // Tiles on half the SMs or more are not split (run 59); fewer still are.
  g.n = 12288;
  g.k = 4096;
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 96 tiles of 128 rows
  g.m = 16;
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 192 tiles of 64 rows
  g.m = 64;
  g.n = 8192;
  g.k = 8192;
  EXPECT_GT(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 64 tiles
  g.n = 28672;
  EXPECT_EQ(swap_ab_tile_n(1), 16);
  EXPECT_EQ(swap_ab_tile_n(17), 32);
  EXPECT_EQ(swap_ab_tile_n(65), 128);
  {
    const ForcedSplits forced(5);
    EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 5);
  }
}

TEST(Sm90SwapABHost, RefusesWhatItCannotRun) {
  GemmDesc g;
  g.m = 129;
  g.n = 1024;
  g.k = 1024;
  EXPECT_EQ(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(128)).code(), StatusCode::unsupported);
  g.m = 16;
  EXPECT_TRUE(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16)).ok())
      << sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16)).message();
  EXPECT_EQ(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(32)).code(), StatusCode::unsupported);
  g.a.layout = Layout::column;
  const Status s = sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16));
  EXPECT_EQ(s.code(), StatusCode::unsupported);
  EXPECT_NE(s.message().find("row-major"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace tcgemm
