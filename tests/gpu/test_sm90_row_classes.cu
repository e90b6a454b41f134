// The row-class path (sm90_wgmma_*_128xN_ws_rowclass): K-major A and B that break TMA's 16-byte rule
// read by TMA over eight row classes each (tensor_map.hpp), no copy. Odd ld's and 2-byte-offset base
// pointers, M/N below 8 (classes with no rows) and tiles whose last classes are empty, K tails, D and
// C dtypes and layouts, forced split counts (1, 3, 64); against the device reference with D
// and the workspace NaN-poisoned, run twice for bitwise determinism.
#include <iterator>
#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_wgmma_bf16_128xN_ws_rowclass", "sm90_wgmma_f16_128xN_ws_rowclass"};
// 129x65x300: the second tile row holds one row (class 0 only), the second 64-column tile one column.
const Shape kShapes[] = {{1, 1, 1},     {7, 33, 65},        {129, 65, 300}, {130, 200, 129},
                         {333, 777, 4099}, {1000, 1000, 1001}, {256, 64, 7},   {64, 1024, 4096}};
// Forced counts (1: unsplit; 64 is clipped to the k-blocks): gemm()'s gate refuses the plan's own
// count wherever the copies are predicted faster, which is most of these shapes; the host test below
// pins where it admits it.
const int kCounts[] = {1, 3, 64};
constexpr int kMisalign = 3;       // odd ld's; tight ld's with the bases 2 bytes off; both

using Case = std::tuple<int, int, int, int>;  // entry, shape, misalignment, split count
class Sm90RowClasses : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90RowClasses, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, mi, ci] = GetParam();
  if (small_only() && kShapes[si].k > 1000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  const KernelEntry* k = find_kernel(kEntries[ei]);
  ASSERT_NE(k, nullptr) << kEntries[ei];
  const DType in = ei == 0 ? DType::bf16 : DType::f16;
  const Shape sh = kShapes[si];
  const ForcedSplits forced(kCounts[ci]);
  const int variant = ei + si + mi + ci;
  GemmDesc g = ab_problem(in, sh, Layout::row, Layout::column);
  // Odd ld's: tight + 1 where tight is even (so never a multiple of 8); else tight.
  auto ld_of = [&](StoredExtent e, Layout l) {
    const int64_t t = tight_ld(e, l);
    return mi != 1 ? (t % 2 == 0 ? t + 1 : t) : t;
  };
  g.a.ld = ld_of(extent_a(g), g.a.layout);
  g.b.ld = ld_of(extent_b(g), g.b.layout);
  const size_t offset = mi >= 1 ? 2 : 0;
  g.a.pointer_alignment = g.b.pointer_alignment = mi >= 1 ? 2 : 256;
  check_misaligned_case(*k, g, variant, offset);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, mi, ci] = info.param;
  const Shape s = kShapes[si];
  static const char* const kMis[] = {"_oddld", "_base2", "_oddld_base2"};
  return std::string(ei == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + kMis[mi] + "_splits" + std::to_string(kCounts[ci]);
}

INSTANTIATE_TEST_SUITE_P(Small, Sm90RowClasses,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, kMisalign),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);

// The class arithmetic (host only): every row lands in exactly one class at the right address, and
// every class's base meets TMA's 16-byte rule.
TEST(RowClassLayout, EveryRowInOneClassFromASixteenByteBase) {
  for (uint64_t address : {uint64_t{0x10000}, uint64_t{0x10002}, uint64_t{0x10006}, uint64_t{0x1000e}})
    for (int64_t ld : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{1000}, int64_t{4099}})
      for (int64_t lines : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{9}, int64_t{333}}) {
        const RowClassLayout l = row_class_layout(address, ld, lines, 2);
        int64_t total = 0;
        for (int j = 0; j < kRowClasses; ++j) {
          EXPECT_EQ(l.base[j] % 16, 0u) << "class " << j;
          EXPECT_GE(l.x0[j], 0);
          EXPECT_LT(l.x0[j], 8);
          total += l.rows[j];
        }
        EXPECT_EQ(total, lines) << "ld " << ld << ", " << lines << " lines";
        for (int64_t r = 0; r < lines; ++r) {
          const int j = static_cast<int>(r % kRowClasses);
          const int64_t q = r / kRowClasses;
          EXPECT_LT(q, l.rows[j]) << "row " << r;
          EXPECT_EQ(l.base[j] + 2 * static_cast<uint64_t>(l.x0[j]) + static_cast<uint64_t>(q * kRowClasses * ld * 2),
                    address + static_cast<uint64_t>(r * ld * 2))
              << "row " << r << ", ld " << ld;
        }
      }
}

// The realign's class order (row_class_realign.cuh): a permutation; where every x0 / 2 comes twice
// (odd ld's, and ld = 2 mod 4) each half of it holds four different x0 / 2, so a warp step's four rows
// read four different banks of their chunks.
TEST(RowClassLayout, OrderSpreadsAStepOverFourBanks) {
  for (uint64_t address : {uint64_t{0x10000}, uint64_t{0x10002}, uint64_t{0x1000e}})
    for (int64_t ld = 1; ld <= 64; ++ld) {
      const RowClassLayout l = row_class_layout(address, ld, 64, 2);
      bool seen[kRowClasses] = {};
      for (int p = 0; p < kRowClasses; ++p) {
        ASSERT_GE(l.order[p], 0);
        ASSERT_LT(l.order[p], kRowClasses);
        EXPECT_FALSE(seen[l.order[p]]) << "ld " << ld << ": class " << l.order[p] << " twice";
        seen[l.order[p]] = true;
      }
      if (ld % 2 == 0 && ld % 4 != 2) continue;
      for (int half = 0; half < 2; ++half) {
        unsigned quads = 0;
        for (int p = 0; p < 4; ++p) quads |= 1u << (l.x0[l.order[4 * half + p]] >> 1);
        EXPECT_EQ(quads, 0xfu) << "ld " << ld << ", address " << address << ", half " << half;
      }
    }
}

// Refusals: aligned operands (the TMA kernels serve them), MN-major layouts (the repack path), plans
// of more than one round, and problems whose copies cost less than row classes' slower k-blocks
// (session 13, call 3: 333x777x4099 34.1 us against 27.5 through the copies, 1000x1000x1001 21.7
// against 14.3; 128x8192x28673 228 against 457, 256x256x65537 48.1 against 76.4; call 8:
// 512x1024x32769 122.3 against 151.7).
TEST(Sm90RowClassesHost, RefusesWhatOtherPathsServe) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128xN_ws_rowclass");
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = 333;
  g.n = 777;
  g.k = 4096;
  g.a = {DType::bf16, Layout::row, 0};
  g.b = {DType::bf16, Layout::column, 0};
  g.d = {DType::bf16, Layout::row, 0};
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << "aligned: " << k->supports(g).message();
  g.k = 4099;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << "the copies win: " << k->supports(g).message();
  g.b.layout = Layout::row;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << "B row-major: " << k->supports(g).message();
  g.b.layout = Layout::column;
  g.m = g.n = 4097;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << "many rounds: " << k->supports(g).message();
  // gemm()'s picks where measured (session 13, call 3; 512x1024x32769: the copies at their 128-byte
  // pitch 113.7 us in session 14's call 7, row classes 122.3 in session 13's call 8).
  struct Pick {
    Shape s;
    const char* want;
  };
  for (const Pick& p : {Pick{{128, 8192, 28673}, "sm90_wgmma_bf16_128xN_ws_rowclass"},
                        Pick{{333, 777, 4099}, "sm90_wgmma_bf16_128xN_ws_repack_splitk"},
                        Pick{{1000, 1000, 1001}, "sm90_wgmma_bf16_128xN_ws_repack_splitk"},
                        Pick{{256, 256, 65537}, "sm90_wgmma_bf16_128xN_ws_rowclass"},
                        Pick{{64, 8192, 8193}, "sm90_wgmma_bf16_128xN_ws_rowclass"},
                        Pick{{512, 1024, 32769}, "sm90_wgmma_bf16_128xN_ws_repack_splitk"}}) {
    g.m = p.s.m;
    g.n = p.s.n;
    g.k = p.s.k;
    const Result<std::string_view> pick = pick_kernel(g);
    ASSERT_TRUE(pick.ok()) << pick.status().message();
    EXPECT_EQ(pick.value(), p.want) << shape_name(p.s);
  }
}

}  // namespace
}  // namespace tcgemm
