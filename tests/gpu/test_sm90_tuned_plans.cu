// Tuned split-K plans (tcgemm/tuning.hpp) through the planner and gemm()'s planned entry: the plan
// follows the table where the tile can take the problem and the model's otherwise, and the tuned
// plan's D matches the device reference, twice bitwise.
#include <string>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

TunedSplitPlan tuned_for(const GemmDesc& g, int tile_m, int tile_n, int splits, double us = 0) {
  return TunedSplitPlan{g.m, g.n, g.k, g.a.dtype, g.a.layout, g.b.layout, tile_m, tile_n, splits, us};
}

// Empties the table however the test ends.
struct TunedTable {
  TunedTable() { clear_tuned_split_plans(); }
  ~TunedTable() { clear_tuned_split_plans(); }
};

TEST(Sm90TunedPlanHost, PlanFollowsTheTable) {
  const TunedTable table;
  const GemmDesc g = tn_problem(DType::bf16, {256, 512, 16384});
  const SplitKPlan model = plan_split_k(g, DType::bf16, 132);
  EXPECT_EQ(model.tuned_us, 0);
  ASSERT_TRUE(add_tuned_split_plan(tuned_for(g, 128, 64, 6, 19.5)).ok());
  const SplitKPlan p = plan_split_k(g, DType::bf16, 132);
  EXPECT_EQ(p.variant, sm90_wgmma_ws_narrow_variant(64));
  EXPECT_EQ(p.splits, 6);
  EXPECT_EQ(p.ctas, 96);
  EXPECT_EQ(p.workspace_bytes, std::size_t{6} * 256 * 512 * 4);
  EXPECT_DOUBLE_EQ(p.tuned_us, 19.5);
  EXPECT_EQ(describe(p).rfind("tuned (measured 19.5 us): tile 128x64", 0), 0u) << describe(p);
  {
    const ForcedSplits forced(3);  // the profiler's forced count wins over the table
    const SplitKPlan f = plan_split_k(g, DType::bf16, 132);
    EXPECT_EQ(f.splits, 3);
    EXPECT_EQ(f.tuned_us, 0);
  }
  // The row-class and thread-load plans are not the TMA tiles the plan was timed on.
  EXPECT_EQ(plan_split_k(g, DType::bf16, 132, WsLoads::row_classes).tuned_us, 0);
  // The 64x64 tile at one split: a count of 1 is a plan too.
  ASSERT_TRUE(add_tuned_split_plan(tuned_for(g, 64, 64, 1)).ok());
  const SplitKPlan one = plan_split_k(g, DType::bf16, 132);
  EXPECT_EQ(one.variant, kSm90Ws64x64TwoKBlocks);
  EXPECT_EQ(one.splits, 1);
  EXPECT_EQ(one.workspace_bytes, 0u);
  EXPECT_LT(one.tuned_us, 0) << "no measured time given";
  clear_tuned_split_plans();
  const SplitKPlan again = plan_split_k(g, DType::bf16, 132);
  EXPECT_EQ(again.variant, model.variant);
  EXPECT_EQ(again.splits, model.splits) << "the cached plan follows the table's generation";
}

TEST(Sm90TunedPlanHost, FallsBackWhereTheTileCannotTakeTheProblem) {
  const TunedTable table;
  // B row-major (MN-major): the narrow tiles read B K-major only, so a 128x64 plan cannot run.
  GemmDesc g = tn_problem(DType::bf16, {256, 512, 16384});
  g.b = {DType::bf16, Layout::row, 0};
  const SplitKPlan model = plan_split_k(g, DType::bf16, 132);
  ASSERT_TRUE(add_tuned_split_plan(tuned_for(g, 128, 64, 6, 19.5)).ok());
  const SplitKPlan p = plan_split_k(g, DType::bf16, 132);
  EXPECT_EQ(p.tuned_us, 0);
  EXPECT_EQ(p.variant, model.variant);
  EXPECT_EQ(p.splits, model.splits);
}

// gemm()'s planned entry runs each tuned plan: the tile and count it reports, D against the device
// reference (NaN-poisoned), twice bitwise. Plans the model does not pick, on full and edge tiles.
TEST(Sm90TunedPlan, PlannedEntryRunsTheTunedPlan) {
  TCGEMM_REQUIRE_GPU(90);
  const TunedTable table;
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128xN_ws_splitk");
  ASSERT_NE(k, nullptr);
  struct Case {
    Shape shape;
    int tile_m, tile_n, splits;
  };
  const DType kOut[] = {DType::bf16, DType::f32, DType::f16};
  const Case cases[] = {{{256, 512, 16384}, 128, 64, 6}, {{130, 258, 3000}, 64, 64, 3}, {{300, 100, 4160}, 128, 256, 5},
                        {{256, 256, 4096}, 128, 128, 7}};
  for (const Case& c : cases) {
    GemmDesc g = tn_problem(DType::bf16, c.shape);
    vary_epilogue(g, c.splits, kOut);
    SCOPED_TRACE(std::to_string(c.shape.m) + "x" + std::to_string(c.shape.n) + "x" + std::to_string(c.shape.k) + " " +
                 std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) + " x" + std::to_string(c.splits));
    ASSERT_TRUE(add_tuned_split_plan(tuned_for(g, c.tile_m, c.tile_n, c.splits)).ok());
    const SplitKPlan p = plan_split_k(g, DType::bf16, current_sm_count());
    ASSERT_LT(p.tuned_us, 0);
    EXPECT_EQ(64 * p.variant.consumers, c.tile_m);
    EXPECT_EQ(p.variant.tile_n, c.tile_n);
    EXPECT_EQ(k->split_k(g), c.splits);
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

}  // namespace
}  // namespace tcgemm
