// The tuned split-K plan table (tcgemm/tuning.hpp): its text format, validation and lookup; and
// `tcgemm tune`'s choices (tools/tcgemm/tune_choice.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "tcgemm/tune_choice.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

GemmDesc tn(int64_t m, int64_t n, int64_t k, DType t = DType::bf16) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a.dtype = g.b.dtype = g.c.dtype = g.d.dtype = t;
  return g;
}

// Each test leaves the table empty, whatever it did.
class TunedPlans : public ::testing::Test {
 protected:
  void SetUp() override { clear_tuned_split_plans(); }
  void TearDown() override { clear_tuned_split_plans(); }
};

TEST_F(TunedPlans, ParsesWhatItFormats) {
  const auto r = parse_tuned_split_plans(
      "# tuned on an H100\n"
      "256 512 16384 bf16:row bf16:column 128x64 6 19.5\n"
      "\n"
      "1016 1648 11344 f16:t f16:n 128x256 2 80.3  # trailing comment\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->size(), 2u);
  const TunedSplitPlan& p = (*r)[1];
  EXPECT_EQ(p.m, 1016);
  EXPECT_EQ(p.input, DType::f16);
  EXPECT_EQ(p.a, Layout::row);
  EXPECT_EQ(p.b, Layout::column);
  EXPECT_EQ(p.tile_m, 128);
  EXPECT_EQ(p.tile_n, 256);
  EXPECT_EQ(p.splits, 2);
  EXPECT_DOUBLE_EQ(p.measured_us, 80.3);
  EXPECT_EQ(format_tuned_split_plan((*r)[0]), "256 512 16384 bf16:row bf16:column 128x64 6 19.5");
  const auto again = parse_tuned_split_plans(format_tuned_split_plan(p));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(format_tuned_split_plan((*again)[0]), format_tuned_split_plan(p));
}

TEST_F(TunedPlans, RejectsBadLinesByLineAndField) {
  auto error = [](const char* text) {
    const auto r = parse_tuned_split_plans(text);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64\n").find("line 1: expected"), std::string::npos);
  EXPECT_NE(error("# c\n1 2 3 bf16:row bf16:column 128x96 2 1.0\n").find("line 2: tile must be"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64 65 1.0").find("splits must be in 1..64"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64 0 1.0").find("splits must be in 1..64"), std::string::npos);
  EXPECT_NE(error("0 2 3 bf16:row bf16:column 128x64 2 1.0").find("m, n and k"), std::string::npos);
  EXPECT_NE(error("1 2 3 f32:row f32:column 128x64 2 1.0").find("bf16 or f16"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row f16:column 128x64 2 1.0").find("one dtype"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16 bf16:column 128x64 2 1.0").find("A must be dtype:layout"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64 2 1.0 x").find("unexpected 'x'"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64 2 -1").find("measured_us"), std::string::npos);
  EXPECT_NE(error("1 2 3 bf16:row bf16:column 128x64 2 1\n1 2 3 bf16:t bf16:n 64x64 3 1\n").find("line 2: a second plan"),
            std::string::npos);
}

TEST_F(TunedPlans, FindsByProblemAndReplacesOnAdd) {
  const uint64_t g0 = tuned_split_plans_generation();
  TunedSplitPlan p{256, 512, 16384, DType::bf16, Layout::row, Layout::column, 128, 64, 6, 19.5};
  ASSERT_TRUE(add_tuned_split_plan(p).ok());
  EXPECT_NE(tuned_split_plans_generation(), g0);
  ASSERT_TRUE(find_tuned_split_plan(tn(256, 512, 16384)).has_value());
  EXPECT_EQ(find_tuned_split_plan(tn(256, 512, 16384))->splits, 6);
  // Another size, input or layout is another problem.
  EXPECT_FALSE(find_tuned_split_plan(tn(256, 512, 16385)).has_value());
  EXPECT_FALSE(find_tuned_split_plan(tn(256, 512, 16384, DType::f16)).has_value());
  GemmDesc nn = tn(256, 512, 16384);
  nn.a.layout = Layout::column;
  EXPECT_FALSE(find_tuned_split_plan(nn).has_value());
  // The same problem again replaces the plan.
  p.splits = 8;
  ASSERT_TRUE(add_tuned_split_plan(p).ok());
  EXPECT_EQ(find_tuned_split_plan(tn(256, 512, 16384))->splits, 8);
  p.tile_n = 96;
  EXPECT_FALSE(add_tuned_split_plan(p).ok()) << "add validates";
  EXPECT_EQ(find_tuned_split_plan(tn(256, 512, 16384))->tile_n, 64);
  clear_tuned_split_plans();
  EXPECT_FALSE(find_tuned_split_plan(tn(256, 512, 16384)).has_value());
}

TEST_F(TunedPlans, LoadsAFileAndKeepsTheTableOnAnError) {
  const std::string path = ::testing::TempDir() + "tcgemm_tuned_plans_test.txt";
  {
    std::ofstream out(path);
    out << "# tcgemm tune\n256 256 65536 bf16:row bf16:column 128x64 12 32.3\n";
  }
  ASSERT_TRUE(load_tuned_split_plans(path).ok());
  EXPECT_EQ(find_tuned_split_plan(tn(256, 256, 65536))->splits, 12);
  {
    std::ofstream out(path);
    out << "256 256 65536 bf16:row bf16:column 128x64 99 32.3\n";
  }
  const Status bad = load_tuned_split_plans(path);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("line 1: splits"), std::string::npos) << bad.message();
  EXPECT_EQ(find_tuned_split_plan(tn(256, 256, 65536))->splits, 12) << "a bad file leaves the table as it was";
  std::remove(path.c_str());
  EXPECT_FALSE(load_tuned_split_plans(path).ok()) << "a missing file is an error";
}

// A timed row as the profiler returns it.
cli::ProfileRow timed(const char* kernel, int splits, double us, const char* disposition = "not_verified") {
  cli::ProfileRow r;
  r.problem = "m=256 n=512 k=16384 A=bf16:row B=bf16:column D=bf16:row split_k_slices=" + std::to_string(splits);
  r.provider = "tcgemm";
  r.kernel = kernel;
  r.disposition = disposition;
  r.runtime_ms = us * 1e-3;
  return r;
}

TEST(TuneChoice, TakesTheFastestPlanGemmCanRun) {
  const std::vector<cli::ProfileRow> rows = {
      timed("sm90_wgmma_bf16_128x128x64_s7_ws_splitk", 16, 22.9),
      timed("sm90_wgmma_bf16_128x64x64_s9_ws_splitk", 6, 19.5),
      timed("sm90_wgmma_bf16_64x64x128_s7_ws_splitk", 32, 10.0),       // 1024 CTAs: more than a round
      timed("sm90_wgmma_bf16_64x64x64_s14_ws_splitk", 2, 9.0),         // not the planner's 64x64 instance
      timed("sm90_wgmma_bf16_128x256x64_s4_ws_splitk", 1, 11.0),       // unsplit 128x256: not the planner's
      timed("sm90_wgmma_bf16_128x64x64_s9_ws_splitk", 8, 5.0, "failed"),
      timed("sm90_wgmma_bf16_128x64x64_s9_ws_splitk_mc1x2", 6, 4.0),  // not a plain split tile
  };
  const auto best = cli::fastest_plan(rows, 256, 512, 16384, 132);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->tile_m, 128);
  EXPECT_EQ(best->tile_n, 64);
  EXPECT_EQ(best->splits, 6);
  EXPECT_DOUBLE_EQ(best->us, 19.5);
  EXPECT_TRUE(cli::worth_keeping(*best, 22.8));
  EXPECT_FALSE(cli::worth_keeping(*best, 20.0)) << "within the 3% margin";
  // K = 100 has 2 k-blocks: 16 requested splits run as 2.
  EXPECT_TRUE(cli::plan_takeable(256, 512, 100, {128, 128, 16, 1.0}, 132));
  EXPECT_FALSE(cli::plan_takeable(256, 512, 100, {128, 256, 16, 1.0}, 4)) << "4 tiles x 2 splits on 4 SMs";
  EXPECT_EQ(cli::split_tile_kernels(DType::f16)[3], "sm90_wgmma_f16_64x64x128_s7_ws_splitk");
  EXPECT_EQ(cli::plan_label(best->tile_m, best->tile_n, best->splits), "128x64 x6");
}

TEST(TuneChoice, ExplainTimesTheModelsBestCountAndItsNeighbours) {
  const std::vector<int> counts = {1, 2, 3, 4, 6, 8};
  EXPECT_EQ(cli::counts_around_model_best(counts, {30, 20, 15, 16, 18, 0}), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(cli::counts_around_model_best(counts, {10, 20, 15, 16, 18, 19}), (std::vector<int>{1, 2}));
  // Counts gemm() cannot take (0) are never timed, not even as neighbours.
  EXPECT_EQ(cli::counts_around_model_best(counts, {30, 20, 15, 16, 9, 0}), (std::vector<int>{4, 6}));
  EXPECT_TRUE(cli::counts_around_model_best(counts, {0, 0, 0, 0, 0, 0}).empty());
}

TEST(TuneChoice, MergeReplacesTheSameProblemAndKeepsTheRest) {
  const TunedSplitPlan a{256, 512, 16384, DType::bf16, Layout::row, Layout::column, 128, 64, 6, 19.5};
  TunedSplitPlan b = a;
  b.k = 8192;
  TunedSplitPlan a2 = a;
  a2.splits = 8;
  const auto merged = cli::merge_plans({a, b}, {a2});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].splits, 8);
  EXPECT_EQ(merged[1].k, 8192);
}

// The switch of gemm()'s autotuning: off unless set (the environment is read at the first query,
// before any set; a set always wins).
TEST(SplitAutotuneSwitch, SetWinsAndDefaultIsOff) {
  const char* env = std::getenv("TCGEMM_AUTOTUNE");
  const bool env_on = env != nullptr && std::string(env) == "1";
  EXPECT_EQ(split_autotune(), env_on);
  set_split_autotune(true);
  EXPECT_TRUE(split_autotune());
  set_split_autotune(false);
  EXPECT_FALSE(split_autotune());
}

}  // namespace
}  // namespace tcgemm
