// The thread-load path (sm90_wgmma_*_128xN_ws_ldg): A and B that break TMA's 16-byte rule read by
// the producer warpgroup's plain loads, no copy. Every A/B layout, odd ld's and 2-byte-offset base
// pointers, M/N/K tails, D and C dtypes and layouts, the automatic and forced split counts; against
// the device reference with D and the workspace NaN-poisoned, run twice for bitwise determinism.
#include <iterator>
#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_wgmma_bf16_128xN_ws_ldg", "sm90_wgmma_f16_128xN_ws_ldg"};
const Shape kShapes[] = {{1, 1, 1}, {7, 33, 65}, {87, 681, 47}, {130, 200, 129}, {333, 777, 4099}, {256, 64, 7}};
const int kCounts[] = {0, 3};  // 0: the plan's choice
constexpr int kLayouts = 4;    // A row/column x B row/column
constexpr int kMisalign = 2;   // odd ld's, or tight ld's with the base pointers 2 bytes off

using Case = std::tuple<int, int, int, int, int>;  // entry, shape, layouts, misalignment, split count
class Sm90ThreadLoads : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90ThreadLoads, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, li, mi, ci] = GetParam();
  if (small_only() && kShapes[si].k > 1000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  const KernelEntry* k = find_kernel(kEntries[ei]);
  ASSERT_NE(k, nullptr) << kEntries[ei];
  const DType in = ei == 0 ? DType::bf16 : DType::f16;
  const Shape sh = kShapes[si];
  const ForcedSplits forced(kCounts[ci]);
  const int variant = ei + si + li + mi + ci;
  GemmDesc g = ab_problem(in, sh, li % 2 ? Layout::column : Layout::row, li / 2 ? Layout::row : Layout::column);
  const size_t offset = misalign_ab(g, mi == 0);
  check_misaligned_case(*k, g, variant, offset);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, li, mi, ci] = info.param;
  const Shape s = kShapes[si];
  return std::string(ei == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + "_" + (li % 2 ? "Acol" : "Arow") + (li / 2 ? "Brow" : "Bcol") +
         (mi == 0 ? "_oddld" : "_base2") + "_splits" + (kCounts[ci] == 0 ? std::string("auto") : std::to_string(kCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(Small, Sm90ThreadLoads,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, kLayouts), ::testing::Range(0, kMisalign),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);

// gemm() takes thread loads for misaligned problems of one round and <= 2 k-blocks a CTA (run 80:
// they won all 12 such shapes of the random suite), and the copies + TMA otherwise.
TEST(Sm90ThreadLoadsHost, GemmTakesThemForOneRoundOfShortK) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  struct Pick {
    Shape s;
    Layout a, b;
    const char* want;
  };
  const char* const ldg = "sm90_wgmma_bf16_128xN_ws_ldg";
  for (const Pick& p : {Pick{{78, 1096, 28}, Layout::row, Layout::column, ldg},
                        Pick{{87, 6819, 47}, Layout::row, Layout::column, ldg},
                        Pick{{54, 2406, 37}, Layout::column, Layout::row, ldg},
                        Pick{{1000, 1000, 1001}, Layout::row, Layout::column, "sm90_wgmma_bf16_128xN_ws_repack_splitk"},
                        Pick{{2413, 3901, 39}, Layout::row, Layout::row, "sm90_wgmma_bf16_128x256x64_s4_ws_repack"}}) {
    GemmDesc g;
    g.m = p.s.m;
    g.n = p.s.n;
    g.k = p.s.k;
    g.a = {DType::bf16, p.a, 0};
    g.b = {DType::bf16, p.b, 0};
    g.d = {DType::bf16, Layout::row, 0};
    const Result<std::string_view> pick = pick_kernel(g);
    ASSERT_TRUE(pick.ok()) << pick.status().message();
    EXPECT_EQ(pick.value(), p.want) << shape_name(p.s);
  }
  // Aligned problems never take them.
  GemmDesc g;
  g.m = 78;
  g.n = 1096;
  g.k = 32;
  g.d = {DType::bf16, Layout::row, 0};
  EXPECT_FALSE(find_kernel("sm90_wgmma_bf16_128xN_ws_ldg")->supports(g).ok());
}

}  // namespace
}  // namespace tcgemm
