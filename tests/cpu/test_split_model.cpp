// The split planner's time model (analysis/split_model.hpp): its terms add up to its time, and the
// term it names as binding is the longest, at shapes whose binding limit was measured (NOTES:
// 333x777x4099's unsplit 128x64 pass at one SM's ~90 GB/s of TMA loads, run 152; 128x8192x28672
// streaming B from DRAM, run 109).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analysis/split_model.hpp"

namespace tcgemm {
namespace {

constexpr double kBf16Peak = 989e12;

SplitPassTile tile(int n) { return SplitPassTile{128, n, 64, split_tile_efficiency(n), 0.0, false, 0.0}; }

double sum(const SplitPassTerms& t) {
  return t.pass_us() + t.launch_us + t.fill_us + t.slabs_us + t.reduce_launch_us;
}

TEST(SplitModel, TermsAddUpToTheModelsTime) {
  for (int n : {256, 128, 64})
    for (int splits : {1, 3, 25}) {
      const SplitPassTerms t = split_pass_model_terms(333, 777, 4099, 2.0, kBf16Peak, tile(n), splits, 132);
      EXPECT_NEAR(sum(t), t.total_us, 1e-9) << n << " x" << splits;
      EXPECT_DOUBLE_EQ(t.total_us, split_pass_model_us(333, 777, 4099, 2.0, kBf16Peak, tile(n), splits, 132));
      EXPECT_EQ(t.slabs_us > 0, splits > 1) << "slabs exactly when it splits";
      EXPECT_EQ(t.reduce_launch_us > 0, splits > 1) << "a reduce launch exactly when it splits";
    }
}

TEST(SplitModel, NamesWhatBinds) {
  // 333x777x4099 on 128x64, unsplit: 39 CTAs of 65 k-blocks, each k-block's 24 KB at one SM's TMA
  // rate (0.27 us) against 0.25 us of MMAs.
  const SplitPassTerms unsplit = split_pass_model_terms(333, 777, 4099, 2.0, kBf16Peak, tile(64), 1, 132);
  EXPECT_EQ(unsplit.ctas, 39);
  EXPECT_EQ(unsplit.k_blocks_per_cta, 65);
  EXPECT_STREQ(unsplit.binding(), "a CTA's loads");
  EXPECT_GT(unsplit.load_kblock_us, unsplit.mma_kblock_us);
  // At 3 splits, 117 CTAs re-read the panels: L2 (6.7 us) passes a CTA's 22 k-blocks (6.0).
  const SplitPassTerms split3 = split_pass_model_terms(333, 777, 4099, 2.0, kBf16Peak, tile(64), 3, 132);
  EXPECT_EQ(split3.ctas, 117);
  EXPECT_STREQ(split3.binding(), "L2");
  EXPECT_GT(split3.l2_us, split3.cta_us);
  // 128x8192x28672 on 128x256 x3: B's 470 MB from DRAM.
  const SplitPassTerms stream = split_pass_model_terms(128, 8192, 28672, 2.0, kBf16Peak, tile(256), 3, 132);
  EXPECT_STREQ(stream.binding(), "DRAM");
  // 4096x4096x4096 on 128x256, unsplit: 512 CTAs in 4 rounds of MMAs.
  const SplitPassTerms big = split_pass_model_terms(4096, 4096, 4096, 2.0, kBf16Peak, tile(256), 1, 132);
  EXPECT_EQ(big.rounds, 4);
  EXPECT_STREQ(big.binding(), "a CTA's MMAs");
}

TEST(SplitModel, BestPlanCarriesItsTerms) {
  const SplitPassTile tiles[3] = {tile(256), tile(128), tile(64)};
  const bool allowed[3] = {true, true, true};
  const SplitPassPlan p = best_split_pass(333, 777, 4099, 2.0, kBf16Peak, tiles, allowed, 3, 132, 0);
  ASSERT_GE(p.tile, 0);
  EXPECT_DOUBLE_EQ(p.terms.total_us, p.us);
  EXPECT_EQ(p.terms.ctas, p.ctas);
  EXPECT_EQ(p.terms.k_blocks_per_cta, p.k_blocks_per_split);
}

// The 128x64 pair sharing A (exp/pair-plan): half of A's rows in the L2 term, its fixed cost in
// the fill, never split, and taken over the plain 128x64 tile only where A's L2 reads bind.
SplitPassTile pair() {
  SplitPassTile t = tile(64);
  t.a_share = 2;
  t.max_splits = 1;
  return t;
}

TEST(SplitModel, PairHalvesALinesInL2AndPaysAFixedCost) {
  const SplitPassTerms plain = split_pass_model_terms(128, 8192, 28672, 2.0, kBf16Peak, tile(64), 1, 132);
  const SplitPassTerms shared = split_pass_model_terms(128, 8192, 28672, 2.0, kBf16Peak, pair(), 1, 132);
  EXPECT_NEAR(shared.l2_us / plain.l2_us, (64.0 + 64.0) / (128.0 + 64.0), 1e-9);
  EXPECT_DOUBLE_EQ(shared.dram_us, plain.dram_us);
  EXPECT_GT(shared.fill_us, plain.fill_us);
  EXPECT_NEAR(sum(shared), shared.total_us, 1e-9);
}

TEST(SplitModel, PairRunsUnsplitAndOnlyWhereALoadsBind) {
  const SplitPassTile tiles[4] = {tile(256), tile(128), tile(64), pair()};
  const bool allowed[4] = {true, true, true, true};
  // Long K, 128 tiles of 128x64: the plain tile is bound by every CTA re-reading A from L2.
  const SplitPassPlan lng = best_split_pass(128, 8192, 28672, 2.0, kBf16Peak, tiles, allowed, 4, 132, 0);
  EXPECT_EQ(lng.tile, 3);
  EXPECT_EQ(lng.splits, 1);
  // K = 8192: the pair's fixed cost outweighs its L2 saving (it ran 2.4% behind there, run 256).
  EXPECT_NE(best_split_pass(128, 8192, 8192, 2.0, kBf16Peak, tiles, allowed, 4, 132, 0).tile, 3);
  // A forced split count above its cap never takes it.
  EXPECT_NE(best_split_pass(128, 8192, 28672, 2.0, kBf16Peak, tiles, allowed, 4, 132, 3).tile, 3);
  // 256x256x65536 still splits.
  EXPECT_GT(best_split_pass(256, 256, 65536, 2.0, kBf16Peak, tiles, allowed, 4, 132, 0).splits, 1);
}

}  // namespace
}  // namespace tcgemm
