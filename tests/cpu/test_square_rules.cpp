// The 192x176 rule gemm()'s persistent-cluster entries and explain share (analysis/path_rules.hpp):
// where 192x176 replaces 192x192 (same rounds, 176 filling the last one that 192 leaves part-full;
// bench/NOTES.md run 262). square_tile_wins itself is checked in test_sm90_persistent_cluster.cu's
// host test.
#include <gtest/gtest.h>

#include "analysis/path_rules.hpp"

namespace tcgemm {
namespace {

constexpr int64_t kSms = 132;

TEST(SquareRules, The176TileFillsTheRoundsThat192LeavesPartFull) {
  // 4224^3: 242 pair-tiles of 192x192 (4 rounds, the last 2/3 full), 264 of 192x176 (4 full).
  EXPECT_EQ(pair_tiles(4224, 4224, 192, 192), 242);
  EXPECT_EQ(pair_tiles(4224, 4224, 192, 176), 264);
  EXPECT_TRUE(square176_wins(4224, 4224, kSms));
  // One round: the 3-stage 176 lost or tied at short K (run 225), so 192x192 keeps them.
  EXPECT_FALSE(square176_wins(6656, 520, kSms));
  EXPECT_FALSE(square176_wins(6144, 640, kSms));
  EXPECT_FALSE(square176_wins(11000, 336, kSms));
  // More rounds on 176 than on 192, or shapes outside the square tile's rule.
  EXPECT_FALSE(square176_wins(4127, 4563, kSms));
  EXPECT_FALSE(square176_wins(4096, 4096, kSms));
  // Fewer SMs change the rounds: on 114 (57 clusters) 264 pair-tiles of 176 leave its last round
  // part-full too, so 192x192 keeps the shape.
  EXPECT_FALSE(square176_wins(4224, 4224, 114));
}

}  // namespace
}  // namespace tcgemm
