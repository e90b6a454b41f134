// gemm()'s autotuning of split-K plans (tcgemm/tuning.hpp, set_split_autotune): the candidate plans
// match what the planner runs for each tile and count; with autotuning on, gemm()'s first call tunes
// the problem once, D is right (against the device reference, NaN-poisoned, twice bitwise) whichever
// plan won; nothing is tuned while off, under a forced split, or on a stream being captured.
#include <cstdlib>
#include <string>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_plans.hpp"
#include "runtime/registry.hpp"
#include "runtime/split_autotune.hpp"
#include "tcgemm/gemm.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

// Autotuning on (or off) and the table empty however the test ends.
struct Autotune {
  explicit Autotune(bool on) {
    clear_tuned_split_plans();
    set_split_autotune(on);
  }
  ~Autotune() {
    set_split_autotune(false);
    clear_tuned_split_plans();
  }
};

// gemm() itself as an entry, for run_and_check.
KernelEntry gemm_entry() {
  KernelEntry e;
  e.name = "gemm()";
  e.supports = +[](const GemmDesc&) { return Status::success(); };
  e.launch = +[](const GemmArgs& a) { return gemm(a.desc, a.a, a.b, a.c, a.d, a.stream); };
  return e;
}

const KernelEntry& planned_entry(DType input) {
  static const KernelEntry* bf16 = find_kernel("sm90_wgmma_bf16_128xN_ws_splitk");
  static const KernelEntry* f16 = find_kernel("sm90_wgmma_f16_128xN_ws_splitk");
  return *(input == DType::f16 ? f16 : bf16);
}

TEST(Sm90SplitAutotuneHost, CandidatesAreThePlannersPlans) {
  const Autotune off(false);
  const Shape shapes[] = {{256, 512, 16384}, {1016, 1648, 11344}, {256, 256, 65536}, {130, 258, 3000}, {7, 33, 4097}};
  for (const Shape& s : shapes) {
    const GemmDesc g = tn_problem(DType::bf16, s);
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    const std::vector<SplitKPlan> plans = split_k_tile_plans(g, DType::bf16, 132, 3);
    ASSERT_FALSE(plans.empty());
    EXPECT_LE(plans.size(), 12u);
    for (std::size_t i = 0; i < plans.size(); ++i) {
      const SplitKPlan& p = plans[i];
      if (i > 0 && plans[i - 1].variant == p.variant) EXPECT_LE(plans[i - 1].predicted_us, p.predicted_us);
      // The table's plan for this tile and count is the plan itself.
      ASSERT_TRUE(add_tuned_split_plan({g.m, g.n, g.k, DType::bf16, g.a.layout, g.b.layout, 64 * p.variant.consumers,
                                        p.variant.tile_n, p.splits, 1.0})
                      .ok());
      const SplitKPlan t = plan_split_k(g, DType::bf16, 132);
      EXPECT_EQ(t.variant, p.variant);
      EXPECT_EQ(t.splits, p.splits);
      EXPECT_EQ(t.k_blocks_per_split, p.k_blocks_per_split);
      EXPECT_EQ(t.ctas, p.ctas);
      EXPECT_EQ(t.workspace_bytes, p.workspace_bytes);
      EXPECT_NEAR(t.predicted_us, p.predicted_us, 1e-9);
    }
    clear_tuned_split_plans();
  }
}

TEST(Sm90SplitAutotuneHost, SwitchAndWhatIsWanted) {
  const GemmDesc g = tn_problem(DType::bf16, {256, 512, 16384});
  const KernelEntry& k = planned_entry(DType::bf16);
  {
    const Autotune off(false);
    EXPECT_FALSE(split_autotune());
    EXPECT_FALSE(split_autotune_wanted(k, g));
  }
  const Autotune on(true);
  EXPECT_TRUE(split_autotune());
  EXPECT_TRUE(split_autotune_wanted(k, g));
  const KernelEntry* plain = find_kernel("sm90_wgmma_bf16_128x256x64_s4_ws_splitk");
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(split_autotune_wanted(*plain, g)) << "a by-name entry runs its own tile";
  {
    const ForcedSplits forced(4);
    EXPECT_FALSE(split_autotune_wanted(k, g));
  }
  ASSERT_TRUE(add_tuned_split_plan({g.m, g.n, g.k, DType::bf16, g.a.layout, g.b.layout, 128, 64, 6, 19.5}).ok());
  EXPECT_FALSE(split_autotune_wanted(k, g)) << "the table has a plan";
}

// The first gemm() call tunes; D is checked against the reference and bitwise on a second call; the
// problem is settled after it (no second tuning: the table's generation stays).
TEST(Sm90SplitAutotune, FirstCallTunesAndDIsRight) {
  TCGEMM_REQUIRE_GPU(90);
  const Autotune on(true);
  const KernelEntry entry = gemm_entry();
  const DType kOut[] = {DType::bf16, DType::f32, DType::f16};
  struct Case {
    DType input;
    Shape shape;
  };
  const Case cases[] = {{DType::bf16, {256, 512, 16384}}, {DType::bf16, {1016, 1648, 11344}}, {DType::f16, {256, 256, 8192}},
                        {DType::bf16, {130, 258, 3000}}, {DType::bf16, {200, 72, 4160}}};
  // TCGEMM_TEST_SMALL=1 (the sanitizers' runs): the last two cases only.
  const char* small = std::getenv("TCGEMM_TEST_SMALL");
  const bool only_small = small != nullptr && small[0] == '1';
  int variant = 0;
  for (const Case& c : cases) {
    if (only_small && c.shape.k > 5000) continue;
    GemmDesc g = tn_problem(c.input, c.shape);
    vary_epilogue(g, variant++, kOut);
    SCOPED_TRACE(std::to_string(c.shape.m) + "x" + std::to_string(c.shape.n) + "x" + std::to_string(c.shape.k));
    Result<std::string_view> pick = pick_kernel(g);
    ASSERT_TRUE(pick.ok());
    const KernelEntry* k = find_kernel(*pick);
    ASSERT_NE(k, nullptr);
    if (!split_autotune_wanted(*k, g)) {
      ADD_FAILURE() << "gemm() picks " << *pick << " here, not the split planner's entry";
      continue;
    }
    const std::string model = describe(plan_split_k(g, c.input, current_sm_count()));  // before tuning
    run_and_check(entry, g, 0, /*twice=*/true);
    EXPECT_FALSE(split_autotune_wanted(*k, g)) << "tuned once, then settled";
    const std::optional<TunedSplitPlan> t = find_tuned_split_plan(g);
    if (t) {
      EXPECT_GT(t->measured_us, 0);
      std::printf("[autotune] %s %lldx%lldx%lld: %dx%d x%d %.1f us (the model's plan: %s)\n", to_string(c.input).data(),
                  static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k), t->tile_m,
                  t->tile_n, t->splits, t->measured_us, model.c_str());
    }
  }
}

// Off, forced or capturing: gemm() runs the model's plan and tunes nothing.
TEST(Sm90SplitAutotune, NothingTunedOffForcedOrCapturing) {
  TCGEMM_REQUIRE_GPU(90);
  const KernelEntry entry = gemm_entry();
  const DType kOut[] = {DType::bf16, DType::f32, DType::f16};
  GemmDesc g = tn_problem(DType::bf16, {256, 512, 8192});
  vary_epilogue(g, 0, kOut);
  {
    const Autotune off(false);
    const uint64_t gen = tuned_split_plans_generation();
    run_and_check(entry, g, 0, false);
    EXPECT_EQ(tuned_split_plans_generation(), gen);
  }
  {
    const Autotune on(true);
    const ForcedSplits forced(3);
    const uint64_t gen = tuned_split_plans_generation();
    run_and_check(entry, g, 0, false);
    EXPECT_EQ(tuned_split_plans_generation(), gen);
  }
  const Autotune on(true);
  const std::size_t na = static_cast<std::size_t>(g.m * g.k), nb = static_cast<std::size_t>(g.n * g.k);
  DeviceBuffer A(na * 2), B(nb * 2), C(static_cast<std::size_t>(g.m * g.n) * 4), D(static_cast<std::size_t>(g.m * g.n) * 4);
  fill(A.p, na, DType::bf16);
  fill(B.p, nb, DType::bf16);
  fill(C.p, static_cast<std::size_t>(g.m * g.n), g.c.dtype);
  CUDA_OK(cudaDeviceSynchronize());
  cudaStream_t st = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const uint64_t gen = tuned_split_plans_generation();
  CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  const Status s = gemm(g, A.p, B.p, C.p, D.p, st);
  cudaGraph_t graph = nullptr;
  CUDA_OK(cudaStreamEndCapture(st, &graph));
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(tuned_split_plans_generation(), gen) << "nothing tuned while capturing";
  EXPECT_TRUE(split_autotune_wanted(planned_entry(DType::bf16), g)) << "still to tune outside the capture";
  if (graph) (void)cudaGraphDestroy(graph);
  CUDA_OK(cudaStreamDestroy(st));
}

}  // namespace
}  // namespace tcgemm
