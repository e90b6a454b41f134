// The "no cliffs" paths around the warp-specialized wgmma kernel, against the device reference:
//  - repack: A/B that break TMA's 16-byte rule (odd ld's, base pointers 2 bytes off) are copied
//    into an aligned workspace first (sm90_wgmma_*_ws_repack);
//  - split-K: small M*N with long K, forced split counts, awkward shapes, determinism
//    (sm90_wgmma_*_ws_splitk).
// D is poisoned with NaN first; C/D dtypes, layouts, alpha and beta vary across cases.
// Swap A/B for small M: test_sm90_swap_ab.cu; the timings (TCGEMM_BENCH=1): test_sm90_cliffs_bench.cu.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/path_rules.hpp"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/element.cuh"
#include "kernels/common/repack.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/pc_repack.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "reference/reference_gemm.hpp"
#include "runtime/cublaslt_provider.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {


constexpr const char* kPlainBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws";
constexpr const char* kRepackBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_repack";
constexpr const char* kRepackF16 = "sm90_wgmma_f16_128x256x64_s4_ws_repack";
constexpr const char* kSplitBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_splitk";
constexpr const char* kSplitF16 = "sm90_wgmma_f16_128x256x64_s4_ws_splitk";
constexpr const char* kPeelBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_peel";
constexpr const char* kPeelF16 = "sm90_wgmma_f16_128x256x64_s4_ws_peel";
constexpr const char* kRepackSplitBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_repack_splitk";
constexpr const char* kRepackSplitF16 = "sm90_wgmma_f16_128x256x64_s4_ws_repack_splitk";


const char* layout_name(Layout l) { return l == Layout::row ? "row" : "col"; }


const DType kOutTypes[] = {DType::bf16, DType::f32, DType::f16};

// --- repack -----------------------------------------------------------------------------------
// 68x176x7300: with A column-major, 7300 short lines beside B's 176 long ones in one copy launch.
const Shape kRepackShapes[] = {{1, 1, 1},          {7, 7, 7},           {33, 33, 33},       {1000, 1000, 1001},
                               {333, 777, 4099},   {4097, 513, 4097},   {1023, 4095, 4095}, {68, 176, 7300}};

// The tight ld when it already breaks the 16-byte rule, else tight + 1 (a padded, odd ld).
int64_t unaligned_ld(StoredExtent e, Layout l) {
  const int64_t t = tight_ld(e, l);
  return t % 8 == 0 ? t + 1 : t;
}

using RepackCase = std::tuple<DType, Layout, Layout, int, bool>;  // input, A, B, shape, base 2 bytes off
class Sm90Repack : public ::testing::TestWithParam<RepackCase> {};

TEST_P(Sm90Repack, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, la, lb, si, offset] = GetParam();
  const Shape sh = kRepackShapes[si];
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kRepackBf16 : kRepackF16);
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  const uint32_t align = offset ? 2u : 256u;
  g.a = {input, la, 0, align};
  g.b = {input, lb, 0, align};
  // With the base 2 bytes off, keep ld's TMA-legal where they are, to test the pointer rule alone
  // on at least some cases; otherwise make them break the stride rule.
  g.a.ld = offset && si % 2 ? tight_ld(extent_a(g), la) : unaligned_ld(extent_a(g), la);
  g.b.ld = offset && si % 2 ? tight_ld(extent_b(g), lb) : unaligned_ld(extent_b(g), lb);
  g.d = {kOutTypes[si % 3], si % 2 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (si % 4 == 1 ? 3 : 0);
  g.c = {kOutTypes[(si + 1) % 3], si % 4 < 2 ? Layout::row : Layout::column, 0};
  g.c.ld = tight_ld(extent_c(g), g.c.layout) + 1;
  g.alpha = si % 2 ? 1.0f : 0.75f;
  g.beta = si % 3 == 2 ? 0.0f : -0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  EXPECT_EQ(find_kernel(kPlainBf16)->supports(g).code(),
            input == DType::bf16 ? StatusCode::misaligned : StatusCode::unsupported);
  ASSERT_GT(k->workspace_bytes(g), 0u);
  run_and_check(*k, g, offset ? 2 : 0, /*twice=*/false);
}

std::string repack_name(const ::testing::TestParamInfo<RepackCase>& info) {
  const auto [input, la, lb, si, offset] = info.param;
  return std::string(to_string(input)) + "_A" + layout_name(la) + "_B" + layout_name(lb) + "_" +
         shape_name(kRepackShapes[si]) + (offset ? "_base2" : "_oddld");
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, Sm90Repack,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Range(0, static_cast<int>(std::size(kRepackShapes))),
                                            ::testing::Bool()),
                         repack_name);

// The copy itself, byte for byte, on awkward lines (any source alignment, ld's, pad segments).
TEST(Sm90RepackCopy, ExactCopyWithZeroPad) {
  TCGEMM_REQUIRE_GPU(90);
  for (auto [lines, len, ld_src, offset] : {std::tuple<int64_t, int64_t, int64_t, int>{1, 1, 1, 2},
                                            {3, 7, 9, 6},
                                            {5, 255, 255, 2},
                                            {4, 256, 257, 14},
                                            {17, 4097, 4097, 2},
                                            {2, 513, 600, 0},
                                            {1000, 3, 3, 10},
                                            // Whole 512-element segments (the aligned-chunk path) at
                                            // every start mod 16 bytes, and the matrix's first and
                                            // last segments (the 2-byte path).
                                            {9, 1030, 1031, 0},
                                            {9, 1030, 1031, 2},
                                            {9, 1030, 1031, 4},
                                            {9, 1030, 1031, 6},
                                            {9, 1030, 1031, 8},
                                            {9, 1030, 1031, 10},
                                            {9, 1030, 1031, 12},
                                            {9, 1030, 1031, 14},
                                            {33, 4099, 4099, 0},
                                            {64, 2048, 2051, 6},
                                            {3, 1024, 1024, 14}}) {
    const int64_t ld_dst = (len + 7) / 8 * 8;
    std::vector<uint16_t> src(static_cast<size_t>(lines * ld_src));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    DeviceBuffer S(src.size() * 2 + 16), D(static_cast<size_t>(lines * ld_dst) * 2);
    ASSERT_TRUE(S.p && D.p);
    void* s = static_cast<char*>(S.p) + offset;
    CUDA_OK(cudaMemcpy(s, src.data(), src.size() * 2, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(D.p, 0xAB, static_cast<size_t>(lines * ld_dst) * 2));
    const Status st = repack_16bit(s, lines, len, ld_src, D.p, ld_dst, nullptr);
    ASSERT_TRUE(st.ok()) << st.message();
    std::vector<uint16_t> out(static_cast<size_t>(lines * ld_dst));
    CUDA_OK(cudaMemcpy(out.data(), D.p, out.size() * 2, cudaMemcpyDeviceToHost));
    int64_t bad = 0;
    for (int64_t l = 0; l < lines; ++l)
      for (int64_t c = 0; c < ld_dst; ++c) {
        const uint16_t want = c < len ? src[l * ld_src + c] : 0;
        bad += out[l * ld_dst + c] != want;
      }
    EXPECT_EQ(bad, 0) << lines << " lines of " << len << ", ld " << ld_src << ", offset " << offset;
  }
}

// --- split-K ----------------------------------------------------------------------------------
const Shape kSplitShapes[] = {{256, 256, 16384}, {100, 300, 5000}, {1, 1, 4097}, {129, 257, 1000}, {300, 100, 777}};
const int kSplitCounts[] = {0, 1, 2, 3, 7, 16, 64};  // 0: the automatic choice

using SplitCase = std::tuple<DType, int, int>;  // input, shape index, split-count index
class Sm90SplitK : public ::testing::TestWithParam<SplitCase> {};

TEST_P(Sm90SplitK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, ci] = GetParam();
  const Shape sh = kSplitShapes[si];
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kSplitBf16 : kSplitF16);
  ASSERT_NE(k, nullptr);
  const ForcedSplits forced(kSplitCounts[ci]);
  const int variant = si + ci;
  const Layout layouts[] = {Layout::row, Layout::column};
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, layouts[variant % 2], 0};
  g.b = {input, layouts[(variant / 2) % 2], 0};
  // TMA-legal ld's (the plain kernel's rule): round the tight ones up to 8 elements.
  g.a.ld = (tight_ld(extent_a(g), g.a.layout) + 7) / 8 * 8;
  g.b.ld = (tight_ld(extent_b(g), g.b.layout) + 7) / 8 * 8;
  g.d = {kOutTypes[variant % 3], variant % 3 == 1 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (variant % 2 ? 5 : 0);
  g.c = {kOutTypes[(variant + 1) % 3], variant % 4 < 2 ? Layout::row : Layout::column, 0};
  g.alpha = variant % 2 ? 1.0f : 1.25f;
  g.beta = variant % 3 == 2 ? 0.0f : 0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  const int splits = choose_splits(g, current_sm_count());
  if (kSplitCounts[ci] > 0) {
    EXPECT_LE(splits, kSplitCounts[ci]);
    EXPECT_GE(splits, 1);
  }
  EXPECT_EQ(k->workspace_bytes(g), splits > 1 ? split_slabs_bytes(sh.m, sh.n, g.d.layout == Layout::row, splits) : 0u);
  SCOPED_TRACE("effective splits " + std::to_string(splits));
  run_and_check(*k, g, 0, /*twice=*/true);
}

std::string split_name(const ::testing::TestParamInfo<SplitCase>& info) {
  const auto [input, si, ci] = info.param;
  return std::string(to_string(input)) + "_" + shape_name(kSplitShapes[si]) + "_splits" +
         (kSplitCounts[ci] == 0 ? std::string("auto") : std::to_string(kSplitCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90SplitK,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kSplitShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kSplitCounts)))),
                         split_name);

// Unaligned and split: the copies, then split-K on them (tight, odd ld's; K odd).
const Shape kRepackSplitShapes[] = {{256, 256, 16385}, {100, 300, 5001}, {1, 1, 4097}, {129, 257, 1001}};
const int kRepackSplitCounts[] = {0, 2, 7, 64};

using RepackSplitCase = std::tuple<DType, int, int>;  // input, shape index, split-count index
class Sm90RepackSplitK : public ::testing::TestWithParam<RepackSplitCase> {};

TEST_P(Sm90RepackSplitK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, ci] = GetParam();
  const Shape sh = kRepackSplitShapes[si];
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kRepackSplitBf16 : kRepackSplitF16);
  ASSERT_NE(k, nullptr);
  const ForcedSplits forced(kRepackSplitCounts[ci]);
  const int variant = si + ci;
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, variant % 2 ? Layout::column : Layout::row, 0};
  g.b = {input, (variant / 2) % 2 ? Layout::row : Layout::column, 0};
  g.a.ld = unaligned_ld(extent_a(g), g.a.layout);
  g.b.ld = unaligned_ld(extent_b(g), g.b.layout);
  g.d = {kOutTypes[variant % 3], variant % 3 == 1 ? Layout::column : Layout::row, 0};
  g.c = {kOutTypes[(variant + 2) % 3], variant % 4 < 2 ? Layout::column : Layout::row, 0};
  g.alpha = 0.5f;
  g.beta = variant % 2 ? 0.25f : 0.0f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  if (kRepackSplitCounts[ci] == 0 && (sh.k + 63) / 64 < 32) {
    // Automatic split count, few k-blocks: the entry refuses (the repack path serves it).
    EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << k->supports(g).message();
    return;
  }
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  SCOPED_TRACE("effective splits " + std::to_string(choose_splits(repacked_desc(g, plan_tma_repack(g)), current_sm_count())));
  run_and_check(*k, g, 0, /*twice=*/true);
}

std::string repack_split_name(const ::testing::TestParamInfo<RepackSplitCase>& info) {
  const auto [input, si, ci] = info.param;
  return std::string(to_string(input)) + "_" + shape_name(kRepackSplitShapes[si]) + "_splits" +
         (kRepackSplitCounts[ci] == 0 ? std::string("auto") : std::to_string(kRepackSplitCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90RepackSplitK,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kRepackSplitShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kRepackSplitCounts)))),
                         repack_split_name);

TEST(Sm90SplitKStatus, WorkspaceTooSmallIsAStatus) {
  TCGEMM_REQUIRE_GPU(90);
  const ForcedSplits forced(4);
  const KernelEntry* k = find_kernel(kSplitBf16);
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = g.n = 64;
  g.k = 1024;
  GemmArgs args;
  args.desc = g;
  DeviceBuffer A(64 * 1024 * 2), B(64 * 1024 * 2), D(64 * 64 * 2);
  args.a = A.p;
  args.b = B.p;
  args.d = D.p;
  args.workspace_bytes = 0;
  EXPECT_EQ(k->launch(args).code(), StatusCode::workspace_too_small);
}

// --- wave peeling ------------------------------------------------------------------------------
// Each shape saves a wave on 132 SMs by peeling: columns (4097^2, 4224^2), rows (4229x4096), both
// (1409x3073). K = 2048 so that the strips' split-K pays for itself in the cost model.
const Shape kPeelShapes[] = {{4097, 4097, 2048}, {4224, 4224, 2048}, {4229, 4096, 2048}, {1409, 3073, 2048}};

using PeelCase = std::tuple<DType, Layout, Layout, int, bool>;  // input, A, B, shape, base 2 bytes off
class Sm90Peel : public ::testing::TestWithParam<PeelCase> {};

TEST_P(Sm90Peel, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  if (current_sm_count() != 132) GTEST_SKIP() << "the peel shapes are chosen for 132 SMs";
  const auto [input, la, lb, si, offset] = GetParam();
  const Shape sh = kPeelShapes[si];
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kPeelBf16 : kPeelF16);
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  const uint32_t align = offset ? 2u : 256u;
  g.a = {input, la, 0, align};
  g.b = {input, lb, 0, align};
  g.d = {kOutTypes[si % 3], si % 2 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (si % 2 ? 3 : 0);
  g.c = {kOutTypes[(si + 1) % 3], si % 3 ? Layout::row : Layout::column, 0};
  g.alpha = si % 2 ? 1.0f : 0.75f;
  g.beta = si == 1 ? 0.0f : -0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  const PeelPlan p = plan_peel(g, 132);
  SCOPED_TRACE(std::string("peel rows ") + (p.rows ? "yes" : "no") + ", columns " + (p.cols ? "yes" : "no"));
  run_and_check(*k, g, offset ? 2 : 0, /*twice=*/false);
}

std::string peel_name(const ::testing::TestParamInfo<PeelCase>& info) {
  const auto [input, la, lb, si, offset] = info.param;
  return std::string(to_string(input)) + "_A" + layout_name(la) + "_B" + layout_name(lb) + "_" +
         shape_name(kPeelShapes[si]) + (offset ? "_base2" : "");
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, Sm90Peel,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Range(0, static_cast<int>(std::size(kPeelShapes))),
                                            ::testing::Values(false)),
                         peel_name);

// The base-pointer rule through the peeled path, on the shape that peels both ways.
INSTANTIATE_TEST_SUITE_P(Base2, Sm90Peel,
                         ::testing::Combine(::testing::Values(DType::bf16), ::testing::Values(Layout::row),
                                            ::testing::Values(Layout::column), ::testing::Values(0, 3),
                                            ::testing::Values(true)),
                         peel_name);

// --- host-only checks (run without a GPU) -------------------------------------------------------
TEST(Sm90CliffsHost, Registered) {
  for (const char* name : {kRepackBf16, kRepackF16, kSplitBf16, kSplitF16, kPeelBf16, kPeelF16, kRepackSplitBf16,
                           kRepackSplitF16}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->min_sm, 90);
    EXPECT_EQ(k->family, MmaFamily::wgmma);
    EXPECT_EQ(k->tile_m, 128);
    EXPECT_EQ(k->tile_n, 256);
    EXPECT_NE(k->workspace_bytes, nullptr);
  }
}

TEST(Sm90CliffsHost, RepackAcceptsExactlyTheTmaMisaligned) {
  const KernelEntry* plain = find_kernel(kPlainBf16);
  const KernelEntry* rep = find_kernel(kRepackBf16);
  ASSERT_TRUE(plain && rep);
  GemmDesc g;
  g.m = g.n = g.k = 4096;
  EXPECT_TRUE(plain->supports(g).ok());
  EXPECT_EQ(rep->supports(g).code(), StatusCode::unsupported);
  EXPECT_EQ(rep->workspace_bytes(g), 0u);

  g.m = g.n = g.k = 4097;  // A row-major lda 4097, B column-major ldb 4097: both copied
  EXPECT_EQ(plain->supports(g).code(), StatusCode::misaligned);
  EXPECT_TRUE(rep->supports(g).ok()) << rep->supports(g).message();
  const size_t one = (size_t{4097} * 4160 * 2 + 255) / 256 * 256;  // ld: 4097 rounded up to 64 (repack.cu)
  EXPECT_EQ(rep->workspace_bytes(g), 2 * one);
  const TmaRepackPlan p = plan_tma_repack(g);
  EXPECT_TRUE(p.a && p.b);
  EXPECT_EQ(p.lda, 4160);
  EXPECT_EQ(p.ldb, 4160);
  EXPECT_EQ(p.a_offset, 0u);
  EXPECT_EQ(p.b_offset, one);

  g.m = 4097;
  g.n = g.k = 4096;  // only a column-major A would break the rule; here A is row-major (lda 4096)
  EXPECT_EQ(rep->supports(g).code(), StatusCode::unsupported);
  g.a.layout = Layout::column;  // lda = 4097
  EXPECT_TRUE(rep->supports(g).ok());
  EXPECT_TRUE(plan_tma_repack(g).a);
  EXPECT_FALSE(plan_tma_repack(g).b);

  g.a.layout = Layout::row;
  g.b.pointer_alignment = 8;  // base-pointer rule alone
  EXPECT_TRUE(rep->supports(g).ok());
  EXPECT_FALSE(plan_tma_repack(g).a);
  EXPECT_TRUE(plan_tma_repack(g).b);

  g.a.dtype = g.b.dtype = DType::f16;  // the bf16 instance refuses other dtypes
  EXPECT_EQ(rep->supports(g).code(), StatusCode::unsupported);
  EXPECT_TRUE(find_kernel(kRepackF16)->supports(g).ok());

  // Repack + split-K: 256x256x65537 (lda = ldb = 65537) copies both, then 64 splits.
  set_forced_split_k(0);
  GemmDesc s;
  s.m = s.n = 256;
  s.k = 65537;
  const KernelEntry* rs = find_kernel(kRepackSplitBf16);
  ASSERT_NE(rs, nullptr);
  EXPECT_TRUE(rs->supports(s).ok());
  const size_t copy = (size_t{256} * 65600 * 2 + 255) / 256 * 256;
  const int splits = choose_splits(s, current_sm_count());
  EXPECT_EQ(rs->workspace_bytes(s), 2 * copy + size_t(splits) * 256 * 256 * 4);
}

// Padded slab rows (split_slab_ld): a row-major slab's ld is N rounded up to 4 floats, a
// column-major one's M; the reduce refuses slab lines or slabs that overlap, before any launch.
TEST(Sm90CliffsHost, SlabRowsPaddedAndReduceRejectsOverlaps) {
  EXPECT_EQ(split_slab_ld(333, 777, true), 780);
  EXPECT_EQ(split_slab_ld(333, 776, true), 776);
  EXPECT_EQ(split_slab_ld(333, 777, false), 333);
  EXPECT_EQ(split_slabs_bytes(333, 777, true, 3), size_t{3} * 333 * 780 * 4);
  EXPECT_EQ(split_slabs_bytes(333, 777, false, 3), size_t{3} * 777 * 333 * 4);
  float slabs[16];
  float d[16];
  SplitKReduceArgs r;
  r.partials = slabs;
  r.d = d;
  r.splits = 2;
  r.m = 2;
  r.n = 3;
  r.slab_ld = 2;  // shorter than a row of 3
  EXPECT_EQ(splitk_reduce(r, nullptr).code(), StatusCode::invalid_argument);
  r.slab_ld = 4;
  r.slab_stride = 6;  // 2 rows of 4 do not fit in 6
  EXPECT_EQ(splitk_reduce(r, nullptr).code(), StatusCode::invalid_argument);
}

TEST(Sm90CliffsHost, PeelPlans) {
  set_forced_split_k(0);
  GemmDesc g;
  g.m = g.n = g.k = 4097;  // 561 tiles = 5 waves; peeling the last tile column leaves 528 = 4
  PeelPlan p = plan_peel(g, 132);
  EXPECT_FALSE(p.rows);
  EXPECT_TRUE(p.cols);
  EXPECT_EQ(p.m_core, 4097);
  EXPECT_EQ(p.n_core, 4096);
  EXPECT_DOUBLE_EQ(p.cost_plain, 5.0 * 65);
  EXPECT_DOUBLE_EQ(p.cost_peeled, 4.0 * 65 + 17 + 4);  // strip: 33 tiles x 4 splits of 17 k-blocks
  g.m = g.n = 4224;
  g.k = 2048;
  p = plan_peel(g, 132);
  EXPECT_TRUE(p.cols && !p.rows);
  g.m = 4229;
  g.n = 4096;
  p = plan_peel(g, 132);
  EXPECT_TRUE(p.rows && !p.cols);
  EXPECT_EQ(p.m_core, 4224);
  g.m = 1409;
  g.n = 3073;
  p = plan_peel(g, 132);
  EXPECT_TRUE(p.rows && p.cols);
  EXPECT_EQ(p.m_core, 1408);
  EXPECT_EQ(p.n_core, 3072);
  g.m = g.n = g.k = 4096;  // full tiles: nothing to peel, and the entry says so
  p = plan_peel(g, 132);
  EXPECT_FALSE(p.rows || p.cols);
  EXPECT_EQ(find_kernel(kPeelBf16)->supports(g).code(), StatusCode::unsupported);
  g.m = g.n = 4097;
  g.k = 256;  // too short a K for the strips' second launch to pay
  EXPECT_FALSE(plan_peel(g, 132).cols);
  g.k = 4097;
  EXPECT_TRUE(find_kernel(kPeelBf16)->supports(g).ok());
  EXPECT_EQ(find_kernel(kPeelBf16)->workspace_bytes(g),
            2 * ((size_t{4097} * 4160 * 2 + 255) / 256 * 256) + split_slabs_bytes(4097, 1, true, 4));
  EXPECT_EQ(split_slabs_bytes(4097, 1, true, 4), size_t{4} * 4097 * 4 * 4);  // the one column padded to 4 floats
}

// The peeled pieces tile D exactly: the CPU reference run piece by piece (through the pieces'
// pointers, ld's and shapes) must give bit for bit the D of the whole problem, padding untouched.
TEST(Sm90CliffsHost, PeelPiecesTileD) {
  for (int layouts = 0; layouts < 16; ++layouts)
    for (int option = 1; option <= 3; ++option) {
      GemmDesc g;
      g.m = 300;
      g.n = 600;
      g.k = 40;
      g.a = {DType::bf16, layouts & 1 ? Layout::column : Layout::row, 0};
      g.b = {DType::bf16, layouts & 2 ? Layout::column : Layout::row, 0};
      g.c = {DType::bf16, layouts & 4 ? Layout::column : Layout::row, 0};
      g.d = {layouts & 8 ? DType::f32 : DType::bf16, layouts & 8 ? Layout::column : Layout::row, 0};
      g.a.ld = tight_ld(extent_a(g), g.a.layout) + 8;
      g.d.ld = tight_ld(extent_c(g), g.d.layout) + 3;
      g.alpha = 1.5f;
      g.beta = 0.5f;
      ASSERT_TRUE(validate(g).ok());
      auto count = [](const MatrixDesc& m, StoredExtent e) {
        return static_cast<size_t>((m.layout == Layout::row ? e.rows : e.cols) * effective_ld(m, e));
      };
      std::vector<uint16_t> a(count(g.a, extent_a(g))), b(count(g.b, extent_b(g))), c(count(g.c, extent_c(g)));
      for (auto* v : {&a, &b, &c})
        for (size_t i = 0; i < v->size(); ++i) write_element(DType::bf16, v->data(), i, std::sin(0.37 * i + v->size()));
      const size_t d_bytes = count(g.d, extent_c(g)) * dtype_bytes(g.d.dtype);
      std::vector<unsigned char> whole(d_bytes, 0xFF), pieces(d_bytes, 0xFF);
      ASSERT_TRUE(reference_gemm(g, a.data(), b.data(), c.data(), whole.data()).ok());

      PeelPlan plan;
      plan.rows = option & 1;
      plan.cols = option & 2;
      plan.m_core = plan.rows ? 256 : g.m;
      plan.n_core = plan.cols ? 512 : g.n;
      GemmArgs args;
      args.desc = g;
      args.a = a.data();
      args.b = b.data();
      args.c = c.data();
      args.d = pieces.data();
      const std::vector<GemmArgs> ps = peel_pieces(args, plan);
      ASSERT_EQ(ps.size(), 1u + plan.rows + plan.cols);
      int64_t covered = 0;
      for (const GemmArgs& p : ps) {
        covered += p.desc.m * p.desc.n;
        EXPECT_EQ(p.desc.k, g.k);
        ASSERT_TRUE(reference_gemm(p.desc, p.a, p.b, p.c, p.d).ok()) << validate(p.desc).message();
      }
      EXPECT_EQ(covered, g.m * g.n);
      EXPECT_EQ(std::memcmp(whole.data(), pieces.data(), d_bytes), 0)
          << "layouts " << layouts << ", peel rows " << plan.rows << " columns " << plan.cols;
    }
}

TEST(Sm90CliffsHost, SplitChooser) {
  set_forced_split_k(0);
  GemmDesc g;
  g.m = g.n = 256;
  g.k = 65536;  // 2 tiles, 1024 k-blocks: floor(132/2) = 66, capped at 64
  EXPECT_EQ(choose_splits(g, 132), 64);
  EXPECT_EQ(split_k_blocks_per_split(g, 64), 16);
  g.m = g.n = g.k = 4096;  // 512 tiles: no split
  EXPECT_EQ(choose_splits(g, 132), 1);
  g.m = 100;
  g.n = 300;
  g.k = 5000;  // 2 tiles, 79 k-blocks: cap 39, 3 blocks per split -> 27 splits
  EXPECT_EQ(choose_splits(g, 132), 27);
  g.m = g.n = 1;
  g.k = 64;  // one k-block: nothing to split
  EXPECT_EQ(choose_splits(g, 132), 1);
  g.k = 4097;  // 65 k-blocks: cap 32, 3 per split -> 22
  EXPECT_EQ(choose_splits(g, 132), 22);
  g.m = 1024;
  g.n = 1024;
  g.k = 8192;  // 32 tiles: floor(4.125) = 4
  EXPECT_EQ(choose_splits(g, 132), 4);
  g.m = 128 * 6;
  g.n = 256 * 8;  // 48 tiles: floor(2.75) = 2 (3 would be 144 CTAs, a second wave)
  EXPECT_EQ(choose_splits(g, 132), 2);
  g.m = 1024;
  g.n = 1024;
  {
    const ForcedSplits forced(7);
    EXPECT_EQ(choose_splits(g, 132), 7);  // 128 k-blocks: 19 per split -> 7
    g.k = 64 * 6;                         // fewer k-blocks than splits: one each
    EXPECT_EQ(choose_splits(g, 132), 6);
  }
  EXPECT_EQ(forced_split_k(), 0);
}

// --- repack into the persistent cluster kernel (A/B copies; a misaligned D stored by the threads) -
const Shape kPcRepackShapes[] = {{7, 7, 7},         {33, 33, 33},     {1000, 1000, 1001},
                                 {333, 777, 4099},  {4097, 513, 4097}, {129, 257, 1001}};

using PcRepackCase = std::tuple<DType, int, int>;  // input, shape index, variant (offset / ld pad)
class Sm90PcRepack : public ::testing::TestWithParam<PcRepackCase> {};

TEST_P(Sm90PcRepack, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, vi] = GetParam();
  const Shape sh = kPcRepackShapes[si];
  const KernelEntry* k =
      find_kernel(input == DType::bf16 ? "sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack" : "sm90_wgmma_f16_128x256x64_s3_pc2x1_repack");
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, Layout::row, unaligned_ld(extent_a(g), Layout::row)};
  g.b = {input, Layout::column, vi == 1 ? (sh.k + 7) / 8 * 8 : unaligned_ld(extent_b(g), Layout::column)};
  // D: tight (misaligned when N is odd), or padded to an odd ld, or aligned (A/B copies only).
  const int64_t dld = vi == 0 ? sh.n : vi == 1 ? sh.n + 3 : (sh.n + 7) / 8 * 8;
  g.d = {input, Layout::row, dld};
  g.c = g.d;
  g.alpha = vi == 2 ? 0.5f : 1.0f;
  g.beta = 0.0f;
  const size_t offset = vi == 2 ? 2 : 0;  // A/B base pointers 2 bytes off
  if (offset) {
    g.a.pointer_alignment = 2;
    g.b.pointer_alignment = 2;
  }
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status ok = k->supports(g);
  ASSERT_TRUE(ok.ok()) << ok.message();
  run_and_check(*k, g, offset, false);
}

std::string pc_repack_name(const ::testing::TestParamInfo<PcRepackCase>& info) {
  const auto [input, si, vi] = info.param;
  const char* v[] = {"tightD", "paddedD", "alignedDoffsetAB"};
  return std::string(to_string(input)) + "_" + shape_name(kPcRepackShapes[si]) + "_" + v[vi];
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90PcRepack,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kPcRepackShapes))),
                                            ::testing::Range(0, 3)),
                         pc_repack_name);

TEST(Sm90PcRepackSmall, TightOddD) {
  TCGEMM_REQUIRE_GPU(90);
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack");
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = 130;
  g.n = 259;
  g.k = 77;
  g.a = {DType::bf16, Layout::row, 0};
  g.b = {DType::bf16, Layout::column, 0};
  g.c = g.d = {DType::bf16, Layout::row, 0};
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  run_and_check(*k, g, 0, false);
}

TEST(Sm90PcRepackHost, RefusesAlignedAndOtherLayouts) {
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack");
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = g.n = g.k = 4096;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << "aligned: the kernel runs it without copies";
  g.m = g.n = g.k = 4097;
  EXPECT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  // The A and B copies, each 4097 lines of ld 4160, rounded to 256 bytes; D is stored in place.
  const size_t copy = (size_t{4097} * 4160 * 2 + 255) / 256 * 256;
  EXPECT_EQ(k->workspace_bytes(g), 2 * copy);
  EXPECT_EQ(k->copy_bytes(g), 2 * 2 * copy) << "each copy read and written; nothing for D";
  {
    // Only D misaligned: no copies at all, the threads store D.
    GemmDesc d_only = g;
    d_only.k = 4096;
    EXPECT_TRUE(k->supports(d_only).ok()) << k->supports(d_only).message();
    EXPECT_EQ(k->workspace_bytes(d_only), 0u);
  }
  const Result<std::string_view> picked = pick_kernel(g);
  ASSERT_TRUE(picked.ok()) << picked.status().message();
  // The rounds below are for 132 SMs (66 clusters).
  if (current_sm_count() == 132) {
    // 4097^3: D's last row and column are computed in the copies (repack_strips.hpp), the
    // kernel runs the 4096^2 core.
    EXPECT_EQ(picked.value(), "sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_strips");
    g.m = g.n = g.k = 4095;  // 32 x 16 tiles: 256 pair-tiles, 3.9 rounds of 66 clusters, not shared
    EXPECT_EQ(pick_kernel(g).value(), "sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack");
    g.m = g.n = g.k = 4097;
  }
  g.beta = 1.0f;  // C (ldc 4097) breaks TMA's rule too; the kernel loads C by TMA
  EXPECT_EQ(k->supports(g).code(), StatusCode::misaligned);
  EXPECT_NE(k->supports(g).message().find("C: ldc*2 bytes = 8194"), std::string::npos) << k->supports(g).message();
  g.c.ld = 4104;
  EXPECT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  g.c.layout = Layout::column;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported);
  g.c.layout = Layout::row;
  g.c.ld = 0;
  g.beta = 0.0f;
  g.b.layout = Layout::row;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported);
}

// --- the tile family / sweep instances (128x256 s3, 128x128 s4/s7, 128x64 s4/s9) ---------------
const char* const kFamily[] = {"sm90_wgmma_bf16_128x256x64_s3_ws", "sm90_wgmma_bf16_128x128x64_s4_ws",
                               "sm90_wgmma_bf16_128x128x64_s7_ws", "sm90_wgmma_f16_128x128x64_s7_ws",
                               "sm90_wgmma_bf16_128x64x64_s4_ws",  "sm90_wgmma_bf16_128x64x64_s9_ws"};
const Shape kFamilyShapes[] = {{1, 1, 1}, {129, 257, 1000}, {256, 384, 4096}, {1000, 999, 77}, {4097, 33, 130}};

using FamilyCase = std::tuple<int, int>;  // kernel index, shape index
class Sm90TileFamily : public ::testing::TestWithParam<FamilyCase> {};

TEST_P(Sm90TileFamily, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ki, si] = GetParam();
  const KernelEntry* k = find_kernel(kFamily[ki]);
  ASSERT_NE(k, nullptr) << kFamily[ki];
  const Shape sh = kFamilyShapes[si];
  const int variant = ki + si;
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {k->input, Layout::row, (sh.k + 7) / 8 * 8};
  g.b = {k->input, Layout::column, (sh.k + 7) / 8 * 8};
  g.d = {kOutTypes[variant % 3], variant % 2 ? Layout::column : Layout::row, 0};
  g.c = {kOutTypes[(variant + 1) % 3], Layout::row, 0};
  g.alpha = 1.5f;
  g.beta = variant % 2 ? 0.0f : -1.0f;
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  run_and_check(*k, g, 0, false);
}

std::string family_name(const ::testing::TestParamInfo<FamilyCase>& info) {
  return std::string(kFamily[std::get<0>(info.param)]) + "_" + shape_name(kFamilyShapes[std::get<1>(info.param)]);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90TileFamily,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kFamily))),
                                            ::testing::Range(0, static_cast<int>(std::size(kFamilyShapes)))),
                         family_name);

TEST(Sm90TileFamilyHost, RefusesLayoutsItDoesNotCompile) {
  GemmDesc g;
  g.m = g.n = g.k = 256;
  g.b.layout = Layout::row;
  for (const char* name : kFamily) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    g.a.dtype = g.b.dtype = k->input;
    EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported) << name;
  }
}

}  // namespace
}  // namespace tcgemm
