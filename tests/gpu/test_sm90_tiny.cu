// The tiny kernel (sm90_simt_*_16x32_tiny): min(M, N) <= 64 (16 rows a CTA) on the CUDA cores in one
// launch, K summed over a cluster's CTAs. Every A/B layout, odd ld's and 2-byte-offset base pointers, both
// orientations (N the small side: A/B swapped), sizes 1, 7, 33 and 4097, the automatic and forced
// cluster sizes, D and C dtypes and layouts; against the device reference with D NaN-poisoned, run
// twice for bitwise determinism. Host tests: the plan, the refusals, gemm()'s gate.
#include <cmath>
#include <iterator>
#include <string>
#include <tuple>

#include "gpu/gemm_test_util.cuh"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/tiny_gemm.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_simt_bf16_16x32_tiny", "sm90_simt_f16_16x32_tiny"};
const Shape kShapes[] = {{1, 1, 1},      {1, 617, 633}, {7, 33, 4097}, {16, 4097, 33}, {4, 7, 1},
                         {4097, 7, 65},  {617, 1, 633}, {33, 16, 300}, {8, 9, 2000},  {14, 3, 650},
                         // past 16 rows: blocks of 16, the last one partial
                         {42, 40, 456},  {1000, 33, 77}, {64, 4097, 33}, {17, 64, 1}};
const int kCounts[] = {0, 1, 3, 8};  // 0: the plan's choice
constexpr int kLayouts = 4;          // A row/column x B row/column
constexpr int kMisalign = 2;         // odd ld's, or tight ld's with the base pointers 2 bytes off

using Case = std::tuple<int, int, int, int, int>;  // entry, shape, layouts, misalignment, cluster size
class Sm90Tiny : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90Tiny, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, li, mi, ci] = GetParam();
  check_stream_case(kEntries[ei], ei == 0 ? DType::bf16 : DType::f16, kShapes[si], li, mi, kCounts[ci], ei + si + li + mi + ci);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, li, mi, ci] = info.param;
  const Shape s = kShapes[si];
  return std::string(ei == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + "_" + (li % 2 ? "Acol" : "Arow") + (li / 2 ? "Brow" : "Bcol") +
         (mi == 0 ? "_oddld" : "_base2") + "_splits" + (kCounts[ci] == 0 ? std::string("auto") : std::to_string(kCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(All, Sm90Tiny,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, kLayouts), ::testing::Range(0, kMisalign),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);

GemmDesc problem(Shape s, Layout a, Layout b) {
  GemmDesc g = ab_problem(DType::bf16, s, a, b);
  g.d = g.c = {DType::bf16, Layout::row, 0};
  return g;
}

TEST(Sm90TinyHost, PlanOrientsTheSmallSideOntoTheRows) {
  const ForcedSplits automatic(0);
  TinyPlan t = plan_tiny(problem({1, 617, 633}, Layout::row, Layout::row));
  EXPECT_FALSE(t.swapped);
  EXPECT_EQ(t.tile_m, 1);
  EXPECT_FALSE(t.k_major);  // B row-major: lanes along N
  EXPECT_EQ(t.tiles, 20);   // ceil(617 / 32)
  EXPECT_EQ(t.splits, 4);
  EXPECT_GE(t.k_per_rank * t.splits, 633);
  t = plan_tiny(problem({617, 14, 4097}, Layout::row, Layout::column));
  EXPECT_TRUE(t.swapped);
  EXPECT_EQ(t.tile_m, 16);
  EXPECT_TRUE(t.k_major);  // the kernel's B is A^T, row-major A: contiguous along K
  EXPECT_EQ(t.splits, 4);  // 20 tiles: clusters of 8 would take two rounds
  EXPECT_EQ(t.row_blocks, 1);
  t = plan_tiny(problem({42, 40, 456}, Layout::column, Layout::column));
  EXPECT_TRUE(t.swapped);
  EXPECT_EQ(t.tile_m, 16);
  EXPECT_EQ(t.row_blocks, 3);  // 40 rows of N
  EXPECT_EQ(t.tiles, 2);       // 42 columns of M
  EXPECT_EQ(t.splits, 8);      // 6 clusters of 8 fit one round
  t = plan_tiny(problem({6, 9, 3}, Layout::column, Layout::column));
  EXPECT_EQ(t.tile_m, 8);
  EXPECT_EQ(t.splits, 1);
  const ForcedSplits forced(20);
  EXPECT_EQ(plan_tiny(problem({6, 9, 3000}, Layout::row, Layout::column)).splits, 8);  // the cluster cap
  EXPECT_EQ(plan_tiny(problem({6, 9, 5}, Layout::row, Layout::column)).splits, 5);     // at most K
}

TEST(Sm90TinyHost, RefusesWhatItCannotRun) {
  const KernelEntry* k = find_kernel(kEntries[0]);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->supports(problem({16, 5000, 7}, Layout::column, Layout::row)).ok());
  EXPECT_TRUE(k->supports(problem({64, 5000, 7}, Layout::row, Layout::column)).ok());  // 4 row blocks
  EXPECT_EQ(k->supports(problem({65, 65, 64}, Layout::row, Layout::column)).code(), StatusCode::unsupported);
  GemmDesc odd = problem({4, 64, 64}, Layout::row, Layout::column);
  odd.a.pointer_alignment = 1;
  EXPECT_EQ(k->supports(odd).code(), StatusCode::misaligned);
  GemmDesc f16 = problem({4, 64, 64}, Layout::row, Layout::column);
  f16.a.dtype = f16.b.dtype = DType::f16;
  EXPECT_EQ(k->supports(f16).code(), StatusCode::unsupported);
  GemmDesc s8d = problem({4, 64, 64}, Layout::row, Layout::column);
  s8d.d.dtype = DType::s8;
  EXPECT_EQ(k->supports(s8d).code(), StatusCode::unsupported);
}

TEST(Sm90TinyHost, GemmTakesTheGatedEntryForTinyProblemsOnly) {
  const KernelEntry* k = find_kernel("sm90_simt_bf16_16x32_tiny_small");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->outranks_families);
  EXPECT_TRUE(k->supports(problem({1, 617, 633}, Layout::row, Layout::row)).ok());
  EXPECT_TRUE(k->supports(problem({248, 1, 74}, Layout::row, Layout::column)).ok());
  const Status big = k->supports(problem({16, 8192, 8192}, Layout::row, Layout::column));
  EXPECT_EQ(big.code(), StatusCode::unsupported);
  EXPECT_NE(big.message().find("multiply-adds"), std::string::npos) << big.message();
  // 7x1000x1001 (7M multiply-adds): taken with an odd ld (run 170: 15.6 us against 17.9 through the
  // copies), not TMA-legal (the one-launch tensor-core paths win from ~1M up).
  GemmDesc odd = problem({7, 1000, 1001}, Layout::row, Layout::column);
  EXPECT_TRUE(k->supports(odd).ok());
  odd.k = 1000;
  EXPECT_EQ(k->supports(odd).code(), StatusCode::unsupported);
  EXPECT_TRUE(tiny_kernel_gate(16, 64, 64, false, 132));  // 2^16
  EXPECT_FALSE(tiny_kernel_gate(16, 64, 65, false, 132));
  EXPECT_FALSE(tiny_kernel_gate(16, 256, 128, false, 132));  // run 171: 7.1 us against 5.8 on the swap tile
  EXPECT_FALSE(tiny_kernel_gate(16, 128, 128, false, 132));  // run 177: tied or lost with 12-16 rows
  EXPECT_TRUE(tiny_kernel_gate(30, 1, 6856, false, 132));    // run 177: won with <= 8 rows up to 2^19
  EXPECT_TRUE(tiny_kernel_gate(1, 8192, 64, false, 132));
  EXPECT_FALSE(tiny_kernel_gate(1, 8192, 65, false, 132));
  EXPECT_FALSE(tiny_kernel_gate(1, 4096, 4096, false, 132));
  EXPECT_FALSE(tiny_kernel_gate(1, int64_t{1} << 31, int64_t{1} << 31, true, 132));  // no overflow
}

// Past 16 rows (blocks of 16): operands breaking TMA's rule, one round of CTAs, <= 2^18 multiply-adds
// a CTA; run 174's winners in, its losers out.
TEST(Sm90TinyHost, RowBlockGateFollowsRun174) {
  for (Shape s : {Shape{42, 40, 456}, Shape{1000, 33, 77}, Shape{92, 18, 43}, Shape{25, 190, 121},
                  Shape{17, 617, 633}, Shape{33, 1000, 77}, Shape{64, 300, 99}})
    EXPECT_TRUE(tiny_kernel_gate(s.m, s.n, s.k, true, 132)) << s.m << "x" << s.n << "x" << s.k;
  EXPECT_FALSE(tiny_kernel_gate(17, 17, 4097, true, 132));   // 16 x 32 x 513 a CTA
  EXPECT_FALSE(tiny_kernel_gate(3000, 24, 111, true, 132));  // 188 CTAs: two rounds
  EXPECT_FALSE(tiny_kernel_gate(20, 3000, 131, true, 132));
  EXPECT_FALSE(tiny_kernel_gate(40, 7000, 29, true, 132));
  EXPECT_FALSE(tiny_kernel_gate(48, 500, 1001, true, 132));  // 24M multiply-adds
  EXPECT_FALSE(tiny_kernel_gate(64, 64, 64, false, 132));    // TMA-legal: 16 rows at most
  EXPECT_FALSE(tiny_kernel_gate(65, 65, 1, true, 132));
  const KernelEntry* k = find_kernel("sm90_simt_bf16_16x32_tiny_small");
  ASSERT_NE(k, nullptr);
  if (current_sm_count() == 132) {
    EXPECT_TRUE(k->supports(problem({42, 40, 456}, Layout::column, Layout::column)).ok());
    EXPECT_FALSE(k->supports(problem({64, 64, 64}, Layout::row, Layout::column)).ok());
  }
}

TEST(Sm90TinyHost, ClusterSizesFitOneRound) {
  EXPECT_EQ(tiny_cluster_size(20, 633, 132), 4);   // 1x617x633: 20 clusters of 8 would need 2 rounds
  EXPECT_EQ(tiny_cluster_size(32, 1001, 132), 2);  // 7x1000x1001
  EXPECT_EQ(tiny_cluster_size(1, 650, 132), 8);
  EXPECT_EQ(tiny_cluster_size(10, 173, 132), 4);   // 32 k a rank at least
  EXPECT_EQ(tiny_cluster_size(269, 765, 132), 1);
  EXPECT_EQ(tiny_cluster_size(1, 24, 132), 1);
}

// A NaN in A reaches exactly its row of D and an Inf in B its column, in both orientations, with K
// split over a cluster of 8 and the Inf inside a lane's predicated tail (its zeros must not make
// 0 * Inf elsewhere).
TEST(Sm90TinyNan, NanAndInfReachTheirRowAndColumn) {
  TCGEMM_REQUIRE_GPU(90);
  for (const bool swapped : {false, true}) {
    SCOPED_TRACE(swapped ? "N the small side" : "M the small side");
    GemmDesc g;
    g.m = swapped ? 40 : 12;
    g.n = swapped ? 12 : 40;
    g.k = 300;
    g.d = {DType::f32, Layout::row};
    EXPECT_EQ(plan_tiny(g).splits, 8);
    test::GemmBuffers buf(g, 5);
    constexpr int64_t kNanRow = 5, kNanK = 3, kInfK = 7, kInfCol = 11;
    test::set_element(buf.a.get(), kNanRow * g.k + kNanK, g.a.dtype, std::nanf(""));  // A(5, 3), row-major
    test::set_element(buf.b.get(), kInfCol * g.k + kInfK, g.b.dtype, INFINITY);       // B(7, 11), column-major
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

TEST(Sm90TinyPick, GemmRunsTheTinyKernelAndMatchesTheReference) {
  TCGEMM_REQUIRE_GPU(90);
  const DType outs[] = {DType::bf16, DType::f32, DType::f16};
  int variant = 0;
  for (const Shape s : {Shape{1, 617, 633}, Shape{14, 3, 650}, Shape{248, 1, 74}, Shape{6, 9, 257}}) {
    GemmDesc g = ab_problem(DType::bf16, s, Layout::row, Layout::row);
    g.b.ld = s.n + 1;
    vary_epilogue(g, variant++, outs);
    Result<std::string_view> picked = pick_kernel(g);
    ASSERT_TRUE(picked.ok()) << picked.status().message();
    EXPECT_EQ(*picked, "sm90_simt_bf16_16x32_tiny_small");
    const KernelEntry* k = find_kernel(*picked);
    ASSERT_NE(k, nullptr);
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

}  // namespace
}  // namespace tcgemm
