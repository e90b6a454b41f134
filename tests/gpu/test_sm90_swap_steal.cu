// Swap A/B with a shared tail (src/kernels/sm90/swap_steal.hpp): each tile's owner streams its
// head, the tails are a pool any CTA takes chunks from, and the tile's last finisher adds the
// parts in k order. Against the device reference, bf16 and f16, both widths, M of 1 to 32, N
// filling 3/4 to all of the SMs (ragged last tile), K with a tail and with 2- and 4-k-block
// chunks, beta 0 and -0.5, a column-major f32 D; D poisoned with NaN, its ld padding checked,
// each case run twice and compared bit for bit (the pool's counters reset themselves between
// launches). Then what the entry refuses, and that gemm() keeps the plain swap tile.
#include <cuda_runtime_api.h>

#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_steal.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_wgmma_bf16_16x64x64_s16_swapab_steal", "sm90_wgmma_bf16_32x64x64_s16_swapab_steal",
                                "sm90_wgmma_f16_16x64x64_s16_swapab_steal", "sm90_wgmma_f16_32x64x64_s16_swapab_steal"};

// N as tiles of the SM count: all of them (ragged by 37 columns), 4/5 of them, and 8192.
int64_t n_for(int which, int sms) {
  if (which == 0) return 64 * static_cast<int64_t>(sms) - 37;
  if (which == 1) return 64 * ((4 * static_cast<int64_t>(sms) + 4) / 5);
  return 8192;
}
const int64_t kKs[] = {1024, 4097, 8192};

// entry, M choice (0: smallest, 1: largest of the width), N choice, K, epilogue variant
using Case = std::tuple<int, int, int, int, int>;
class Sm90SwapSteal : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90SwapSteal, MatchesDeviceReferenceTwice) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, mi, ni, ki, variant] = GetParam();
  const KernelEntry* k = find_kernel(kEntries[ei]);
  ASSERT_NE(k, nullptr) << kEntries[ei];
  const bool narrow = ei % 2 == 0;
  const int sms = current_sm_count();
  const Shape s{narrow ? (mi == 0 ? 1 : 16) : (mi == 0 ? 17 : 32), n_for(ni, sms), kKs[ki]};
  if (ni == 2 && (s.n > 64 * sms || 4 * 128 < 3 * sms)) GTEST_SKIP() << "8192 is not a one-round N on this GPU";
  if (small_only() && (s.k > 1024 || ni != 0)) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  // 0: row-major D of the input type; 1: beta -0.5 with its own C (wider ld), alpha 1.25; 2: a
  // column-major f32 D, odd M (7 or 31) so its columns are ragged.
  GemmDesc g = tn_problem(k->input, s, 8, variant == 1 ? 1.25f : 1.0f);
  if (variant == 1) {
    g.beta = -0.5f;
    g.c = g.d;
    g.c.ld = g.d.ld + 16;
  } else if (variant == 2) {
    g.m = narrow ? 7 : 31;
    g.d = {DType::f32, Layout::column, round_up(g.m, 4) + 4};
    g.c = g.d;
  }
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  run_and_check(*k, g, 0, true);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, mi, ni, ki, variant] = info.param;
  const char* n[] = {"Nall", "N4of5", "N8192"};
  const char* v[] = {"rowD", "beta", "colF32D"};
  return std::string(kEntries[ei] + 11) + "_" + (mi == 0 ? "Mmin" : "Mmax") + "_" + n[ni] + "_K" +
         std::to_string(kKs[ki]) + "_" + v[variant];
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90SwapSteal,
                         ::testing::Combine(::testing::Range(0, 4), ::testing::Values(0, 1), ::testing::Values(0, 1, 2),
                                            ::testing::Range(0, 3), ::testing::Values(0, 1, 2)),
                         case_name);

TEST(Sm90SwapStealHost, RefusesWhatItCannotRun) {
  TCGEMM_REQUIRE_GPU(90);
  const int sms = current_sm_count();
  const int64_t n = 64 * static_cast<int64_t>(sms);
  auto refuses = [](const GemmDesc& g, const char* why) {
    const Status s = sm90_swap_steal_supports(g, DType::bf16);
    EXPECT_FALSE(s.ok()) << why;
    EXPECT_FALSE(s.message().empty()) << why;
  };
  refuses(tn_problem(DType::bf16, {33, n, 4096}), "M > 32");
  refuses(tn_problem(DType::bf16, {16, 1024, 4096}), "16 tiles: far from filling the SMs");
  refuses(tn_problem(DType::bf16, {16, n + 64, 4096}), "one tile more than SMs");
  refuses(tn_problem(DType::bf16, {16, n, 512}), "8 k-blocks: no pool");
  GemmDesc col_a = tn_problem(DType::bf16, {16, n, 4096});
  col_a.a = {DType::bf16, Layout::column, 16};
  refuses(col_a, "A column-major");
  GemmDesc odd_ld = tn_problem(DType::bf16, {16, n, 4096});
  odd_ld.b.ld = 4097;
  refuses(odd_ld, "ldb breaks TMA's 16-byte rule");
  EXPECT_TRUE(sm90_swap_steal_supports(tn_problem(DType::bf16, {16, n, 4096}), DType::bf16).ok());
}

TEST(Sm90SwapStealHost, PlanSplitsKIntoHeadAndPool) {
  const GemmDesc g = tn_problem(DType::bf16, {16, 8192, 8192});
  const SwapStealPlan p = plan_swap_steal(g, 132);
  EXPECT_EQ(p.tiles, 128);
  EXPECT_EQ(p.grid, 132);
  EXPECT_EQ(p.k_blocks, 128);
  EXPECT_EQ(p.chunk_kb, 16);
  EXPECT_EQ(p.head_kb + p.tail_chunks * p.chunk_kb, p.k_blocks);
  EXPECT_EQ(p.tail_chunks, 2);
  EXPECT_EQ(p.workspace_bytes, static_cast<std::size_t>(128 * 3 * 64 * 16 * 4));
  const SwapStealPlan q = plan_swap_steal(tn_problem(DType::bf16, {32, 8192, 1000}), 132);
  EXPECT_EQ(q.k_blocks, 16);
  EXPECT_EQ(q.chunk_kb, 2);
  EXPECT_EQ(q.head_kb, 12);
}

TEST(Sm90SwapStealHost, GemmKeepsThePlainSwapTileAtTheDecodeShape) {
  TCGEMM_REQUIRE_GPU(90);
  // The shared tail measured 3-5% slower there (session 11, call 10): by name only.
  Result<std::string_view> pick = pick_kernel(tn_problem(DType::bf16, {16, 8192, 8192}));
  ASSERT_TRUE(pick.ok()) << pick.status().message();
  EXPECT_EQ(*pick, "sm90_wgmma_bf16_16x64x64_s16_swapab");
}

}  // namespace
}  // namespace tcgemm
