// The split tiles with stages of two k-blocks (64x64x128 s7 bf16 and f16, 128x64x128 s4): against the
// device reference with NaN-poisoned D, twice for bitwise determinism. The split counts leave odd
// k-block counts a split (47 k-blocks in 3 or 16 splits, 65 in 3): each split's short last stage is
// padded with boxes wholly past K, which TMA must zero-fill and count in full, or the run hangs or
// sums stale stage data.
#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

const char* const kWide[] = {"sm90_wgmma_bf16_64x64x128_s7_ws_splitk", "sm90_wgmma_f16_64x64x128_s7_ws_splitk",
                             "sm90_wgmma_bf16_128x64x128_s4_ws_splitk"};
const Shape kWideShapes[] = {{256, 512, 16384}, {130, 258, 3000}, {1, 1, 4097}, {129, 257, 2049}, {7, 33, 64}};
const int kWideCounts[] = {0, 1, 3, 16};  // 0: the automatic choice; 1: forced unsplit
const DType kWideOut[] = {DType::bf16, DType::f32, DType::f16};

GemmDesc wide_problem(DType in, Shape sh) {
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  const int64_t ld = (sh.k + 7) / 8 * 8;  // TMA-legal: these tiles take no copies
  g.a = {in, Layout::row, ld};
  g.b = {in, Layout::column, ld};
  return g;
}

using WideCase = std::tuple<int, int, int>;  // entry, shape, split count
class Sm90WideStage : public ::testing::TestWithParam<WideCase> {};

TEST_P(Sm90WideStage, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, ci] = GetParam();
  const KernelEntry* k = find_kernel(kWide[ei]);
  ASSERT_NE(k, nullptr) << kWide[ei];
  const ForcedSplits forced(kWideCounts[ci]);
  GemmDesc g = wide_problem(k->input, kWideShapes[si]);
  vary_epilogue(g, ei + si + ci, kWideOut);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status supported = k->supports(g);
  if (kWideCounts[ci] == 0 && supported.code() == StatusCode::unsupported)
    GTEST_SKIP() << "refused by design: " << supported.message();
  ASSERT_TRUE(supported.ok()) << supported.message();
  SCOPED_TRACE("effective splits " + std::to_string(k->split_k(g)));
  run_and_check(*k, g, 0, /*twice=*/true);
}

std::string wide_case_name(const ::testing::TestParamInfo<WideCase>& info) {
  const auto [ei, si, ci] = info.param;
  return split_case_suffix(kWide[ei], kWideShapes[si], kWideCounts[ci]);
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90WideStage,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kWide))),
                                            ::testing::Range(0, static_cast<int>(std::size(kWideShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kWideCounts)))),
                         wide_case_name);

// For compute-sanitizer (TCGEMM_TEST_SMALL=1 runs *Small*): each entry on odd k-blocks a split.
TEST(Sm90WideStageSmall, EveryEntryWithShortLastStages) {
  TCGEMM_REQUIRE_GPU(90);
  const ForcedSplits forced(3);
  for (const char* name : kWide) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    for (const Shape sh : {Shape{64, 64, 1000}, Shape{66, 34, 999}, Shape{33, 7, 700}}) {  // 16, 16, 11 k-blocks
      GemmDesc g = wide_problem(k->input, sh);
      g.d = {DType::bf16, Layout::row, sh.n};
      g.c = {DType::f32, Layout::row, sh.n};
      g.beta = 0.5f;
      const Status st = k->supports(g);
      ASSERT_TRUE(st.ok()) << name << " " << sh.m << "x" << sh.n << "x" << sh.k << ": " << st.message();
      SCOPED_TRACE(std::string(name) + " " + std::to_string(sh.m) + "x" + std::to_string(sh.n));
      run_and_check(*k, g, 0, /*twice=*/false);
    }
  }
}

// Host-side only (runs anywhere): the layouts and inputs these tiles are not compiled for are
// refused with a reason, never launched.
TEST(Sm90WideStageRules, RefuseWhatIsNotCompiled) {
  for (const char* name : kWide) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    GemmDesc g = wide_problem(k->input, {256, 512, 16384});
    ASSERT_TRUE(k->supports(g).ok()) << name << ": " << k->supports(g).message();
    GemmDesc a_col = g;
    a_col.a = {DType::bf16, Layout::column, g.m};
    EXPECT_EQ(k->supports(a_col).code(), StatusCode::unsupported) << name;
    GemmDesc other = g;  // the other 16-bit input
    other.a.dtype = other.b.dtype = g.a.dtype == DType::f16 ? DType::bf16 : DType::f16;
    EXPECT_EQ(k->supports(other).code(), StatusCode::unsupported) << name;
    GemmDesc odd_ld = g;
    odd_ld.a.ld = g.k + 1;  // breaks TMA's 16-byte stride rule
    EXPECT_NE(k->supports(odd_ld).code(), StatusCode::ok) << name;
  }
}

}  // namespace
}  // namespace tcgemm
