// The ws kernel's TMA multicast clusters (register_multicast.cu): every entry against the device
// reference on fresh inputs with D poisoned, tails where a cluster's upper part lies wholly past M
// or N (not loaded, not counted), K tails, every D/C dtype and layout, forced splits, twice bitwise;
// and the refusals (layouts, tiles that do not divide into clusters).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "kernels/sm90/multicast.hpp"
#include "kernels/sm90/split_k.hpp"

namespace tcgemm {
namespace {

const char* const kSplitEntries[] = {
    "sm90_wgmma_bf16_128x256x64_s4_splitk_mc2x1", "sm90_wgmma_bf16_128x256x64_s4_splitk_mc1x2",
    "sm90_wgmma_bf16_128x128x64_s7_splitk_mc2x1", "sm90_wgmma_bf16_128x128x64_s7_splitk_mc1x2",
    "sm90_wgmma_bf16_128x128x64_s7_splitk_mc2x2", "sm90_wgmma_bf16_128x64x64_s9_splitk_mc1x2",
    "sm90_wgmma_bf16_128x64x64_s9_splitk_mc2x2",  "sm90_wgmma_bf16_64x64x64_s14_splitk_mc1x2",
    "sm90_wgmma_bf16_64x128x64_s9_swapab_splitk_mc2x1",
};
const char* const kPlainEntries[] = {
    "sm90_wgmma_bf16_64x64x64_s14_mc1x2", "sm90_wgmma_bf16_64x32x64_s16_mc1x2",
    "sm90_wgmma_bf16_128x256x64_s4_mc2x1", "sm90_wgmma_bf16_128x256x64_s4_mc1x2",
    "sm90_wgmma_bf16_128x64x64_s9_mc1x2",  "sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1",
    "sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x2",
};

// 130 and 260: the last tile row or column's upper part starts past M or N for 128- and 256-wide
// tiles (192 >= 130, 384 >= 260), so the parts that CTA would multicast are skipped. 128 and 200
// rows: two and four 64-row M tiles for the swapped entries (200: the last one's upper part past M).
const Shape kSplitShapes[] = {{256, 256, 4096}, {130, 130, 2000}, {256, 260, 777}, {512, 1024, 1100}, {200, 520, 4097}};
const Shape kPlainShapes[] = {{64, 4096, 512}, {33, 130, 1000}, {40, 256, 4097}, {256, 520, 300}, {130, 1024, 64}, {1, 128, 7},
                             {128, 1024, 1000}, {200, 256, 777}};
const int kForced[] = {0, 2, 7, 64};

using McCase = std::tuple<int, int, int>;  // entry, shape, forced split (plain entries: 0 only)

void check_case(const char* entry, Shape sh, int forced, int variant) {
  if (small_only() && sh.k > 1100) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  const KernelEntry* k = find_kernel(entry);
  ASSERT_NE(k, nullptr) << entry;
  const ForcedSplits f(forced);
  GemmDesc g = tn_problem(DType::bf16, sh);
  const DType outs[] = {DType::bf16, DType::f32, DType::f16};
  vary_epilogue(g, variant, outs);
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status supported = k->supports(g);
  if (supported.code() == StatusCode::unsupported) GTEST_SKIP() << "refused by design: " << supported.message();
  ASSERT_TRUE(supported.ok()) << supported.message();
  SCOPED_TRACE(std::string(entry) + " " + shape_name(sh) + ", splits " + std::to_string(k->split_k(g)) + ", " +
               k->describe(g));
  run_and_check(*k, g, 0, /*twice=*/true);
}

class Sm90MulticastSplit : public ::testing::TestWithParam<McCase> {};
TEST_P(Sm90MulticastSplit, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [e, s, f] = GetParam();
  check_case(kSplitEntries[e], kSplitShapes[s], kForced[f], e + s + f);
}
INSTANTIATE_TEST_SUITE_P(Entries, Sm90MulticastSplit,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kSplitEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kSplitShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kForced)))));

class Sm90MulticastPlain : public ::testing::TestWithParam<std::tuple<int, int>> {};
TEST_P(Sm90MulticastPlain, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [e, s] = GetParam();
  check_case(kPlainEntries[e], kPlainShapes[s], 0, e + s);
}
INSTANTIATE_TEST_SUITE_P(Entries, Sm90MulticastPlain,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kPlainEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kPlainShapes)))));

// The 16-bit row-major D with beta = 0 (the register-store epilogue) on full and ragged tiles.
TEST(Sm90MulticastPlain, RegisterStoresOfA16BitD) {
  TCGEMM_REQUIRE_GPU(90);
  for (const char* entry : kPlainEntries) {
    int ran = 0;
    for (const Shape sh : {Shape{256, 1024, 640}, Shape{200, 1030, 130}}) {
      const KernelEntry* k = find_kernel(entry);
      ASSERT_NE(k, nullptr) << entry;
      const GemmDesc g = tn_problem(DType::bf16, sh);
      if (!k->supports(g).ok()) continue;
      SCOPED_TRACE(std::string(entry) + " " + shape_name(sh));
      run_and_check(*k, g, 0, /*twice=*/true);
      ++ran;
    }
    EXPECT_GT(ran, 0) << entry << " ran none of the cases (256x1024 divides into every entry's clusters)";
  }
}

TEST(Sm90MulticastHost, RefusesWhatItCannotRun) {
  TCGEMM_REQUIRE_GPU(90);
  GemmDesc g = tn_problem(DType::bf16, {256, 256, 4096});
  ASSERT_TRUE(sm90_wgmma_ws_multicast_supports(g, DType::bf16, Sm90WsVariant{128, 7}, {2, 2}).ok());
  GemmDesc col_a = g;
  col_a.a = {DType::bf16, Layout::column, 0};
  EXPECT_EQ(sm90_wgmma_ws_multicast_supports(col_a, DType::bf16, Sm90WsVariant{128, 7}, {2, 1}).code(),
            StatusCode::unsupported);
  // 3 tile rows do not pair along M; 1 tile column does not pair along N.
  const GemmDesc odd = tn_problem(DType::bf16, {384, 128, 4096});
  EXPECT_EQ(sm90_wgmma_ws_multicast_supports(odd, DType::bf16, Sm90WsVariant{128, 7}, {2, 1}).code(),
            StatusCode::unsupported);
  EXPECT_EQ(sm90_wgmma_ws_multicast_supports(odd, DType::bf16, Sm90WsVariant{128, 7}, {1, 2}).code(),
            StatusCode::unsupported);
  EXPECT_EQ(sm90_wgmma_ws_multicast_supports(g, DType::bf16, Sm90WsVariant{128, 7}, {4, 1}).code(),
            StatusCode::unsupported);
  // One round of clusters: 4 tiles of 128x128 in 2x2 clusters split at most as many times as
  // clusters of 4 stay resident.
  const int resident = sm90_wgmma_ws_multicast_resident_ctas(DType::bf16, Sm90WsVariant{128, 7}, {2, 2});
  EXPECT_GE(resident, 4);
  EXPECT_LE(resident, current_sm_count());
  const GemmDesc long_k = tn_problem(DType::bf16, {256, 256, 65536});  // 1024 k-blocks
  const int want = std::min(64, resident / 4), per = (1024 + want - 1) / want;
  EXPECT_EQ(multicast_splits(long_k, DType::bf16, Sm90WsVariant{128, 7}, {2, 2}), (1024 + per - 1) / per);
}

// What `tcgemm kernels` and explain read: each entry's cluster in the problem's terms, and the
// swapped entries' tile as 64 rows of M by 128 of N (no GPU needed).
TEST(Sm90MulticastHost, EntriesListTheirClusterAndTile) {
  struct Want { const char* name; int tile_m, tile_n, cluster_m, cluster_n; };
  for (const Want w : {Want{"sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1", 64, 128, 2, 1},
                       Want{"sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x2", 64, 128, 2, 2},
                       Want{"sm90_wgmma_bf16_64x128x64_s9_swapab_splitk_mc2x1", 64, 128, 2, 1},
                       Want{"sm90_wgmma_bf16_128x64x64_s9_mc1x2", 128, 64, 1, 2},
                       Want{"sm90_wgmma_bf16_128x256x64_s4_splitk_mc2x1", 128, 256, 2, 1}}) {
    const KernelEntry* k = find_kernel(w.name);
    ASSERT_NE(k, nullptr) << w.name;
    EXPECT_EQ(k->tile_m, w.tile_m) << w.name;
    EXPECT_EQ(k->tile_n, w.tile_n) << w.name;
    EXPECT_EQ(k->cluster_m, w.cluster_m) << w.name;
    EXPECT_EQ(k->cluster_n, w.cluster_n) << w.name;
  }
}

}  // namespace
}  // namespace tcgemm
