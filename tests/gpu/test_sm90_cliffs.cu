// The "no cliffs" paths around the warp-specialized wgmma kernel, against the device reference:
//  - repack: A/B that break TMA's 16-byte rule (odd ld's, base pointers 2 bytes off) are copied
//    into an aligned workspace first (sm90_wgmma_*_ws_repack);
//  - split-K: small M*N with long K, forced split counts, awkward shapes, determinism
//    (sm90_wgmma_*_ws_splitk).
// D is poisoned with NaN first; C/D dtypes, layouts, alpha and beta vary across cases.
// TCGEMM_BENCH=1 adds timings: 4097^3 bf16 through the repack entry (copies included), and
// 256x256x65536 bf16 through split-K.
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

// --- swap A/B (small M) ----------------------------------------------------------------------
const Shape kSwapShapes[] = {{1, 1, 1},      {7, 33, 7},       {16, 1000, 1001}, {17, 129, 4097}, {33, 4097, 64},
                             {64, 256, 8192}, {65, 300, 33},   {100, 2000, 3000}, {128, 1024, 1024}};
const int kSwapSplitCounts[] = {0, 1, 3, 64};

// The swap entries that take this M: the one gemm() may run (preference 4, or 3 for the 128-wide
// tile, level with planned split-K) first, then any 128-row alternate of the same width. (The
// cluster kernel's swapped widths, *_pc2x1_swapab, take M > 128 only: none of these shapes.)
std::vector<const KernelEntry*> swap_entries_for(const GemmDesc& g) {
  std::vector<const KernelEntry*> found;
  for (const KernelEntry& k : kernel_registry())
    if (k.input == g.a.dtype && std::string_view(k.name).ends_with("_swapab") && k.supports(g).ok()) {
      EXPECT_TRUE(k.split_k && k.workspace_bytes) << k.name << ": a swap entry for M <= 128 without its plan";
      if (!k.split_k || !k.workspace_bytes) continue;
      found.insert(k.preference >= 3 ? found.begin() : found.end(), &k);
    }
  EXPECT_FALSE(found.empty()) << "no swap entry for M = " << g.m;
  // Width 64 runs its 64-row tile (preference 5) where those tiles fit one round (run 194).
  const int preferred = g.m > 64 ? 3 : tiles64x64_fit_one_round(g.m, g.n, current_sm_count()) ? 5 : 4;
  if (!found.empty())
    EXPECT_EQ(found.front()->preference, preferred) << "no preferred swap entry for M = " << g.m;
  return found;
}

// M = 128: split-K on 128x256 where its plan fits one round (measured faster); the ping-pong
// kernel's 64-row tiles where many columns fill the SMs (bench/NOTES.md, "Small M on the ping-pong
// kernel"); M = 64 keeps the swap tile. The 128-wide swap tile takes TN problems neither takes.
TEST(Sm90SwapABHost, WhoTakesMOf128) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the plans are for 132 SMs";
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {128, 8192, 28672})).value(), "sm90_wgmma_bf16_128xN_ws_splitk");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {128, 57344, 8192})).value(),
            "sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 28672, 8192})).value(), "sm90_wgmma_bf16_64x256x64_s5_swapab_wide");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {48, 57344, 8192})).value(), "sm90_wgmma_bf16_64x256x64_s5_swapab_wide");
  // Below 80% of the SMs in 256-row tiles: 64x64 tiles where they fit one round (run 194: 42.5 us
  // against 47.2 at 64x8192x8192 swapped; run 199: 40.5 unswapped), swapped where A or B is not
  // K-major; else the 128-row swap tile (0.88x against 0.84x for 256 rows at N = 8192).
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 8192, 8192})).value(), "sm90_wgmma_bf16_64x64x64_s14_narrow_midm");
  EXPECT_EQ(pick_kernel(tn_problem(DType::f16, {64, 8448, 8192})).value(), "sm90_wgmma_f16_64x64x64_s14_narrow_midm");
  GemmDesc nn = tn_problem(DType::bf16, {64, 8192, 8192});
  nn.b.layout = Layout::row;
  nn.b.ld = 8192;
  EXPECT_EQ(pick_kernel(nn).value(), "sm90_wgmma_bf16_64x64x64_s14_swapab");
  // A column-major: the unswapped 64x64 tile reads it MN-major where K is long (run 215), else the
  // 128-row split-K tile as before.
  GemmDesc tt = tn_problem(DType::bf16, {64, 3072, 12288});
  tt.a = {DType::bf16, Layout::column, 64};
  EXPECT_EQ(pick_kernel(tt).value(), "sm90_wgmma_bf16_64x64x64_s14_narrow_midm");
  tt.k = 4096;
  EXPECT_EQ(pick_kernel(tt).value(), "sm90_wgmma_bf16_128xN_ws_splitk");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 8449, 8192})).value(), "sm90_wgmma_bf16_64x128x64_s9_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {64, 26880, 8192})).value(), "sm90_wgmma_bf16_64x128x64_s9_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {32, 28672, 8192})).value(), "sm90_wgmma_bf16_32x64x64_s16_swapab");
}

// M <= 32: 128 rows of N a CTA where 64 would take a second round and 128 fit one (run 174); the
// decode shapes whose 64-row tiles fit one round, and N past two rounds of 128, keep 64 rows.
TEST(Sm90SwapABHost, NarrowTilesTake128RowsForOneRound) {
  if (current_sm_count() != 132) GTEST_SKIP() << "the rule's bounds are for 132 SMs";
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {26, 9666, 32})).value(), "sm90_wgmma_bf16_32x128x64_s11_swapab_oneround");
  EXPECT_EQ(pick_kernel(tn_problem(DType::f16, {16, 16384, 2048})).value(), "sm90_wgmma_f16_16x128x64_s12_swapab_oneround");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {16, 8192, 8192})).value(), "sm90_wgmma_bf16_16x64x64_s16_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {16, 8448, 64})).value(), "sm90_wgmma_bf16_16x64x64_s16_swapab");
  EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {32, 16897, 64})).value(), "sm90_wgmma_bf16_32x64x64_s16_swapab");
  EXPECT_TRUE(swap_narrow_takes_128_rows(32, 8449, 132));
  EXPECT_TRUE(swap_narrow_takes_128_rows(1, 16896, 132));
  EXPECT_FALSE(swap_narrow_takes_128_rows(33, 9000, 132));  // the 64-wide tile has its own rules
}

// gemm()'s 128-row entries of widths 16 and 32 on shapes their rule admits, with a K tail, alpha,
// beta and an f32 D, against the device reference and twice bit for bit.
TEST(Sm90SwapABOneRound, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : {Shape{13, 9000 - 3, 200}, Shape{26, 16384, 32}}) {
      const std::string name = std::string("sm90_wgmma_") + std::string(to_string(in)) +
                               (sh.m <= 16 ? "_16x128x64_s12" : "_32x128x64_s11") + "_swapab_oneround";
      const KernelEntry* k = find_kernel(name);
      ASSERT_NE(k, nullptr) << name;
      GemmDesc g = tn_problem(in, sh, 0, -0.5f);
      if (sh.m > 16) {
        g.c = g.d = {DType::f32, Layout::row, 0};
        g.beta = 0.25f;
      }
      if (current_sm_count() == 132) ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
      if (!k->supports(g).ok()) continue;
      run_and_check(*k, g, 0, /*twice=*/true);
    }
}

// gemm()'s entry for the wide tile on a shape its rule admits, with a K tail and alpha, against
// the device reference and twice bit for bit (the by-name entry is in Sm90SwapAB's cases).
TEST(Sm90SwapABWide, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  for (DType in : {DType::bf16, DType::f16}) {
    const KernelEntry* k = find_kernel(in == DType::bf16 ? "sm90_wgmma_bf16_64x256x64_s5_swapab_wide"
                                                         : "sm90_wgmma_f16_64x256x64_s5_swapab_wide");
    ASSERT_NE(k, nullptr);
    GemmDesc g = tn_problem(in, {37, 28672 - 5, 200}, 0, -0.5f);
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

// gemm()'s unswapped 64x64 tile for M of 33-64 on shapes its rule admits (ragged N, a K tail, one
// tile, forced cluster splits), alpha, beta, f32 and column-major D, against the device reference
// and twice bit for bit.
TEST(Sm90NarrowMidM, GemmsRuleShape) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape shapes[] = {{37, 8448 - 5, 200}, {64, 4096, 4097}, {33, 1, 64}, {50, 130, 1000}};
  int variant = 0;
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : shapes)
      for (int forced : {0, 3, 8}) {
        ++variant;
        const ForcedSplits f(forced);
        const KernelEntry* k = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + "_64x64x64_s14_narrow_midm");
        ASSERT_NE(k, nullptr);
        GemmDesc g = tn_problem(in, sh, 0, variant % 2 ? -0.5f : 1.0f);
        if (variant % 3 == 0) {
          g.c = g.d = {DType::f32, variant % 2 ? Layout::column : Layout::row, 0};
          g.beta = 0.25f;
        }
        ASSERT_TRUE(validate(g).ok()) << validate(g).message();
        SCOPED_TRACE(shape_name(sh) + ", forced " + std::to_string(forced) + ", splits " + std::to_string(k->split_k(g)));
        if (current_sm_count() == 132) ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
        if (!k->supports(g).ok()) continue;
        EXPECT_EQ(k->workspace_bytes(g), 0u) << "the 64x64 tile sums its splits in clusters";
        run_and_check(*k, g, 0, /*twice=*/true);
      }
}

// A column-major A (M contiguous) on the unswapped narrow tiles: 64x64 MN-major boxes of A, B
// K-major; every narrow entry by name, and gemm()'s pick where the 64x64 rule holds.
TEST(Sm90NarrowMidM, ColumnMajorA) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape shapes[] = {{37, 8448 - 5, 200}, {64, 4096, 4097}, {33, 1, 64}, {50, 130, 1000}, {7, 100, 33},
                          {40, 300, kNarrow64MnMajorAMinK + 5}};
  int variant = 0;
  for (DType in : {DType::bf16, DType::f16})
    for (const Shape sh : shapes)
      for (int forced : {0, 3}) {
        ++variant;
        const ForcedSplits f(forced);
        GemmDesc g = tn_problem(in, sh, 0, variant % 2 ? -0.5f : 1.0f);
        g.a = {in, Layout::column, round_up(sh.m, 8) + (variant % 3 == 0 ? 8 : 0)};
        if (variant % 2 == 0) {
          g.c = g.d = {DType::f32, variant % 4 == 0 ? Layout::column : Layout::row, 0};
          g.beta = 0.25f;
        }
        ASSERT_TRUE(validate(g).ok()) << validate(g).message();
        for (const char* tile : {"_64x64x64_s14_narrow_midm", "_64x64x64_s14_narrow", "_64x32x64_s16_narrow",
                                 "_64x16x64_s16_narrow"}) {
          const KernelEntry* k = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + tile);
          if (k == nullptr && in == DType::f16) continue;  // 64x16 and 64x32 are bf16 only
          ASSERT_NE(k, nullptr) << tile;
          SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + ", forced " + std::to_string(forced) +
                       ", splits " + std::to_string(k->split_k(g)));
          const bool midm = std::string_view(tile) == "_64x64x64_s14_narrow_midm";
          if (!midm || (tiles64x64_fit_one_round(g.m, g.n, current_sm_count()) && g.k >= kNarrow64MnMajorAMinK))
            ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
          if (!k->supports(g).ok()) continue;
          run_and_check(*k, g, 0, /*twice=*/true);
        }
      }
}

using SwapCase = std::tuple<DType, int, int>;  // input, shape index, split-count index
class Sm90SwapAB : public ::testing::TestWithParam<SwapCase> {};

TEST_P(Sm90SwapAB, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, si, ci] = GetParam();
  const Shape sh = kSwapShapes[si];
  const ForcedSplits forced(kSwapSplitCounts[ci]);
  const int variant = si + ci;
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, Layout::row, 0};
  g.b = {input, variant % 2 ? Layout::row : Layout::column, 0};
  g.a.ld = (tight_ld(extent_a(g), g.a.layout) + 7) / 8 * 8;
  g.b.ld = (tight_ld(extent_b(g), g.b.layout) + 7) / 8 * 8 + (variant % 3 == 0 ? 8 : 0);
  g.d = {kOutTypes[variant % 3], variant % 4 == 1 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (variant % 2 ? 3 : 0);
  g.c = {kOutTypes[(variant + 1) % 3], variant % 4 < 2 ? Layout::row : Layout::column, 0};
  g.alpha = variant % 2 ? 1.0f : -0.75f;
  g.beta = variant % 3 == 2 ? 0.0f : 0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  for (const KernelEntry* k : swap_entries_for(g)) {
    SCOPED_TRACE(std::string(k->name) + ", splits " + std::to_string(k->split_k(g)));
    const GemmDesc s = swapped_desc(g);  // the slabs are D^T's
    // 2..8 splits are summed in a cluster, without slabs (swap_ab.hpp): forced counts on every swap
    // tile the kernel compiles it for (widths up to kMaxClusterSumWidth), the plan's own counts on the
    // one-consumer tiles (256 threads) and widths 16/32; the 64/128-wide two-consumer tiles plan slabs.
    const bool forced_count = kSwapSplitCounts[ci] > 0;
    const bool cluster = !swap_cluster_split_disabled() && k->split_k(g) > 1 && k->split_k(g) <= kMaxClusterSplits &&
                         k->tile_m <= kMaxClusterSumWidth &&
                         (forced_count || k->tile_m <= 32 || k->threads == 256 || swap_cluster_split_wide());
    const bool slabs = k->split_k(g) > 1 && !cluster;
    EXPECT_EQ(k->workspace_bytes(g), slabs ? split_slabs_bytes(s.m, s.n, s.d.layout == Layout::row, k->split_k(g)) : 0u);
    run_and_check(*k, g, 0, /*twice=*/true);
  }
}

std::string swap_name(const ::testing::TestParamInfo<SwapCase>& info) {
  const auto [input, si, ci] = info.param;
  return std::string(to_string(input)) + "_" + shape_name(kSwapShapes[si]) + "_splits" +
         (kSwapSplitCounts[ci] == 0 ? std::string("auto") : std::to_string(kSwapSplitCounts[ci]));
}

INSTANTIATE_TEST_SUITE_P(Forced, Sm90SwapAB,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kSwapShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kSwapSplitCounts)))),
                         swap_name);

// A bf16 problem of shape sh with a row-major A and a B of layout lb, their lds padded to 8 elements.
GemmDesc small_swap_desc(Shape sh, Layout lb) {
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {DType::bf16, Layout::row, (sh.k + 7) / 8 * 8};
  g.b = {DType::bf16, lb, ((lb == Layout::row ? sh.n : sh.k) + 7) / 8 * 8};
  return g;
}

// Small, for compute-sanitizer (TCGEMM_TEST_SMALL=1 runs *Small*).
TEST(Sm90SwapABSmall, NarrowTilesWithAndWithoutSplits) {
  TCGEMM_REQUIRE_GPU(90);
  for (const Shape sh : {Shape{5, 200, 300}, Shape{40, 130, 129}, Shape{120, 64, 200}})
    for (int splits : {1, 3}) {
      const ForcedSplits forced(splits);
      GemmDesc g = small_swap_desc(sh, Layout::column);
      g.c = g.d = {DType::f32, Layout::row, 0};
      g.beta = 0.25f;
      for (const KernelEntry* k : swap_entries_for(g)) {
        SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + " splits " + std::to_string(splits));
        run_and_check(*k, g, 0, false);
      }
    }
}

// A row-major 16-bit D with beta == 0 is the swapped kernel's column-major D^T: with ldd % 8 == 0
// it goes out 8 rows a 16-byte store (store_staged_cols16), ragged row and column tails element by
// element; an odd ldd keeps the per-element loop. Both against the device reference.
TEST(Sm90SwapABSmall, ColumnStoresOf16BitD) {
  TCGEMM_REQUIRE_GPU(90);
  int variant = 0;
  for (const Shape sh : {Shape{5, 200, 300}, Shape{40, 130, 129}, Shape{120, 64, 200}, Shape{64, 1003, 64}})
    for (int splits : {1, 3}) {
      ++variant;
      const ForcedSplits forced(splits);
      GemmDesc g = small_swap_desc(sh, variant % 3 == 0 ? Layout::row : Layout::column);
      g.d = {variant % 2 ? DType::f16 : DType::bf16, Layout::row, (sh.n + 7) / 8 * 8 + (variant % 4 == 3 ? 3 : 8)};
      g.c = g.d;
      g.alpha = -0.5f;
      ASSERT_TRUE(validate(g).ok()) << validate(g).message();
      for (const KernelEntry* k : swap_entries_for(g)) {
        SCOPED_TRACE(std::string(k->name) + " " + shape_name(sh) + " splits " + std::to_string(splits) + " ldd " +
                     std::to_string(g.d.ld));
        run_and_check(*k, g, 0, false);
      }
    }
}

TEST(Sm90SwapABHost, SwappedDescAndPlan) {
  set_forced_split_k(0);
  GemmDesc g;
  g.m = 16;
  g.n = 8192;
  g.k = 8192;
  g.a = {DType::bf16, Layout::row, 8200};
  g.b = {DType::bf16, Layout::column, 0};
  g.d = {DType::bf16, Layout::row, 0};
  const GemmDesc s = swapped_desc(g);
  EXPECT_EQ(s.m, 8192);
  EXPECT_EQ(s.n, 16);
  EXPECT_EQ(s.a.layout, Layout::row);     // B^T of a column-major B: K contiguous, row-major
  EXPECT_EQ(s.a.ld, 8192);
  EXPECT_EQ(s.b.layout, Layout::column);  // A^T of a row-major A
  EXPECT_EQ(s.b.ld, 8200);
  EXPECT_EQ(s.d.layout, Layout::column);
  EXPECT_EQ(s.d.ld, 8192);
  EXPECT_TRUE(validate(s).ok()) << validate(s).message();
  // 128 tiles of 64 rows of N: one wave on 132 SMs without a split.
  SwapAbPlan p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.variant, (Sm90WsVariant{16, 16, 1}));
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.workspace_bytes, 0u);
  // The 128-row alternate: 64 tiles, two splits fill 128 of 132 SMs, summed in clusters of 2.
  p = plan_swap_ab(g, 132, sm90_wgmma_ws_narrow_variant(16));
  EXPECT_EQ(p.splits, 2);
  EXPECT_EQ(p.in_cluster, !swap_cluster_split_disabled());
  EXPECT_EQ(p.workspace_bytes, p.in_cluster ? 0u : 2u * 16 * 8192 * 4);
  g.m = 64;
  g.n = 28672;  // 224 tiles: 1.7 waves unsplit
  p = plan_swap_ab(g, 132, swap_ab_variant(g.m));
  EXPECT_EQ(p.variant, sm90_wgmma_ws_narrow_variant(64));
  EXPECT_GE(p.splits, 1);
  EXPECT_LE(p.splits, 32);
  // Tiles on half the SMs or more are not split (run 59); fewer still are.
  g.n = 12288;
  g.k = 4096;
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 96 tiles of 128 rows
  g.m = 16;
  EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 192 tiles of 64 rows
  g.m = 64;
  g.n = 8192;
  g.k = 8192;
  EXPECT_GT(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 1);  // 64 tiles
  g.n = 28672;
  EXPECT_EQ(swap_ab_tile_n(1), 16);
  EXPECT_EQ(swap_ab_tile_n(17), 32);
  EXPECT_EQ(swap_ab_tile_n(65), 128);
  {
    const ForcedSplits forced(5);
    EXPECT_EQ(plan_swap_ab(g, 132, swap_ab_variant(g.m)).splits, 5);
  }
}

TEST(Sm90SwapABHost, RefusesWhatItCannotRun) {
  GemmDesc g;
  g.m = 129;
  g.n = 1024;
  g.k = 1024;
  EXPECT_EQ(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(128)).code(), StatusCode::unsupported);
  g.m = 16;
  EXPECT_TRUE(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16)).ok())
      << sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16)).message();
  EXPECT_EQ(sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(32)).code(), StatusCode::unsupported);
  g.a.layout = Layout::column;
  const Status s = sm90_swap_ab_supports(g, DType::bf16, swap_ab_variant(16));
  EXPECT_EQ(s.code(), StatusCode::unsupported);
  EXPECT_NE(s.message().find("row-major"), std::string::npos) << s.message();
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

// --- benchmarks (TCGEMM_BENCH=1) ---------------------------------------------------------------
bool bench_enabled() {
  const char* env = std::getenv("TCGEMM_BENCH");
  return env != nullptr && std::string(env) == "1";
}

// Median ms per launch of `launch` (warm-up ~1 s, then 20 samples of 10 back-to-back launches).
template <class F>
double time_ms(F&& launch) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    for (int i = 0; i < 10; ++i)
      if (!launch()) return -1;
    if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  }
  cudaEvent_t e0, e1;
  (void)cudaEventCreate(&e0);
  (void)cudaEventCreate(&e1);
  constexpr int kBatch = 10;
  std::vector<float> ms;
  for (int rep = 0; rep < 20; ++rep) {
    (void)cudaEventRecord(e0);
    for (int i = 0; i < kBatch; ++i)
      if (!launch()) return -1;
    (void)cudaEventRecord(e1);
    (void)cudaEventSynchronize(e1);
    float t = 0;
    (void)cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t / kBatch);
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Host time per call of `call`: kCalls enqueued back to back with no wait (well inside the launch
// queue at 2-3 launches a call), then one synchronize outside the clock. -1 when a call fails.
template <class F>
double host_us_per_call(F&& call) {
  constexpr int kCalls = 200;
  const auto h0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i)
    if (!call()) return -1;
  const auto h1 = std::chrono::steady_clock::now();
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  return std::chrono::duration<double, std::micro>(h1 - h0).count() / kCalls;
}

struct BenchSets {
  std::vector<void*> a, b;
  void* d = nullptr;
  BenchSets(int sets, size_t a_bytes, size_t b_bytes, size_t d_bytes) {
    for (int i = 0; i < sets; ++i) {
      a.push_back(nullptr);
      b.push_back(nullptr);
      (void)cudaMalloc(&a.back(), a_bytes);
      (void)cudaMalloc(&b.back(), b_bytes);
      fill(a.back(), a_bytes / 2, DType::bf16);
      fill(b.back(), b_bytes / 2, DType::bf16);
    }
    (void)cudaMalloc(&d, d_bytes);
  }
  ~BenchSets() {
    for (void* p : a) (void)cudaFree(p);
    for (void* p : b) (void)cudaFree(p);
    (void)cudaFree(d);
  }
};

TEST(Sm90CliffsBench, Repack4097Cubed) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4097^3 bf16 through the repack path";
  const KernelEntry* rep = find_kernel(kRepackBf16);
  const KernelEntry* plain = find_kernel(kPlainBf16);
  ASSERT_TRUE(rep && plain);
  const int64_t n = 4097;
  const size_t bytes = static_cast<size_t>(n) * n * 2;
  BenchSets sets(3, bytes, bytes, bytes);  // 3 x (A + B) = 201 MB, past the 60 MB L2
  GemmArgs args;
  args.desc.m = args.desc.n = args.desc.k = n;
  args.desc.d = {DType::bf16, Layout::row};
  args.d = sets.d;
  ASSERT_TRUE(rep->supports(args.desc).ok());
  const size_t ws = rep->workspace_bytes(args.desc);
  DeviceBuffer W(ws);
  args.workspace = W.p;
  args.workspace_bytes = ws;
  int it = 0;
  const double total = time_ms([&] {
    args.a = sets.a[it % 3];
    args.b = sets.b[it % 3];
    ++it;
    return rep->launch(args).ok();
  });
  ASSERT_GT(total, 0);
  // The parts: the two copies alone, and the GEMM alone on the copies (ld 4160).
  const TmaRepackPlan plan = plan_tma_repack(args.desc);
  const double copies = time_ms([&] {
    const void* a = sets.a[it % 3];
    const void* b = sets.b[it % 3];
    ++it;
    char* w = static_cast<char*>(W.p);
    return repack_16bit(a, n, n, n, w + plan.a_offset, plan.lda, nullptr).ok() &&
           repack_16bit(b, n, n, n, w + plan.b_offset, plan.ldb, nullptr).ok();
  });
  GemmArgs padded = args;
  padded.desc = repacked_desc(args.desc, plan);
  padded.a = static_cast<char*>(W.p) + plan.a_offset;
  padded.b = static_cast<char*>(W.p) + plan.b_offset;
  const double gemm = time_ms([&] { return plain->launch(padded).ok(); });
  const double flop = 2.0 * n * n * n;
  const double copy_bytes = 2.0 * (bytes + static_cast<double>(n) * plan.lda * 2);
  std::printf("[bench] %s 4097^3 A=row B=col D=bf16:row  median %.3f ms  %.1f TFLOP/s (copies included)\n",
              rep->name.data(), total, flop / (total * 1e-3) / 1e12);
  std::printf("[bench]   copies alone %.3f ms (%.2f TB/s read+write); GEMM on the copies %.3f ms (%.1f TFLOP/s)\n",
              copies, copy_bytes / (copies * 1e-3) / 1e12, gemm, flop / (gemm * 1e-3) / 1e12);
}

TEST(Sm90CliffsBench, Peel4097Cubed) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4097^3 bf16 through repack + peel";
  const KernelEntry* k = find_kernel(kPeelBf16);
  ASSERT_NE(k, nullptr);
  const int64_t n = 4097;
  const size_t bytes = static_cast<size_t>(n) * n * 2;
  BenchSets sets(3, bytes, bytes, bytes);
  GemmArgs args;
  args.desc.m = args.desc.n = args.desc.k = n;
  args.desc.d = {DType::bf16, Layout::row};
  args.d = sets.d;
  ASSERT_TRUE(k->supports(args.desc).ok()) << k->supports(args.desc).message();
  const size_t ws = k->workspace_bytes(args.desc);
  DeviceBuffer W(ws);
  args.workspace = W.p;
  args.workspace_bytes = ws;
  int it = 0;
  const double ms = time_ms([&] {
    args.a = sets.a[it % 3];
    args.b = sets.b[it % 3];
    ++it;
    return k->launch(args).ok();
  });
  ASSERT_GT(ms, 0);
  std::printf("[bench] %s 4097^3 A=row B=col D=bf16:row  median %.3f ms  %.1f TFLOP/s (copies and strips included)\n",
              k->name.data(), ms, 2.0 * n * n * n / (ms * 1e-3) / 1e12);
}

// The small unaligned shapes whose `tcgemm profile` timings once split in two (bench/NOTES.md,
// "gemm()'s host time"): the entry's path (copies, then the planned split-K tile), the same through
// gemm(), then each part alone on the same buffers. The tiny ones (run 70: a ~9-14 us floor against
// cuBLAS's 7-9) also time the host alone: launches enqueued back to back without a wait; where
// that per call reaches the whole path's time, the host binds, not the GPU.
TEST(Sm90CliffsBench, SmallRepackParts) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 1000x1000x1001 and 333x777x4099 by parts";
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128xN_ws_repack_splitk");
  ASSERT_NE(k, nullptr);
  for (const Shape sh : {Shape{1000, 1000, 1001}, Shape{333, 777, 4099}, Shape{87, 6819, 47}, Shape{426, 2589, 36},
                         Shape{14, 3, 650}, Shape{1024, 1024, 8193}, Shape{768, 768, 8193}}) {
    GemmDesc g;
    g.m = sh.m;
    g.n = sh.n;
    g.k = sh.k;
    g.d = {DType::bf16, Layout::row};
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    constexpr int kSets = 16;  // 16 x (A + B): 64 MB at 1000x1000x1001, past the 60 MB L2
    BenchSets sets(kSets, static_cast<size_t>(sh.m * sh.k * 2), static_cast<size_t>(sh.n * sh.k * 2),
                   static_cast<size_t>(sh.m * sh.n * 2));
    const size_t ws = k->workspace_bytes(g);
    DeviceBuffer W(ws);
    GemmArgs args;
    args.desc = g;
    args.d = sets.d;
    args.workspace = W.p;
    args.workspace_bytes = ws;
    int it = 0;
    auto next = [&] {
      args.a = sets.a[it % kSets];
      args.b = sets.b[it % kSets];
      ++it;
    };
    const double whole_ms = time_ms([&] { next(); return k->launch(args).ok(); });
    const double host_us = host_us_per_call([&] { next(); return k->launch(args).ok(); });
    ASSERT_GT(host_us, 0);
    // The same through the public call: validation, the (cached) choice, the library's workspace.
    const double api_ms = time_ms([&] { next(); return gemm(g, args.a, args.b, nullptr, args.d).ok(); });
    size_t used = 0;
    const double copies_ms = time_ms([&] { next(); return apply_tma_repack(args, &used).ok(); });
    Result<GemmArgs> copied = apply_tma_repack(args, &used);
    ASSERT_TRUE(copied.ok()) << copied.status().message();
    GemmArgs rest = copied.value();
    const size_t skip = (used + 255) / 256 * 256;
    rest.workspace = static_cast<char*>(W.p) + skip;
    rest.workspace_bytes = ws - skip;
    const double planned_ms = time_ms([&] { return sm90_wgmma_ws_planned_launch(rest, DType::bf16).ok(); });
    ASSERT_GT(whole_ms, 0);
    ASSERT_GT(api_ms, 0);
    ASSERT_GT(copies_ms, 0);
    ASSERT_GT(planned_ms, 0);
    std::printf("[bench] %s %s: whole %.4f ms, host enqueue %.1f us a call, through gemm() %.4f ms, copies %.4f ms, "
                "planned GEMM on the copies %.4f ms (%s)\n",
                k->name.data(), shape_name(sh).c_str(), whole_ms, host_us, api_ms, copies_ms, planned_ms,
                k->describe ? k->describe(g).c_str() : "");
  }
}

// Aligned tiny problems, where gemm() ran 3-4 us behind cuBLAS in run 71 whatever kernel it took:
// the host's enqueue per call (no waits), the back-to-back time, and one call alone (events around
// it, synchronized): for gemm(), cuBLAS and an empty kernel. Where our alone time matches cuBLAS's
// and the back-to-back one does not, the host binds; where alone differs, the GPU does.
__global__ void empty_kernel() {}

TEST(Sm90CliffsBench, SmallHostAndGpu) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time tiny problems' host and GPU parts";
  Result<std::unique_ptr<CublasLtProvider>> blas = CublasLtProvider::create();
  ASSERT_TRUE(blas.ok()) << blas.status().message();
  cudaEvent_t e0, e1;
  ASSERT_EQ(cudaEventCreate(&e0), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&e1), cudaSuccess);
  auto parts = [&](const char* who, const std::string& shape, auto&& call) {
    const double whole_ms = time_ms(call);
    const double host_us = host_us_per_call(call);
    ASSERT_GT(host_us, 0);
    std::vector<float> alone;
    for (int i = 0; i < 50; ++i) {
      (void)cudaEventRecord(e0);
      ASSERT_TRUE(call());
      (void)cudaEventRecord(e1);
      (void)cudaEventSynchronize(e1);
      float t = 0;
      (void)cudaEventElapsedTime(&t, e0, e1);
      alone.push_back(t);
    }
    std::sort(alone.begin(), alone.end());
    std::printf("[bench] %-14s %-16s back-to-back %6.2f us  host enqueue %5.2f us a call  alone %6.2f us\n", who,
                shape.c_str(), 1e3 * whole_ms, host_us, 1e3 * alone[alone.size() / 2]);
  };
  parts("empty kernel", "-", [] {
    empty_kernel<<<1, 32>>>();
    return cudaGetLastError() == cudaSuccess;
  });
  for (const Shape sh : {Shape{87, 6819, 48}, Shape{426, 2589, 40}, Shape{1857, 934, 32}, Shape{3240, 544, 392},
                         Shape{288, 1648, 1128}, Shape{14, 3, 656}}) {
    GemmDesc g;
    g.m = sh.m;
    g.n = sh.n;
    g.k = sh.k;
    g.d = {DType::bf16, Layout::row};
    constexpr int kSets = 8;
    BenchSets sets(kSets, static_cast<size_t>(sh.m * sh.k * 2), static_cast<size_t>(sh.n * sh.k * 2),
                   static_cast<size_t>(sh.m * sh.n * 2));
    int it = 0;
    const std::string name = shape_name(sh);
    Result<std::string_view> pick = pick_kernel(g);
    ASSERT_TRUE(pick.ok()) << pick.status().message();
    std::printf("[bench] %s: gemm() picks %s\n", name.c_str(), std::string(pick.value()).c_str());
    parts("gemm()", name, [&] {
      ++it;
      return gemm(g, sets.a[it % kSets], sets.b[it % kSets], nullptr, sets.d).ok();
    });
    parts("cuBLASLt", name, [&] {
      ++it;
      return blas.value()->run(g, sets.a[it % kSets], sets.b[it % kSets], nullptr, sets.d).ok();
    });
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
}

TEST(Sm90CliffsBench, SplitK256x256x65536) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 256x256x65536 bf16 through split-K";
  const KernelEntry* k = find_kernel(kSplitBf16);
  ASSERT_NE(k, nullptr);
  const int64_t m = 256, n = 256, kk = 65536;
  BenchSets sets(3, static_cast<size_t>(m) * kk * 2, static_cast<size_t>(kk) * n * 2, static_cast<size_t>(m) * n * 2);
  for (int forced : {0, 1, 16, 32}) {
    const ForcedSplits f(forced);
    GemmArgs args;
    args.desc.m = m;
    args.desc.n = n;
    args.desc.k = kk;
    args.desc.d = {DType::bf16, Layout::row};
    args.d = sets.d;
    ASSERT_TRUE(k->supports(args.desc).ok());
    const size_t ws = k->workspace_bytes(args.desc);
    DeviceBuffer W(ws);
    args.workspace = W.p;
    args.workspace_bytes = ws;
    int it = 0;
    const double ms = time_ms([&] {
      args.a = sets.a[it % 3];
      args.b = sets.b[it % 3];
      ++it;
      return k->launch(args).ok();
    });
    ASSERT_GT(ms, 0);
    const double flop = 2.0 * m * n * kk;
    std::printf("[bench] %s 256x256x65536 A=row B=col D=bf16:row splits %d%s  median %.1f us  %.1f TFLOP/s "
                "(memory floor ~15.7 us)\n",
                k->name.data(), choose_splits(args.desc, current_sm_count()), forced == 0 ? " (auto)" : "",
                ms * 1e3, flop / (ms * 1e-3) / 1e12);
  }
}

}  // namespace
}  // namespace tcgemm
