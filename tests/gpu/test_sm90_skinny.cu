// The skinny kernel (sm90_mma_*_16x64_skinny): min(M, N) <= 16 on mma.sync, both operands streamed
// along K in 16-byte cp.async copies and realigned from shared memory. Every A/B layout (all but A
// row-major with B column-major are refused by design), aligned and odd ld's and 2-byte-offset
// base pointers (every phase of a 16-byte block), both orientations, sizes 1, 7, 33 and 4097, the
// automatic and forced cluster sizes, D and C dtypes and layouts; against the device reference
// with D NaN-poisoned and A/B allocated to their last byte (a load past an edge is a memcheck
// error), run twice for bitwise determinism. Host tests: the plan, the refusals, gemm()'s gate.
#include <cmath>
#include <iterator>
#include <string>
#include <tuple>

#include "analysis/path_rules.hpp"
#include "gpu/gemm_test_util.cuh"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/skinny_gemm.hpp"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_mma_bf16_16x64_skinny", "sm90_mma_f16_16x64_skinny"};
const Shape kShapes[] = {{1, 1, 1},     {2, 777, 4097}, {7, 33, 4097}, {16, 4097, 33},  {4, 7, 1},
                         {4097, 7, 65}, {617, 1, 633},  {9, 200, 300}, {8, 64, 8192},   {13, 1314, 1000},
                         {1000, 16, 513}, {16, 16, 16}, {3, 130, 8},   {11, 65, 2049}};
const int kCounts[] = {0, 1, 3, 8};  // 0: the plan's choice
constexpr int kLayouts = 4;          // A row/column x B row/column
constexpr int kAlignments = 3;       // odd ld's; tight ld's with the bases 2 bytes off; tight and aligned

using Case = std::tuple<int, int, int, int, int>;  // entry, shape, layouts, alignment, cluster size
class Sm90Skinny : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90Skinny, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, li, mi, ci] = GetParam();
  check_stream_case(kEntries[ei], ei == 0 ? DType::bf16 : DType::f16, kShapes[si], li, mi, kCounts[ci], ei + si + li + mi + ci);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, li, mi, ci] = info.param;
  const Shape s = kShapes[si];
  return std::string(ei == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + "_" + (li % 2 ? "Acol" : "Arow") + (li / 2 ? "Brow" : "Bcol") +
         (mi == 0 ? "_oddld" : mi == 1 ? "_base2" : "_tight") + "_splits" +
         (kCounts[ci] == 0 ? std::string("auto") : std::to_string(kCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(All, Sm90Skinny,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, kLayouts), ::testing::Range(0, kAlignments),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);

// Base pointers 2, 6, 10 and 14 bytes past 16 (phases 1, 3, 5, 7) on a tight, aligned ld: every
// column starts at the same odd phase, so the realignment's word selects all run.
TEST(Sm90SkinnyPhases, EveryBaseOffsetMatches) {
  TCGEMM_REQUIRE_GPU(90);
  const KernelEntry* k = find_kernel(kEntries[0]);
  ASSERT_NE(k, nullptr);
  for (size_t offset : {2, 4, 6, 8, 10, 12, 14}) {
    SCOPED_TRACE("base offset " + std::to_string(offset));
    GemmDesc g = ab_problem(DType::bf16, {5, 300, 1032}, Layout::row, Layout::column);
    g.a.pointer_alignment = g.b.pointer_alignment = 2;
    run_and_check(*k, g, offset, /*twice=*/true);
  }
}

GemmDesc problem(Shape s, Layout a, Layout b) {
  GemmDesc g = ab_problem(DType::bf16, s, a, b);
  g.d = g.c = {DType::bf16, Layout::row, 0};
  return g;
}

TEST(Sm90SkinnyHost, PlanOrientsTheSmallSideOntoTheRows) {
  const ForcedSplits automatic(0);
  SkinnyPlan t = plan_skinny(problem({2, 2332, 10604}, Layout::row, Layout::column));
  EXPECT_FALSE(t.swapped);
  EXPECT_FALSE(t.rows16);
  EXPECT_EQ(t.tiles, 37);  // ceil(2332 / 64)
  EXPECT_EQ(t.k_per_rank % 32, 0);
  EXPECT_GE(t.k_per_rank * t.splits, 10604);
  EXPECT_TRUE(t.realign_a && t.realign_b);  // ld 10604: 21208 bytes
  t = plan_skinny(problem({1314, 13, 10288}, Layout::row, Layout::column));
  EXPECT_TRUE(t.swapped);  // N the small side: the kernel's columns are A's rows
  EXPECT_TRUE(t.rows16);
  EXPECT_FALSE(t.realign_a || t.realign_b);  // ld 10288: 16-byte rows
  t = plan_skinny(problem({16, 8192, 8192}, Layout::row, Layout::column));
  EXPECT_EQ(t.tiles, 128);
  if (current_sm_count() == 132) EXPECT_EQ(t.splits, 8);  // 128 tiles x 8 >= 4 CTAs a SM
  const ForcedSplits forced(20);
  EXPECT_EQ(plan_skinny(problem({6, 9, 3000}, Layout::row, Layout::column)).splits, 8);  // the cluster cap
}

TEST(Sm90SkinnyHost, RefusesWhatItCannotRun) {
  const KernelEntry* k = find_kernel(kEntries[0]);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->supports(problem({16, 5000, 7}, Layout::row, Layout::column)).ok());
  EXPECT_TRUE(k->supports(problem({5000, 3, 7}, Layout::row, Layout::column)).ok());  // swapped
  const Status b_row = k->supports(problem({16, 5000, 7}, Layout::row, Layout::row));
  EXPECT_EQ(b_row.code(), StatusCode::unsupported);
  EXPECT_NE(b_row.message().find("column-major"), std::string::npos) << b_row.message();
  EXPECT_EQ(k->supports(problem({5000, 3, 7}, Layout::column, Layout::column)).code(), StatusCode::unsupported);
  EXPECT_EQ(k->supports(problem({17, 5000, 64}, Layout::row, Layout::column)).code(), StatusCode::unsupported);
  GemmDesc odd = problem({4, 64, 64}, Layout::row, Layout::column);
  odd.b.pointer_alignment = 1;
  EXPECT_EQ(k->supports(odd).code(), StatusCode::misaligned);
  GemmDesc f16 = problem({4, 64, 64}, Layout::row, Layout::column);
  f16.a.dtype = f16.b.dtype = DType::f16;
  EXPECT_EQ(k->supports(f16).code(), StatusCode::unsupported);
}

TEST(Sm90SkinnyHost, GemmTakesTheGatedEntryPastTheTinyGateWhereTmaIsRefused) {
  const KernelEntry* k = find_kernel("sm90_mma_bf16_16x64_skinny_stream");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->outranks_families);
  GemmDesc odd = problem({2, 2332, 10604}, Layout::row, Layout::column);  // K even, not a multiple of 8
  EXPECT_TRUE(k->supports(odd).ok()) << k->supports(odd).message();
  EXPECT_FALSE(k->supports(problem({16, 8192, 8192}, Layout::row, Layout::column)).ok());  // TMA-legal
  EXPECT_FALSE(k->supports(problem({7, 1000, 1001}, Layout::row, Layout::column)).ok());   // the tiny kernel's
  EXPECT_FALSE(k->supports(problem({16, 8191, 8191}, Layout::row, Layout::column)).ok());  // the row-class kernel's
  EXPECT_FALSE(skinny_kernel_gate(17, 5000, 5001, true, 132));
  EXPECT_TRUE(skinny_kernel_gate(13, 1314, 10284, true, 132));
  EXPECT_FALSE(skinny_kernel_gate(13, 1314, 10284, false, 132));
  EXPECT_TRUE(skinny_kernel_gate(491, 7, 3129, true, 132));    // 8 tiles x 8 ranks = 64 CTAs
  EXPECT_FALSE(skinny_kernel_gate(6, 219, 10047, true, 132));  // 4 tiles x 8 ranks
  EXPECT_FALSE(skinny_kernel_gate(8593, 2, 765, true, 132));   // K under 1024
  EXPECT_FALSE(skinny_kernel_gate(16, 2049, 1025, true, 132));  // 16 rows, K under 2048
  EXPECT_EQ(skinny_grid(2, 2332, 10604, 132).tiles * skinny_grid(2, 2332, 10604, 132).splits, 37 * 8);
}

// A NaN in A reaches exactly its row of D and an Inf in B its column, in both orientations, with K
// split over a cluster of 8 and the Inf inside a realigned edge chunk.
TEST(Sm90SkinnyNan, NanAndInfReachTheirRowAndColumn) {
  TCGEMM_REQUIRE_GPU(90);
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "N the small side" : "M the small side");
    GemmDesc g;
    g.m = swapped ? 100 : 12;
    g.n = swapped ? 12 : 100;
    g.k = 3001;  // odd: every column but the first starts off 16 bytes
    g.a = {DType::bf16, Layout::row, 0};
    g.b = {DType::bf16, Layout::column, 0};
    g.d = {DType::f32, Layout::row};
    const ForcedSplits forced(8);
    test::GemmBuffers buf(g, 5);
    constexpr int64_t kNanRow = 5, kNanK = 3, kInfK = 2999, kInfCol = 11;
    test::set_element(buf.a.get(), kNanRow * g.k + kNanK, g.a.dtype, std::nanf(""));  // A(5, 3)
    test::set_element(buf.b.get(), kInfCol * g.k + kInfK, g.b.dtype, INFINITY);       // B(2999, 11)
    const Status s = gemm_with_kernel(kEntries[0], g, buf.a.get(), buf.b.get(), nullptr, buf.d.get());
    ASSERT_TRUE(s.ok()) << s.to_string();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<float> d = test::download_d(g, buf.d.get());
    int bad = 0;
    for (int64_t r = 0; r < g.m; ++r)
      for (int64_t c = 0; c < g.n; ++c) {
        const float v = d[r * g.n + c];
        const bool good = r == kNanRow ? std::isnan(v) : c == kInfCol ? std::isinf(v) : std::isfinite(v);
        if (!good && bad++ < 8) ADD_FAILURE() << "D(" << r << "," << c << ") = " << v;
      }
    EXPECT_EQ(bad, 0);
  }
}

}  // namespace
}  // namespace tcgemm
