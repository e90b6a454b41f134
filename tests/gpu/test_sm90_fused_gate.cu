// gemm()'s gate onto the fused repack path (`_repack_fused_small`): K-major A and B that break TMA's
// 16-byte rule with at most 1 MiB of copies, 64 KiB a CTA of the plan, go to the grid's own copies
// (one launch); larger copies, fewer CTAs for them, other layouts and aligned operands do not. The
// refusals are host-only; on a GPU, gemm() picks the entry at the small random-suite shapes of runs
// 155 and 162 and its D matches the reference.
#include <algorithm>
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

const char* const kGated[] = {"sm90_wgmma_bf16_128xN_ws_repack_fused_small", "sm90_wgmma_f16_128xN_ws_repack_fused_small"};

// K-major, odd ld's (tight + 1 where tight is even).
GemmDesc misaligned_tn(DType in, Shape s) {
  GemmDesc g = ab_problem(in, s, Layout::row, Layout::column);
  g.a.ld = g.b.ld = s.k % 2 == 0 ? s.k + 1 : s.k;
  g.d = {in, Layout::row, 0};
  g.c = {in, Layout::row, 0};
  return g;
}

TEST(Sm90FusedGate, AdmitsSmallKMajorCopiesOnly) {
  const KernelEntry* k = find_kernel(kGated[0]);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->preference, 4);
  for (const Shape s : {Shape{21, 4, 1457}, Shape{260, 79, 1508}}) {
    const Status st = k->supports(misaligned_tn(DType::bf16, s));
    EXPECT_TRUE(st.ok()) << st.message();
  }
  // ~4 MB of copies: the copies kernel moves them as fast (run 155: 1000x1000x1001 12.0 against 14.1 us).
  const Status big = k->supports(misaligned_tn(DType::bf16, {1000, 1000, 1001}));
  EXPECT_EQ(big.code(), StatusCode::unsupported);
  EXPECT_NE(big.message().find("copies of"), std::string::npos) << big.message();
  // 438x190x642: 884 KB over the plan's 12 CTAs, ~74 KB a CTA (run 166: 0.92x through the copies
  // kernel, 0.72x through the grid's copies).
  const Status few = k->supports(misaligned_tn(DType::bf16, {438, 190, 642}));
  EXPECT_EQ(few.code(), StatusCode::unsupported);
  EXPECT_NE(few.message().find("a CTA"), std::string::npos) << few.message();
  GemmDesc col = misaligned_tn(DType::bf16, {21, 4, 1457});
  col.b.layout = Layout::row;
  col.b.ld = 5;
  EXPECT_EQ(k->supports(col).code(), StatusCode::unsupported);
  GemmDesc aligned = misaligned_tn(DType::bf16, {21, 4, 1456});
  aligned.a.ld = aligned.b.ld = 1456;
  EXPECT_EQ(k->supports(aligned).code(), StatusCode::unsupported);
}

const Shape kSmall[] = {{21, 4, 1457},  {260, 79, 1508}, {2, 12, 2006}, {495, 178, 198},
                        {6, 9, 257},    {24, 27, 500},   {196, 511, 198}, {1, 1, 65}};
const DType kOut[] = {DType::bf16, DType::f32, DType::f16};
using Case = std::tuple<int, int>;  // input, shape
class Sm90FusedGatePick : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90FusedGatePick, GemmTakesItAndMatchesTheReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ii, si] = GetParam();
  const DType in = ii == 0 ? DType::bf16 : DType::f16;
  GemmDesc g = misaligned_tn(in, kSmall[si]);
  vary_epilogue(g, ii + si, kOut);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  Result<std::string_view> picked = pick_kernel(g);
  ASSERT_TRUE(picked.ok()) << picked.status().message();
  const KernelEntry* k = find_kernel(*picked);
  ASSERT_NE(k, nullptr);
  // Thread loads (preference 5) keep the problems of <= 2 k-blocks a CTA they measured faster on, and
  // the tiny kernel those with min(M, N) <= 16 (run 170).
  const std::string name(*picked);
  if (name.find("_ldg") == std::string::npos && name.find("_tiny_small") == std::string::npos)
    EXPECT_EQ(name, kGated[ii]);
  if (std::min(g.m, g.n) <= 16) EXPECT_NE(name.find("_tiny_small"), std::string::npos) << name;
  const int64_t before = sm90_in_copy_launches();
  run_and_check(*k, g, 0, /*twice=*/true);
  if (name == kGated[ii]) EXPECT_EQ(sm90_in_copy_launches() - before, 2) << "the grid's own copies should have run";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ii, si] = info.param;
  const Shape s = kSmall[si];
  return std::string(ii == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

INSTANTIATE_TEST_SUITE_P(Small, Sm90FusedGatePick,
                         ::testing::Combine(::testing::Range(0, 2), ::testing::Range(0, static_cast<int>(std::size(kSmall)))),
                         case_name);

}  // namespace
}  // namespace tcgemm
