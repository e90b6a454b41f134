// Stream-K and the run-time tile order of the persistent cluster kernel
// (src/kernels/sm90/wgmma_ws_persistent_cluster.cu) against the device reference.
//  - Raster order and group size (set_pc_raster, the profiler's --raster_order/--swizzle_size):
//    every order with groups of 1, 2, 4 and 16 on odd shapes (ghost CTAs, N/K tails), through the
//    registry and on a capped grid so that one cluster walks many pair-tiles.
//  - Stream-K (`_pc2x1_streamk`, `_pc2x1_repack_streamk`): shapes with a partial last round of
//    pair-tiles, scaled-down 4224^3 variants on capped grids (the same 4.x rounds on fewer
//    clusters), K tails, a tile cut into 8 pieces; each case runs twice with the workspace
//    poisoned differently and D compared bit for bit (sm90_entry_check.cuh). Cases named "Small"
//    are quick enough for compute-sanitizer (TCGEMM_TEST_SMALL=1 keeps only those).
//  - Host: the plan's arithmetic, the workspace refusal, registration by name only.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/pc_repack.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

constexpr const char* kPcBf16 = "sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore";
constexpr const char* kSkBf16 = "sm90_wgmma_bf16_128x256x64_s3_pc2x1_streamk";
constexpr const char* kSkF16 = "sm90_wgmma_f16_128x256x64_s3_pc2x1_streamk";
constexpr const char* kSkRepackBf16 = "sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_streamk";





// Entries with the grid capped at kClusters clusters (the registry's use every resident one).
template <DType In, int kClusters>
KernelEntry capped(const KernelEntry& base, bool stream_k) {
  KernelEntry e = base;
  if (stream_k) {
    e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pc_streamk_launch(a, In, kClusters); };
  } else {
    e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pc_launch(a, In, 3, kClusters); };
  }
  return e;
}

KernelEntry with_cap(const KernelEntry& base, DType input, int cap, bool stream_k) {
  const bool bf = input == DType::bf16;
  switch (cap) {
    case 2: return bf ? capped<DType::bf16, 2>(base, stream_k) : capped<DType::f16, 2>(base, stream_k);
    case 3: return bf ? capped<DType::bf16, 3>(base, stream_k) : capped<DType::f16, 3>(base, stream_k);
    case 4: return bf ? capped<DType::bf16, 4>(base, stream_k) : capped<DType::f16, 4>(base, stream_k);
    case 5: return bf ? capped<DType::bf16, 5>(base, stream_k) : capped<DType::f16, 5>(base, stream_k);
    case 7: return bf ? capped<DType::bf16, 7>(base, stream_k) : capped<DType::f16, 7>(base, stream_k);
    default: return base;
  }
}

struct RasterReset {
  ~RasterReset() { set_pc_raster(PcRaster::heuristic, 0); }
};

// --- raster order and group size ----------------------------------------------------------------
// 2000x3000x136: 8 pair rows x 12 columns; 1100x4500x100: 5 pair rows (the last with a ghost) x
// 18 columns, K tail; 3000x2100x72: 12 pair rows x 9 columns (N tail inside a tile's second half).
const Shape kRasterShapes[] = {{2000, 3000, 136}, {1100, 4500, 100}, {3000, 2100, 72}};

using RasterCase = std::tuple<int, int, int, int>;  // order, swizzle, shape index, cap (0: registry)
class Sm90PcRaster : public ::testing::TestWithParam<RasterCase> {};

TEST_P(Sm90PcRaster, EveryOrderAndGroupCoversEveryTile) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [order, swizzle, si, cap] = GetParam();
  const KernelEntry* k = find_kernel(kPcBf16);
  ASSERT_NE(k, nullptr);
  RasterReset reset;
  set_pc_raster(static_cast<PcRaster>(order), swizzle);
  const GemmDesc g = tn_problem(DType::bf16, kRasterShapes[si], si == 1 ? 8 : 0, si == 2 ? -0.5f : 1.0f);
  ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  run_and_check(cap > 0 ? with_cap(*k, DType::bf16, cap, false) : *k, g, 0, /*twice=*/false);
}

std::string raster_name(const ::testing::TestParamInfo<RasterCase>& info) {
  const auto [order, swizzle, si, cap] = info.param;
  return std::string(to_string(static_cast<PcRaster>(order))) + "_g" + std::to_string(swizzle) + "_" +
         shape_name(kRasterShapes[si]) + (cap > 0 ? "_clusters" + std::to_string(cap) : std::string("_registry"));
}

INSTANTIATE_TEST_SUITE_P(Orders, Sm90PcRaster,
                         ::testing::Combine(::testing::Values(static_cast<int>(PcRaster::along_m),
                                                              static_cast<int>(PcRaster::along_n)),
                                            ::testing::Values(1, 2, 4, 16), ::testing::Range(0, 3),
                                            ::testing::Values(0, 5)),
                         raster_name);

// --- stream-K -----------------------------------------------------------------------------------
struct SkCase {
  Shape shape;
  int cap;  // 0: every resident cluster (the registry entry)
  bool small;
};

// Capped: 384x512x200: 4 pair-tiles (ghost row) of 4 k-blocks on 3 clusters, 1 left over in
// pieces of 2, 1, 1; 640x768x1000: 9 pair-tiles of 16 k-blocks, 1 left over on 4 or 2
// clusters; 1056x2112x1056 (4224^3 / 4 along M and K, / 2 along N): 45 pair-tiles of 17 k-blocks
// (K tail of 32) on 7 clusters = 6.4 rounds (the last 43% full, as 4224^3's 38%), 51 iterations
// in shares of 8 and 7 that cross tile edges; 1000x1000x1001: 16 pair-tiles, 1 left over in 5
// pieces.
// Registry (66 clusters on an H200): 129x257x1000: 2 pair-tiles of 16 k-blocks in 8 pieces each
// (the most the plan cuts); 1x1x19200: one tile in 8 pieces of 37-38 k-blocks; 33x4097x333: 17
// pair-tiles (N and K tails) in 3-4 pieces; 2000x4100x200: 136 pair-tiles = 2 rounds + 4;
// 4224^3: 289 pair-tiles = 4 rounds + 25 (the target); 4096^3: 3 rounds + 58 (more than half a
// round: not shared, the plain walk in the stream-K kernel); 256x11264x4096: one round of 44 of 66
// clusters, every cluster sharing (what the single-round rule does at 36 of 66).
const SkCase kSkCases[] = {
    {{384, 512, 200}, 3, true},       {{640, 768, 1000}, 4, true},  {{640, 768, 1000}, 2, true},
    {{1056, 2112, 1056}, 7, false},   {{1000, 1000, 1001}, 5, false}, {{129, 257, 1000}, 0, true},
    {{7, 7, 7}, 0, true},             {{1, 1, 19200}, 0, false},    {{33, 4097, 333}, 0, false},
    {{2000, 4100, 200}, 0, false},    {{4224, 4224, 4224}, 0, false}, {{4096, 4096, 4096}, 0, false},
    {{256, 11264, 4096}, 0, false}};

using SkParam = std::tuple<DType, int>;
class Sm90PcStreamK : public ::testing::TestWithParam<SkParam> {};

TEST_P(Sm90PcStreamK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [input, ci] = GetParam();
  const SkCase c = kSkCases[ci];
  if (small_only() && !c.small) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const KernelEntry* k = find_kernel(input == DType::bf16 ? kSkBf16 : kSkF16);
  ASSERT_NE(k, nullptr);
  const GemmDesc g = tn_problem(input, c.shape, ci % 3 == 1 ? 8 : 0, ci % 3 == 2 ? 0.75f : 1.0f);
  // The kernel's own rule; the entry also declines where gemm() should not prefer it (no tail to
  // share after a full round), but the launch must be right everywhere.
  ASSERT_TRUE(sm90_wgmma_ws_pc_streamk_supports(g, input).ok()) << sm90_wgmma_ws_pc_streamk_supports(g, input).message();
  run_and_check(c.cap > 0 ? with_cap(*k, input, c.cap, true) : *k, g, 0, /*twice=*/true);
}

std::string sk_name(const ::testing::TestParamInfo<SkParam>& info) {
  const auto [input, ci] = info.param;
  const SkCase c = kSkCases[ci];
  return std::string(to_string(input)) + "_" + shape_name(c.shape) +
         (c.cap > 0 ? "_clusters" + std::to_string(c.cap) : std::string("_registry")) + (c.small ? "_Small" : "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90PcStreamK,
                         ::testing::Combine(::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Range(0, static_cast<int>(std::size(kSkCases)))),
                         sk_name);

// Stream-K with the raster changed: the split pair-tiles are the first in the new order.
TEST(Sm90PcStreamKRaster, AlongNGroupsOf2) {
  TCGEMM_REQUIRE_GPU(90);
  const KernelEntry* k = find_kernel(kSkBf16);
  ASSERT_NE(k, nullptr);
  RasterReset reset;
  set_pc_raster(PcRaster::along_n, 2);
  const GemmDesc g = tn_problem(DType::bf16, {1056, 2112, 1056}, 0, 1.0f);
  run_and_check(with_cap(*k, DType::bf16, 7, true), g, 0, /*twice=*/true);
}

// Behind the repack copies: 4097^3 (the cliff; 289 pair-tiles, as 4224^3) and a small
// misaligned case; D's ld breaks TMA's rule in both, so the threads store it (PcDStore::threads).
const Shape kRepackShapes[] = {{1025, 1027, 1029}, {4097, 4097, 4097}};
class Sm90PcRepackStreamK : public ::testing::TestWithParam<int> {};

TEST_P(Sm90PcRepackStreamK, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape s = kRepackShapes[GetParam()];
  const KernelEntry* k = find_kernel(kSkRepackBf16);
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.a = {DType::bf16, Layout::row, s.k};
  g.b = {DType::bf16, Layout::column, s.k};
  g.d = {DType::bf16, Layout::row, s.n};
  g.c = g.d;
  ASSERT_TRUE(sm90_pc_repack_supports(g, DType::bf16).ok()) << sm90_pc_repack_supports(g, DType::bf16).message();
  run_and_check(*k, g, 0, /*twice=*/true);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90PcRepackStreamK, ::testing::Range(0, 2),
                         [](const ::testing::TestParamInfo<int>& info) { return shape_name(kRepackShapes[info.param]); });

// Stream-K with D stored by the consumers (PcDStore::threads: D's ld odd), for the sanitizers: 3
// clusters, 4 pair-tiles of 4 k-blocks, 1 left over in pieces; the owner's copy-out drains during
// its next unit's mainloop. M = 384 puts a ghost row in the last pair-tiles; M = 512 has none.
// NOTES (run 250): memcheck stalled intermittently at M = 384 (a consumer's full wait on the ghost
// tile's first stage), never without memcheck; session 42 explained it by reading (the ghost's
// warps drift apart: no wgmma holds them together) and added a barrier, after which run 253 saw 0
// stalls in 8 memcheck passes. M = 512 is the ghost-free control.
void threads_store_d(int64_t m) {
  const KernelEntry* k = find_kernel(kSkBf16);
  ASSERT_NE(k, nullptr);
  KernelEntry e = *k;
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pc_streamk_launch(a, DType::bf16, 3, PcDStore::threads); };
  GemmDesc g = tn_problem(DType::bf16, {m, 511, 200}, 0, 0.75f);
  g.d.ld = 511;
  g.c = g.d;
  ASSERT_TRUE(sm90_wgmma_ws_pc_supports(g, DType::bf16, PcDStore::threads).ok());
  run_and_check(e, g, 0, /*twice=*/true);
}

TEST(Sm90PcStreamKSmall, ThreadsStoreD) {
  TCGEMM_REQUIRE_GPU(90);
  threads_store_d(384);
}

TEST(Sm90PcStreamKSmall, ThreadsStoreDNoGhost) {
  TCGEMM_REQUIRE_GPU(90);
  threads_store_d(512);
}

TEST(Sm90PcStreamKStatus, WorkspaceTooSmallIsAStatus) {
  TCGEMM_REQUIRE_GPU(90);
  const GemmDesc g = tn_problem(DType::bf16, {640, 768, 1000}, 0, 1.0f);
  DeviceBuffer A(640 * 1000 * 2), B(768 * 1000 * 2), D(640 * 768 * 2), W(1024);
  const Status s = sm90_wgmma_ws_pc_streamk_launch(device_args(g, A.p, B.p, D.p, W.p, 1024), DType::bf16, 4);
  EXPECT_EQ(s.code(), StatusCode::workspace_too_small) << s.message();
}

// --- host ---------------------------------------------------------------------------------------
TEST(Sm90PcStreamKHost, PlanSharesTheRemainderEvenly) {
  // 4224^3 and 4097^3 on 66 clusters: 289 pair-tiles = 4 rounds + 25, 66 k-blocks each.
  PcStreamKPlan p = plan_pc_streamk(289, 66, 66);
  EXPECT_EQ(p.sk_tiles, 25);
  EXPECT_EQ(p.sk_clusters, 66);
  EXPECT_EQ(p.sk_share, 25);
  EXPECT_EQ(p.sk_extra, 0);
  EXPECT_EQ(pc_streamk_workspace_bytes(p), 1280u + 132u * 128 * 1024);  // 528 flags, 256-byte rounded
  // 4096^3: 256 = 3 rounds + 58: the last round is more than half full, so whole rounds (as
  // the plain kernel); 8192^3: 1024 = 15 rounds + 34, likewise. 2000x4100x200 shares its 4.
  EXPECT_EQ(plan_pc_streamk(256, 64, 66).sk_clusters, 0);
  EXPECT_EQ(plan_pc_streamk(1024, 128, 66).sk_clusters, 0);
  p = plan_pc_streamk(136, 4, 66);
  EXPECT_EQ(p.sk_tiles, 4);
  EXPECT_EQ(p.sk_clusters, 16);
  EXPECT_EQ(p.sk_share, 1);
  // No full round: the tiles are always shared (40 pair-tiles of 64 k-blocks on 66 clusters).
  p = plan_pc_streamk(40, 64, 66);
  EXPECT_EQ(p.sk_tiles, 40);
  EXPECT_EQ(p.sk_clusters, 66);
  EXPECT_EQ(p.sk_share, 38);
  EXPECT_EQ(p.sk_extra, 52);
  // Whole rounds: nothing shared, no workspace.
  p = plan_pc_streamk(132, 64, 66);
  EXPECT_EQ(p.sk_clusters, 0);
  EXPECT_EQ(pc_streamk_workspace_bytes(p), 0u);
  // One pair-tile left: at most 8 pieces; fewer k-blocks than that: one a cluster.
  p = plan_pc_streamk(67, 100, 66);
  EXPECT_EQ(p.sk_tiles, 1);
  EXPECT_EQ(p.sk_clusters, 8);
  EXPECT_EQ(p.sk_share, 12);
  EXPECT_EQ(p.sk_extra, 4);
  p = plan_pc_streamk(67, 3, 66);
  EXPECT_EQ(p.sk_clusters, 3);
  EXPECT_EQ(p.sk_share, 1);
}

// Preferred (3, above the plain cluster kernel's 2) exactly where a tail is shared after a full
// round: 4224^3 and 4097^3 (38% full) yes; 4096^3 (88% full), 8192^3 (52%) and problems without
// a full round no.
TEST(Sm90PcStreamKHost, PreferredWhereItSharesATail) {
  for (const char* name : {kSkBf16, kSkF16, kSkRepackBf16, "sm90_wgmma_f16_128x256x64_s3_pc2x1_repack_streamk"}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->preference, 3) << name;
    ASSERT_NE(k->workspace_bytes, nullptr) << name;
  }
  if (current_sm_count() == 132) {
    EXPECT_TRUE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {4224, 4224, 4224}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {4096, 4096, 4096}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {8192, 8192, 8192}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {1056, 2112, 1056}, 0, 1.0f)).ok())
        << "45 of 66 clusters but 17 k-blocks: too short to share";
    // One round on half to 60% of the clusters, long K: every cluster shares (measured +13% at
    // 36 of 66; -5 to +2% at 43-45 of 66, which stay on the plain kernel).
    EXPECT_TRUE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {256, 9216, 8192}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {154, 11328, 13808}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {256, 11264, 4096}, 0, 1.0f)).ok());
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {256, 8192, 8192}, 0, 1.0f)).ok())
        << "32 of 66 clusters: split-K's planner takes it";
    EXPECT_FALSE(find_kernel(kSkBf16)->supports(tn_problem(DType::bf16, {384, 8192, 8192}, 0, 1.0f)).ok())
        << "64 of 66 clusters busy";
  }
  const GemmDesc g = tn_problem(DType::bf16, {4224, 4224, 4224}, 0, 1.0f);
  EXPECT_GE(find_kernel(kSkBf16)->workspace_bytes(g), 256u + 2u * 66 * 128 * 1024);
  GemmDesc tf32 = tn_problem(DType::bf16, {256, 256, 256}, 0, 1.0f);
  tf32.a.dtype = tf32.b.dtype = DType::tf32;
  tf32.d.dtype = tf32.c.dtype = DType::f32;
  EXPECT_FALSE(sm90_wgmma_ws_pc_streamk_supports(tf32, DType::tf32).ok());
}

}  // namespace
}  // namespace tcgemm
