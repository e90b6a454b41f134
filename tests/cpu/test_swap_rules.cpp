// The swap A/B planning rules shared by gemm()'s entries and explain (analysis/path_rules.hpp), at
// the bounds the H200 runs measured (bench/NOTES.md, runs 174-197): which tile a small-M problem
// takes, how many splits its clusters take, and where a last round is split.
#include <gtest/gtest.h>

#include "analysis/path_rules.hpp"

namespace tcgemm {
namespace {

constexpr int64_t kSms = 132;

auto h200_capacity() {
  return [](int c) { return modeled_resident_clusters(c, kSms); };
}

TEST(SwapRules, ResidentClustersFollowTheH200Table) {
  const int64_t measured[] = {66, 39, 30, 22, 17, 15, 15};  // run 190, clusters of 2..8
  for (int c = 2; c <= 8; ++c) EXPECT_EQ(modeled_resident_clusters(c, kSms), measured[c - 2]) << c;
  EXPECT_EQ(modeled_resident_clusters(1, kSms), kSms);
  EXPECT_EQ(modeled_resident_clusters(9, kSms), 0);  // past the portable size
  EXPECT_EQ(modeled_resident_clusters(2, 66), 33);   // scaled to the SM count
  EXPECT_EQ(modeled_resident_clusters(8, 4), 1);     // never below one
}

// Width 64 takes 64 rows of N where ceil(N/64) tiles fit one round (run 194), only for 32 < M <= 64.
TEST(SwapRules, Width64TakesSixtyFourRowsForOneRound) {
  EXPECT_TRUE(tiles64x64_fit_one_round(64, 8192, kSms));   // 128 tiles
  EXPECT_TRUE(tiles64x64_fit_one_round(33, 8448, kSms));   // 132 tiles: exactly one round
  EXPECT_FALSE(tiles64x64_fit_one_round(64, 8449, kSms));  // 133
  EXPECT_FALSE(tiles64x64_fit_one_round(32, 4096, kSms));  // the 32-wide tile's M
  EXPECT_FALSE(tiles64x64_fit_one_round(65, 4096, kSms));  // the 128-wide tile's M
  // Disjoint from the four-consumer tile's rule (its 256-row tiles fill >= 80% of the SMs).
  for (int64_t n = 64; n <= 65536; n += 64)
    EXPECT_FALSE(tiles64x64_fit_one_round(64, n, kSms) && swap_wide_tile_fills(64, n, kSms)) << n;
}

// The most splits (<= 8, >= 4 k-blocks each) whose clusters fit one round (run 191's sweeps).
TEST(SwapRules, ClusterSplitsFitOneRound) {
  EXPECT_EQ(swap_cluster_splits(48, 192, kSms, h200_capacity()), 2);  // 16x3072x12288: 48 <= 66 pairs, > 39 triples
  EXPECT_EQ(swap_cluster_splits(16, 64, kSms, h200_capacity()), 6);   // 16x1024x4096: 16 <= 17 clusters of 6
  EXPECT_EQ(swap_cluster_splits(32, 64, kSms, h200_capacity()), 3);   // 64x4096x4096 on 64x128: 32 <= 39
  EXPECT_EQ(swap_cluster_splits(16, 12, kSms, h200_capacity()), 3);   // k-blocks cap it: 12 / 4
  EXPECT_EQ(swap_cluster_splits(66, 128, kSms, h200_capacity()), 1);  // half the SMs already: no split
  EXPECT_EQ(swap_cluster_splits(16, 7, kSms, h200_capacity()), 1);    // under 8 k-blocks: none fits
}

// A last round at most half full splits in two; 16x28672x8192: 448 tiles, 52 left (run 191).
TEST(SwapRules, TailSplitsAHalfEmptyLastRound) {
  EXPECT_EQ(swap_tail_first(448, 128, kSms, 66), 396);
  EXPECT_EQ(swap_tail_first(384, 128, kSms, 66), 0);   // 120 left: more than half full
  EXPECT_EQ(swap_tail_first(100, 128, kSms, 66), 0);   // one round only
  EXPECT_EQ(swap_tail_first(448, 4, kSms, 66), 0);     // too few k-blocks to split
  EXPECT_EQ(swap_tail_first(448, 128, kSms, 60), 0);   // pairs would not fill every SM
  EXPECT_EQ(swap_tail_first(133, 128, kSms, 66), 132);  // one tile left, after an even count
}

}  // namespace
}  // namespace tcgemm
