// Split-K on the persistent cluster kernel (src/kernels/sm90/pc_split_k.cu): f32 slabs from the
// _f32d instance by TMA store (each split's rows at split * slab_rows, M padded to 64), then the
// fixed-order reduce. Against the device reference with fresh random A, B and C, D poisoned: M
// tails inside a slab's padding (M % 64 != 0), ghost CTAs (odd tile rows), N tails, every D/C
// dtype and layout the reduce writes (vary_epilogue), forced split counts from 2 to the k-block
// count, each case run twice and compared bit for bit. Host: the plan and the refusals.
#include <cuda_runtime_api.h>

#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/pc_split_k.hpp"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

constexpr const char* kEntries[] = {"sm90_wgmma_bf16_128x256x64_s3_pc2x1_splitk",
                                    "sm90_wgmma_f16_128x256x64_s3_pc2x1_splitk"};
const Shape kShapes[] = {{1, 4, 128},      {129, 128, 777},   {256, 256, 4096},   {300, 520, 2000},
                         {385, 772, 1000}, {640, 1024, 8192}, {512, 1024, 32768}};

// entry, shape, forced splits (0: the plan's), epilogue variant (vary_epilogue)
using Case = std::tuple<int, int, int, int>;
class Sm90PcSplitK : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PcSplitK, MatchesDeviceReferenceTwice) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [entry, si, forced, variant] = GetParam();
  const Shape s = kShapes[si];
  if (small_only() && s.m * s.n * s.k > 200'000'000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const KernelEntry* k = find_kernel(kEntries[entry]);
  ASSERT_NE(k, nullptr);
  const DType input = k->input;
  GemmDesc g = tn_problem(input, s);
  const DType outs[3] = {input, DType::f32, input == DType::bf16 ? DType::f16 : DType::bf16};
  vary_epilogue(g, variant, outs);
  ForcedSplits f(forced);
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  run_and_check(*k, g, 0, true);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [entry, si, forced, variant] = info.param;
  return std::string(entry == 0 ? "bf16_" : "f16_") + shape_name(kShapes[si]) + "_splits" +
         (forced == 0 ? std::string("plan") : std::to_string(forced)) + "_epi" + std::to_string(variant);
}

INSTANTIATE_TEST_SUITE_P(Plan, Sm90PcSplitK,
                         ::testing::Combine(::testing::Values(0, 1),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Values(0), ::testing::Values(0, 1, 2, 3, 5)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Forced, Sm90PcSplitK,
                         ::testing::Combine(::testing::Values(0), ::testing::Values(1, 3, 4),
                                            ::testing::Values(2, 3, 7, 64), ::testing::Values(0, 4)),
                         case_name);

TEST(Sm90PcSplitKHost, PlanAndRefusals) {
  GemmDesc g = tn_problem(DType::bf16, {512, 1024, 32768});
  const PcSplitKPlan p = plan_pc_split_k(g, DType::bf16, 132);
  EXPECT_GE(p.splits, 2);
  EXPECT_GE(p.splits * p.k_blocks_per_split, 512);
  EXPECT_LT((p.splits - 1) * p.k_blocks_per_split, 512) << "every split non-empty";
  EXPECT_EQ(p.slab_rows, 512);
  EXPECT_EQ(p.workspace_bytes, static_cast<std::size_t>(p.splits) * 512 * 1024 * 4);
  EXPECT_EQ(p.clusters, 8 * p.splits);
  EXPECT_LE(p.clusters, 66) << describe(p);
  const KernelEntry* k = find_kernel(kEntries[0]);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  EXPECT_EQ(k->workspace_bytes(g), p.workspace_bytes);

  GemmDesc padded = tn_problem(DType::bf16, {300, 520, 2000});
  EXPECT_EQ(plan_pc_split_k(padded, DType::bf16, 132).slab_rows, 320) << "M padded to the 64-row store box";
  {
    ForcedSplits f(7);  // 32 k-blocks: 5 a split, so 7 splits
    const PcSplitKPlan q = plan_pc_split_k(padded, DType::bf16, 132);
    EXPECT_EQ(q.k_blocks_per_split, 5);
    EXPECT_EQ(q.splits, 7);
  }
  GemmDesc odd_n = tn_problem(DType::bf16, {256, 258, 4096});
  EXPECT_EQ(k->supports(odd_n).code(), StatusCode::unsupported);
  EXPECT_NE(k->supports(odd_n).message().find("N % 4 == 0"), std::string::npos);
  GemmDesc one_block = tn_problem(DType::bf16, {256, 256, 64});
  EXPECT_EQ(k->supports(one_block).code(), StatusCode::unsupported);
  GemmDesc nn = g;
  nn.a.layout = Layout::column;
  nn.a.ld = 0;
  EXPECT_EQ(k->supports(nn).code(), StatusCode::unsupported);
  GemmDesc odd_lda = g;
  odd_lda.k = 32767;
  odd_lda.a.ld = 32767;
  EXPECT_EQ(k->supports(odd_lda).code(), StatusCode::misaligned);
  EXPECT_EQ(find_kernel(kEntries[1])->supports(g).code(), StatusCode::unsupported) << "f16 entry, bf16 problem";
  EXPECT_EQ(k->preference, 0) << "by name only until measured";
}

}  // namespace
}  // namespace tcgemm
