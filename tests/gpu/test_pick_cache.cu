// gemm()'s choice is cached per problem (runtime/gemm.cpp): the cache must answer exactly what the
// registry scan does, for every field that changes the answer, and survive eviction. Host only
// (pick_kernel answers for sm_90 without a GPU).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/sm90_test_util.cuh"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

std::string pick(const GemmDesc& g) {
  const Result<std::string_view> k = pick_kernel(g);
  return k.ok() ? std::string(k.value()) : "refused: " + k.status().message();
}

TEST(PickCacheHost, FieldsThatChangeTheAnswerChangeIt) {
  GemmDesc aligned = tn_problem(DType::bf16, {4096, 4096, 4096});
  GemmDesc with_c = aligned;
  with_c.beta = 1.0f;  // a column-major C: the cluster kernel loads C row-major only
  with_c.c.layout = Layout::column;
  GemmDesc misaligned = aligned;
  misaligned.a.pointer_alignment = 2;  // A breaks TMA's 16-byte rule: the repack path
  GemmDesc small_m = tn_problem(DType::bf16, {16, 4096, 4096});
  GemmDesc f16 = tn_problem(DType::f16, {4096, 4096, 4096});
  const std::vector<GemmDesc> all = {aligned, with_c, misaligned, small_m, f16};
  std::vector<std::string> first;
  for (const GemmDesc& g : all) first.push_back(pick(g));
  EXPECT_NE(first[0], first[1]);
  EXPECT_NE(first[0], first[2]);
  EXPECT_NE(first[0], first[3]);
  EXPECT_NE(first[0], first[4]);
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(pick(all[i]), first[i]) << "problem " << i << ", round " << round;
}

TEST(PickCacheHost, AnswersStayTheSameThroughEviction) {
  // More distinct problems than the cache keeps (32), asked forwards then backwards.
  std::vector<GemmDesc> all;
  for (int64_t m : {1, 7, 16, 17, 33, 64, 65, 100, 128, 129, 255, 333, 1000, 1001, 2048, 4095, 4096, 4097})
    for (int64_t n : {777, 8192}) all.push_back(tn_problem(DType::bf16, {m, n, 4099}));
  ASSERT_GT(all.size(), 32u);
  std::vector<std::string> first;
  for (const GemmDesc& g : all) first.push_back(pick(g));
  for (size_t i = all.size(); i-- > 0;) EXPECT_EQ(pick(all[i]), first[i]) << shape_name({all[i].m, all[i].n, all[i].k});
}

TEST(PickCacheHost, TheSplitOverrideIsPartOfTheKey) {
  // 64 tiles of 128x256: the cluster kernel unforced; 4 forced splits fit one round of split-K.
  const GemmDesc g = tn_problem(DType::bf16, {2048, 2048, 8192});
  std::vector<std::string> first;
  for (int s : {0, 1, 4}) {
    const ForcedSplits forced(s);
    first.push_back(pick(g));
  }
  EXPECT_NE(first[0], first[2]);
  for (int round = 0; round < 2; ++round) {
    int i = 0;
    for (int s : {0, 1, 4}) {
      const ForcedSplits forced(s);
      EXPECT_EQ(pick(g), first[i++]) << "forced splits " << s;
    }
  }
}

}  // namespace
}  // namespace tcgemm
