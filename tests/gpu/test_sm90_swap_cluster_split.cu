// Split-K of the swap tiles summed inside a cluster (swap_ab.hpp, in_cluster): every split count a
// cluster takes (2..8) on the 64- and 128-row tiles of widths 16 and 32 and on the 64- and 128-wide
// tiles (forced counts: their planner keeps the slabs), with M, N and K tails, alpha/beta and every
// D/C layout, against the device reference and twice bit for bit (the ranks are added in rank
// order); the plan's choice between cluster and slabs; gemm() on the decode shapes that split.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

// The swap entries of widths 16 and 32 (64 and 128 rows) for this input.
std::vector<const KernelEntry*> narrow_swap_entries(DType in) {
  std::vector<const KernelEntry*> found;
  for (const KernelEntry& k : kernel_registry()) {
    const std::string_view name = k.name;
    if (k.input == in && k.tile_m <= 32 && (name.ends_with("_swapab") || name.ends_with("_swapab_oneround")))
      found.push_back(&k);
  }
  return found;
}

// The swap entries of widths 64 and 128 (128 or 256 rows) for this input.
std::vector<const KernelEntry*> wide_swap_entries(DType in) {
  std::vector<const KernelEntry*> found;
  for (const KernelEntry& k : kernel_registry()) {
    const std::string_view name = k.name;
    if (k.input == in && k.tile_m > 32 && k.tile_m <= 128 && k.tile_n <= 256 &&
        (name.ends_with("x64_s9_swapab") || name.ends_with("x64_s7_swapab") || name.ends_with("x64_s14_swapab") ||
         name.ends_with("_swapab_wide")))
      found.push_back(&k);
  }
  return found;
}

GemmDesc tn_case(DType in, Shape s, int variant) {
  GemmDesc g;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.a = {in, Layout::row, (s.k + 7) / 8 * 8 + (variant % 2 ? 8 : 0)};
  g.b = {in, Layout::column, (s.k + 7) / 8 * 8};
  const DType outs[] = {in, DType::f32, in == DType::bf16 ? DType::f16 : DType::bf16};
  vary_epilogue(g, variant, outs);
  return g;
}

TEST(Sm90SwapClusterSplitHost, PlanSumsSmallSplitsOfNarrowTilesInClusters) {
  if (swap_cluster_split_disabled()) GTEST_SKIP() << "TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps the slabs";
  set_forced_split_k(0);
  GemmDesc g = tn_case(DType::bf16, {16, 4096, 4096}, 0);
  // 64 tiles of 64 rows: two splits fill 128 of 132 SMs, one cluster a tile, no workspace.
  SwapAbPlan p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 2);
  EXPECT_TRUE(p.in_cluster);
  EXPECT_EQ(p.workspace_bytes, 0u);
  // 32 tiles: 4 splits would fill 128 SMs, but only 30 clusters of 4 fit at once (GPCs of 16-18
  // SMs), 39 of 3: three splits in clusters, one round.
  g = tn_case(DType::bf16, {8, 2048, 2048}, 0);
  EXPECT_EQ(swap_cluster_capacity(swap_ab_variant(g.m), 4, 132), 30);
  EXPECT_EQ(swap_cluster_capacity(swap_ab_variant(g.m), 3, 132), 39);
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 3);
  EXPECT_TRUE(p.in_cluster);
  EXPECT_EQ(p.workspace_bytes, 0u);
  {
    // Past the portable cluster size the slabs and the reduce take it.
    const ForcedSplits forced(12);
    p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
    EXPECT_EQ(p.splits, 11);  // 32 k-blocks: 11 splits of 3
    EXPECT_FALSE(p.in_cluster);
    EXPECT_GT(p.workspace_bytes, 0u);
  }
  {
    // A forced count on the 64-wide tile is summed in clusters (the kernel has it) ...
    const ForcedSplits forced(2);
    g = tn_case(DType::bf16, {40, 4096, 4096}, 0);
    p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
    EXPECT_EQ(p.variant.tile_n, 64);
    EXPECT_TRUE(p.in_cluster);
    EXPECT_EQ(p.workspace_bytes, 0u);
  }
  if (!swap_cluster_split_wide()) {
    // ... but its own plan keeps the slab model (not measured in clusters as its default).
    g = tn_case(DType::bf16, {40, 4096, 4096}, 0);
    p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
    EXPECT_FALSE(p.in_cluster);
  }
  // The most splits whose clusters fit one round: 48 tiles take 2 (the slab model took 11 in four
  // rounds, 38 us against 26 in clusters of 2, run 191), 16 tiles 6.
  g = tn_case(DType::bf16, {16, 3072, 12288}, 0);
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 2);
  EXPECT_TRUE(p.in_cluster);
  g = tn_case(DType::bf16, {16, 1024, 4096}, 0);
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 6);
  EXPECT_TRUE(p.in_cluster);
  // Unsplit stays unsplit.
  g = tn_case(DType::bf16, {16, 8192, 8192}, 0);
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 1);
  EXPECT_FALSE(p.in_cluster);
}

// Past one round of 64-row tiles, a last round at most half full splits in two: 16x28672x8192 has
// 448 tiles, 3 rounds of 132 and 52 left; 16x24576x8192's 120 left run unsplit.
TEST(Sm90SwapClusterSplitHost, PlanSplitsAHalfEmptyLastRound) {
  if (swap_cluster_split_disabled()) GTEST_SKIP() << "TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps the slabs";
  set_forced_split_k(0);
  GemmDesc g = tn_case(DType::bf16, {16, 28672, 8192}, 0);
  SwapAbPlan p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.tail_first, 396);
  EXPECT_EQ(p.tail_splits, 2);
  EXPECT_EQ(p.workspace_bytes, 0u);
  g.n = 24576;
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.tail_splits, 1);
  g.n = 8192;  // one round
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).tail_splits, 1);
  g.n = 28672;
  g.k = 448;  // 7 k-blocks: too few to split
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).tail_splits, 1);
}

// The tail split straight on the narrow kernel (its own coordinates: M rows of 64-row tiles, the
// narrow N), so any tail runs whatever the SM count: tail_first whole clusters, then tiles in 2..8
// splits; against the device reference and twice bit for bit.
Sm90ClusterSplit g_tail;
Sm90WsVariant g_tail_variant;
Status tail_launch(const GemmArgs& a) {
  return sm90_wgmma_ws_launch_cluster_split(a, a.desc.a.dtype, g_tail_variant, g_tail);
}

void check_tail(DType in, Sm90WsVariant v, Shape sh, int64_t first, int splits, int variant) {
  const GemmDesc g = tn_case(in, sh, variant);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  ASSERT_TRUE(sm90_wgmma_ws_supports(g, in, v).ok()) << sm90_wgmma_ws_supports(g, in, v).message();
  const int64_t k_blocks = (sh.k + 63) / 64;
  g_tail = {};
  g_tail.tail_first = first;
  g_tail.tail_splits = splits;
  g_tail.tail_k_blocks_per_split = static_cast<int>((k_blocks + splits - 1) / splits);
  g_tail_variant = v;
  KernelEntry e;
  e.name = "tail split";
  e.min_sm = 90;
  e.input = in;
  e.launch = tail_launch;
  SCOPED_TRACE(to_string(v) + " " + shape_name(sh) + ", tiles from " + std::to_string(first) + " in " +
               std::to_string(splits) + " splits");
  run_and_check(e, g, 0, /*twice=*/true);
}

TEST(Sm90SwapClusterSplit, TailSplitsOnTheNarrowKernel) {
  TCGEMM_REQUIRE_GPU(90);
  int variant = 0;
  for (DType in : {DType::bf16, DType::f16})
    for (const Sm90WsVariant v : {sm90_wgmma_ws_narrow_variant(16, 1), sm90_wgmma_ws_narrow_variant(32, 1),
                                  sm90_wgmma_ws_narrow_variant(16, 2), sm90_wgmma_ws_narrow_variant(64, 2),
                                  sm90_wgmma_ws_narrow_variant(128, 2), sm90_wgmma_ws_narrow_variant(64, 4),
                                  sm90_wgmma_ws_narrow_variant(64, 1)})
      for (int splits = 2; splits <= kMaxClusterSplits; ++splits) {
        // 16 tiles of 64 or 128 rows, the last one partial; 3 k-blocks a split, the last one with
        // a K tail.
        const int64_t rows = 64 * v.consumers;
        const int64_t first = 13 / splits * splits;
        check_tail(in, v, {16 * rows - 24, v.tile_n - (variant % 3), 64 * 3 * splits - 7}, first, splits, variant);
        ++variant;
      }
}

// Refused: a tail that does not start at a cluster boundary, or splits that leave one empty.
TEST(Sm90SwapClusterSplit, TailSplitRefusesWhatItCannotRun) {
  TCGEMM_REQUIRE_GPU(90);
  GemmDesc g = tn_case(DType::bf16, {1000, 16, 1000}, 0);
  g.c = g.d = {DType::f32, Layout::row, 0};
  g.beta = 0.0f;
  DeviceBuffer a(1000 * 1000 * 2), b(1000 * 16 * 2), d(1000 * 16 * 4);
  GemmArgs args = device_args(g, a.p, b.p, d.p, nullptr, 0);
  Sm90ClusterSplit cs;
  cs.tail_first = 3;  // not a multiple of 2
  cs.tail_splits = 2;
  cs.tail_k_blocks_per_split = 8;
  EXPECT_EQ(sm90_wgmma_ws_launch_cluster_split(args, DType::bf16, sm90_wgmma_ws_narrow_variant(16, 1), cs).code(),
            StatusCode::internal);
  cs.tail_first = 4;
  cs.tail_k_blocks_per_split = 16;  // 16 k-blocks in 2 splits of 16: the second empty
  EXPECT_EQ(sm90_wgmma_ws_launch_cluster_split(args, DType::bf16, sm90_wgmma_ws_narrow_variant(16, 1), cs).code(),
            StatusCode::internal);
  cs.tail_k_blocks_per_split = 8;
  Sm90WsVariant thread_loads = sm90_wgmma_ws_narrow_variant(128, 2);
  thread_loads.thread_loads = true;
  EXPECT_EQ(sm90_wgmma_ws_launch_cluster_split(args, DType::bf16, thread_loads, cs).code(),
            StatusCode::internal);  // the thread-load tiles' sums are not compiled
  EXPECT_EQ(sm90_wgmma_ws_launch_cluster_split(args, DType::bf16, Sm90WsVariant{}, cs).code(),
            StatusCode::internal);  // nor the 256-wide tile's
  EXPECT_TRUE(sm90_wgmma_ws_launch_cluster_split(args, DType::bf16, sm90_wgmma_ws_narrow_variant(16, 1), cs).ok());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

using ClusterCase = std::tuple<DType, int, int>;  // input, shape index, splits
const Shape kClusterShapes[] = {{1, 100, 1000}, {7, 33, 4097}, {16, 1000, 1025}, {29, 777, 2049}, {32, 130, 513}};
// The 64- and 128-wide swap tiles at forced counts: M from 33 to 128 (the 128-wide tile also at
// M = 65 and 100, the 64-wide one with 256 rows where its fill rule admits N).
const Shape kWideClusterShapes[] = {{40, 300, 1000}, {64, 257, 4097}, {65, 130, 1025}, {100, 500, 2049}, {128, 129, 513}};

// Every entry of `entries` that takes the shape, at `splits` forced: clusters (no workspace),
// against the reference, twice bit for bit. Returns how many ran.
int check_forced_cluster_splits(const std::vector<const KernelEntry*>& entries, DType in, Shape sh, int splits,
                                int variant) {
  const ForcedSplits forced(splits);
  const GemmDesc g = tn_case(in, sh, variant);
  EXPECT_TRUE(validate(g).ok()) << validate(g).message();
  int ran = 0;
  for (const KernelEntry* k : entries) {
    if (!k->supports(g).ok()) continue;
    SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + ", splits " + std::to_string(k->split_k(g)));
    // Every shape has >= 8 k-blocks; the plan leaves no split empty, so 6 or 7 may come out fewer.
    EXPECT_GE(k->split_k(g), 2);
    EXPECT_LE(k->split_k(g), splits);
    EXPECT_EQ(k->workspace_bytes(g), 0u) << "a cluster sum needs no workspace";
    run_and_check(*k, g, 0, /*twice=*/true);
    ++ran;
  }
  return ran;
}

class Sm90SwapClusterSplit : public ::testing::TestWithParam<ClusterCase> {};

TEST_P(Sm90SwapClusterSplit, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  if (swap_cluster_split_disabled()) GTEST_SKIP() << "TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps the slabs";
  const auto [in, si, splits] = GetParam();
  const int ran = check_forced_cluster_splits(narrow_swap_entries(in), in, kClusterShapes[si], splits, si + splits);
  // The 64-row tile of the width always takes it (bf16 also has 128-row tiles by name, and gemm()'s
  // one-round entries where their rule admits N).
  EXPECT_GE(ran, in == DType::bf16 ? 2 : 1);
}

class Sm90SwapClusterSplitWide : public ::testing::TestWithParam<ClusterCase> {};

TEST_P(Sm90SwapClusterSplitWide, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  if (swap_cluster_split_disabled()) GTEST_SKIP() << "TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps the slabs";
  const auto [in, si, splits] = GetParam();
  EXPECT_GE(check_forced_cluster_splits(wide_swap_entries(in), in, kWideClusterShapes[si], splits, si + splits), 1);
}

// Every input, shape index of a table of n, and split count a cluster takes; named by the table's shape.
auto cluster_cases(int n) {
  return ::testing::Combine(::testing::Values(DType::bf16, DType::f16), ::testing::Range(0, n),
                            ::testing::Range(2, kMaxClusterSplits + 1));
}
std::string cluster_case_name(const Shape* shapes, const ClusterCase& c) {
  const auto [in, si, splits] = c;
  return std::string(to_string(in)) + "_" + shape_name(shapes[si]) + "_splits" + std::to_string(splits);
}

INSTANTIATE_TEST_SUITE_P(Splits, Sm90SwapClusterSplit, cluster_cases(static_cast<int>(std::size(kClusterShapes))),
                         [](const auto& info) { return cluster_case_name(kClusterShapes, info.param); });
INSTANTIATE_TEST_SUITE_P(Splits, Sm90SwapClusterSplitWide,
                         cluster_cases(static_cast<int>(std::size(kWideClusterShapes))),
                         [](const auto& info) { return cluster_case_name(kWideClusterShapes, info.param); });

// Small, for compute-sanitizer (TCGEMM_TEST_SMALL=1 runs *Small*): both widths and row counts,
// 2, 3 and 8 ranks.
TEST(Sm90SwapClusterSplitSmall, RanksSumInOrder) {
  TCGEMM_REQUIRE_GPU(90);
  if (swap_cluster_split_disabled()) GTEST_SKIP() << "TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps the slabs";
  for (const Shape sh : {Shape{5, 150, 520}, Shape{24, 70, 1000}})
    for (int splits : {2, 3, 8}) check_forced_cluster_splits(narrow_swap_entries(DType::bf16), DType::bf16, sh, splits, splits);
  // The 64- and 128-wide tiles' 16 and 32 KB sums a consumer.
  for (const Shape sh : {Shape{50, 150, 520}, Shape{100, 70, 1000}})
    for (int splits : {2, 8})
      EXPECT_GE(check_forced_cluster_splits(wide_swap_entries(DType::bf16), DType::bf16, sh, splits, splits), 1);
}

// The 64-row entries on decode shapes whose tiles leave SMs idle (their plan splits them in
// clusters), and how many clusters of each size fit at once (printed: the plan assumes a round).
TEST(Sm90SwapClusterSplit, DecodeShapesThatSplit) {
  TCGEMM_REQUIRE_GPU(90);
  for (const Shape sh : {Shape{16, 4096, 4096}, Shape{8, 2048, 2048}, Shape{1, 4096, 4096}, Shape{32, 4096, 4096}}) {
    GemmDesc g = tn_case(DType::bf16, sh, 0);
    g.d = g.c = {DType::bf16, Layout::row, 0};
    g.alpha = 1.0f;
    g.beta = 0.0f;
    const KernelEntry* k = nullptr;
    for (const KernelEntry* e : narrow_swap_entries(DType::bf16))
      if (std::string_view(e->name).ends_with("x64x64_s16_swapab") && e->supports(g).ok()) k = e;
    ASSERT_NE(k, nullptr) << shape_name(sh);
    if (current_sm_count() == 132) EXPECT_GT(k->split_k(g), 1) << shape_name(sh);
    SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + " splits " + std::to_string(k->split_k(g)));
    run_and_check(*k, g, 0, /*twice=*/true);
  }
  const void* fn = sm90_wgmma_ws_function(DType::bf16, false, swap_ab_variant(16));
  const Sm90WsShape s = sm90_wgmma_ws_shape(DType::bf16, swap_ab_variant(16));
  for (unsigned c = 2; c <= static_cast<unsigned>(kMaxClusterSplits); ++c) {
    const Result<int> r = resident_clusters(fn, c, s.threads, s.smem_bytes);
    ASSERT_TRUE(r.ok()) << r.status().message();
    std::printf("  64x16 swap tile: %d clusters of %u resident (%d CTAs)\n", r.value(), c, r.value() * static_cast<int>(c));
  }
}

}  // namespace
}  // namespace tcgemm
