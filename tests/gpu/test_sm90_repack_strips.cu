// D's thin edge computed inside the repack copies (src/kernels/common/repack_strips.cu) with the
// persistent cluster kernel on the tile-exact core (`_pc2x1_repack_strips`), against the device
// reference: strips of 1..8 rows and/or columns, odd ld's and a misaligned base (both A and B
// copied), K of 1 and K tails, alpha != 1, a core on stream-K (4225x4353: 289 pair-tiles), D's
// ld padding kept poisoned, each case twice with D compared bit for bit. Cases named "Small" are
// quick enough for compute-sanitizer (TCGEMM_TEST_SMALL=1 keeps only those).
// Host: what the plan peels and what it refuses, and gemm()'s pick at 4097^3.
#include <string>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/repack_strips.hpp"
#include "kernels/sm90/pc_repack.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

struct StripCase {
  const char* name;
  DType input;
  Shape s;
  int64_t base_offset;  // bytes past an aligned address for A and B (2: both misaligned by base)
  float alpha;
  int64_t d_pad;        // D's ld = N + d_pad
};

// lda/ldb: odd (so TMA's rule breaks) unless the case misaligns the bases instead.
GemmDesc strip_problem(const StripCase& c) {
  GemmDesc g;
  g.m = c.s.m;
  g.n = c.s.n;
  g.k = c.s.k;
  const int64_t odd = c.s.k | 1;
  const int64_t ld = c.base_offset != 0 ? round_up(c.s.k, 8) : odd;
  g.a = {c.input, Layout::row, ld};
  g.b = {c.input, Layout::column, c.base_offset != 0 ? ld + 8 : odd + 2};
  g.d = {c.input, Layout::row, c.s.n + c.d_pad};
  g.c = g.d;
  g.alpha = c.alpha;
  g.beta = 0.0f;
  if (c.base_offset != 0) g.a.pointer_alignment = g.b.pointer_alignment = 2;
  return g;
}

const StripCase kCases[] = {
    {"Small_1row_1col", DType::bf16, {257, 257, 33}, 0, 1.0f, 3},
    {"Small_8rows_8cols", DType::bf16, {264, 520, 77}, 0, 0.75f, 0},
    {"Small_7cols_k1", DType::bf16, {300, 263, 1}, 0, 1.0f, 5},
    {"Small_1row_only_f16", DType::f16, {385, 300, 200}, 0, -1.5f, 1},
    {"Small_base_offset", DType::bf16, {264, 257, 64}, 2, 1.0f, 0},
    {"f16_1row_7cols", DType::f16, {129, 1031, 7}, 0, 1.0f, 2},
    {"streamk_core_4225x4353", DType::bf16, {4225, 4353, 4100}, 0, 1.0f, 0},  // 65 k-blocks: shared
    {"cliff_4097", DType::bf16, {4097, 4097, 4097}, 0, 1.0f, 0},
};

class Sm90RepackStrips : public ::testing::TestWithParam<int> {};

TEST_P(Sm90RepackStrips, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const StripCase& c = kCases[GetParam()];
  if (small_only() && std::string(c.name).rfind("Small", 0) != 0) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const std::string name = std::string("sm90_wgmma_") + (c.input == DType::bf16 ? "bf16" : "f16") +
                           "_128x256x64_s3_pc2x1_repack_strips";
  const KernelEntry* k = find_kernel(name);
  ASSERT_NE(k, nullptr) << name;
  const GemmDesc g = strip_problem(c);
  // The kernel's own rule; gemm() additionally leaves grids under one round to the split plan
  // (the entry's supports), but the launch runs any problem the rule admits.
  const Status rule = sm90_pc_repack_strips_supports(g, c.input);
  ASSERT_TRUE(rule.ok()) << rule.message();
  run_and_check(*k, g, static_cast<size_t>(c.base_offset), /*twice=*/true);
}

INSTANTIATE_TEST_SUITE_P(Cases, Sm90RepackStrips, ::testing::Range(0, static_cast<int>(std::size(kCases))),
                         [](const ::testing::TestParamInfo<int>& info) { return std::string(kCases[info.param].name); });

TEST(Sm90RepackStripsStatus, WorkspaceTooSmallIsAStatus) {
  TCGEMM_REQUIRE_GPU(90);
  const GemmDesc g = strip_problem({"", DType::bf16, {257, 257, 33}, 0, 1.0f, 0});
  DeviceBuffer A(257 * 33 * 2), B(257 * 35 * 2), D(257 * 257 * 2), W(256);
  const Status s = sm90_pc_repack_strips_launch(device_args(g, A.p, B.p, D.p, W.p, 256), DType::bf16);
  EXPECT_EQ(s.code(), StatusCode::workspace_too_small) << s.message();
}

// --- host ---------------------------------------------------------------------------------------
TEST(Sm90RepackStripsHost, PlanPeelsThinEdgesOnly) {
  const auto plan = [](Shape s, int64_t lda, int64_t ldb) {
    GemmDesc g = strip_problem({"", DType::bf16, s, 0, 1.0f, 0});
    g.a.ld = lda;
    g.b.ld = ldb;
    std::string why;
    const StripPeelPlan p = plan_strip_peel(g, 128, 256, &why);
    return std::make_pair(p, why);
  };
  auto [p, why] = plan({4097, 4097, 4097}, 4097, 4097);
  EXPECT_EQ(p.rows, 1);
  EXPECT_EQ(p.cols, 1);
  EXPECT_EQ(p.m_core, 4096);
  EXPECT_EQ(p.n_core, 4096);
  std::tie(p, why) = plan({4104, 4100, 1001}, 1001, 1001);  // 8 rows, 4 columns
  EXPECT_EQ(p.rows, 8);
  EXPECT_EQ(p.cols, 4);
  std::tie(p, why) = plan({4105, 4097, 1001}, 1001, 1001);  // 9 rows stay in the core's tile
  EXPECT_EQ(p.rows, 0);
  EXPECT_EQ(p.cols, 1);
  std::tie(p, why) = plan({4095, 4095, 4095}, 4095, 4095);  // 127 rows, 255 columns: nothing thin
  EXPECT_FALSE(p.any());
  EXPECT_NE(why.find("wider than 8"), std::string::npos) << why;
  std::tie(p, why) = plan({4097, 4097, 4096}, 4096, 4097);  // A meets TMA's rule: not copied
  EXPECT_FALSE(p.any());
  EXPECT_NE(why.find("not copied"), std::string::npos) << why;
  std::tie(p, why) = plan({4097, 4097, 65537}, 65537, 65537);  // long K: 129 sums a strip line
  EXPECT_EQ(p.rows, 1);
  std::tie(p, why) = plan({4104, 4104, 1048577}, 1048577, 1048577);  // 2049 sums x 8 x 8200 lines
  EXPECT_FALSE(p.any());
  EXPECT_NE(why.find("MiB"), std::string::npos) << why;
  std::tie(p, why) = plan({129, 7, 64}, 65, 65);  // no full 256-wide column beside a strip
  EXPECT_EQ(p.rows, 1);
  EXPECT_EQ(p.cols, 0);
}

TEST(Sm90RepackStripsHost, CoreKeepsDsLdAndTheCopiesLds) {
  GemmDesc g = strip_problem({"", DType::bf16, {4097, 4097, 4097}, 0, 1.0f, 0});
  const StripPeelPlan p = plan_strip_peel(g, 128, 256);
  const GemmDesc core = strip_core_desc(g, plan_tma_repack(g), p);
  EXPECT_EQ(core.m, 4096);
  EXPECT_EQ(core.n, 4096);
  EXPECT_EQ(core.d.ld, 4097);
  EXPECT_EQ(core.a.ld, 4160);
  EXPECT_EQ(core.b.ld, 4160);
}

TEST(Sm90RepackStripsHost, RefusesWhatItCannotPeel) {
  GemmDesc g = strip_problem({"", DType::bf16, {4097, 4097, 4097}, 0, 1.0f, 0});
  g.beta = 0.5f;
  EXPECT_FALSE(sm90_pc_repack_strips_supports(g, DType::bf16).ok());
  g = strip_problem({"", DType::bf16, {4095, 4095, 4095}, 0, 1.0f, 0});
  const Status s = sm90_pc_repack_strips_supports(g, DType::bf16);
  EXPECT_EQ(s.code(), StatusCode::unsupported) << s.message();
}

// gemm() takes the strips at the cliff; 4095^3 keeps repack + the cluster kernel.
TEST(Sm90RepackStripsHost, GemmPicksStripsAt4097) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  const GemmDesc g = strip_problem({"", DType::bf16, {4097, 4097, 4097}, 0, 1.0f, 0});
  EXPECT_EQ(pick_kernel(g).value(), "sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_strips");
}

// Where the tiles fill under one round, the repack + split-K plan serves the problem, thin edge or
// not (334x774x8082: 91.9 us on the strips' 12 CTAs against 36.6 us planned, run 66).
TEST(Sm90RepackStripsHost, SmallGridsGoToTheSplitPlan) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  for (const Shape s : {Shape{334, 774, 8082}, Shape{260, 79, 1508}}) {
    const GemmDesc g = strip_problem({"", DType::bf16, s, 0, 1.0f, 0});
    EXPECT_TRUE(sm90_pc_repack_strips_supports(g, DType::bf16).ok()) << shape_name(s) << ": a thin edge it could take";
    // The planned split path, its copies by the copies kernel or (small copies, _repack_fused_small)
    // by the grid itself.
    const std::string picked(pick_kernel(g).value());
    EXPECT_EQ(picked.rfind("sm90_wgmma_bf16_128xN_ws_repack_", 0), 0u) << shape_name(s) << ": " << picked;
    EXPECT_EQ(picked.find("strips"), std::string::npos) << shape_name(s) << ": " << picked;
  }
}

}  // namespace
}  // namespace tcgemm
