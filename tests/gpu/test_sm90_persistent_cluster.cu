// The persistent, 2-CTA-cluster, TMA-store wgmma kernel (src/kernels/sm90/
// wgmma_ws_persistent_cluster.cu) against the device reference: bf16 and f16, 3 and 4 stages, fresh
// random inputs, D poisoned with NaN first (and its padding checked untouched), M/N/K tails, odd
// tile-row counts (the ghost CTA of the last cluster), K not a multiple of 64, alpha != 1, padded
// leading dimensions. Grids capped at 1-3 clusters make one cluster walk many tiles, so the ring of
// stages and the C buffer's TMA-store waits cross tile boundaries even at small sizes. tf32 (f32
// A/B, f32 D staged in halves or quarters): the same checks with f32 tails (N % 4 != 0) and the
// tf32 tolerance. Host checks: what supports() refuses, and why.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/path_rules.hpp"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "tcgemm/gemm.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess) << #x << ": " << cudaGetErrorString(cudaGetLastError())

constexpr const char* kNames[] = {
    "sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore",      "sm90_wgmma_bf16_128x256x64_s4_pc2x1_tmastore",
    "sm90_wgmma_f16_128x256x64_s3_pc2x1_tmastore",       "sm90_wgmma_f16_128x256x64_s4_pc2x1_tmastore",
    "sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore_g128", "sm90_wgmma_bf16_128x256x64_s4_pc2x1_tmastore_g128"};

// tf32: f32 storage in A/B, f32 D; by name only (preference 0).
constexpr const char* kTf32Names[] = {"sm90_wgmma_tf32_128x256x32_s3_pc2x1_tmastore",
                                      "sm90_wgmma_tf32_128x256x32_s4_pc2x1_tmastore"};




// Runs the kernel (through the registry when max_clusters < 0, else the launch with that grid cap)
// and compares every element of D with the device reference; D's ld padding must stay NaN.
// PcDStore::threads: the launch with that store (D's ld may break TMA's rule), on max_clusters
// (0 or less: the full grid).
void run_and_check(const char* name, DType input, int stages, int max_clusters, const GemmDesc& g,
                   PcDStore store = PcDStore::tma, PcTile tile = PcTile::m128n256) {
  const KernelEntry* k = find_kernel(name);
  ASSERT_NE(k, nullptr) << name;
  const bool by_threads = store == PcDStore::threads;
  const Status sup = by_threads ? sm90_wgmma_ws_pc_supports(g, input, store) : k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();

  const size_t na = stored_elements(extent_a(g), g.a.layout, g.a.ld);
  const size_t nb = stored_elements(extent_b(g), g.b.layout, g.b.ld);
  const size_t nd = stored_elements(extent_c(g), g.d.layout, g.d.ld);
  const size_t in_bytes = dtype_bytes(input), d_bytes = dtype_bytes(g.d.dtype);
  DeviceBuffer A(na * in_bytes), B(nb * in_bytes), D(nd * d_bytes), ref(g.m * g.n * sizeof(float)),
      got(g.m * g.n * sizeof(float));
  ASSERT_TRUE(A.p && B.p && D.p && ref.p && got.p);
  fill(A.p, na, input);
  fill(B.p, nb, input);
  CUDA_OK(cudaMemset(D.p, 0xFF, nd * d_bytes));  // NaN in f32, f16 and bf16

  GemmArgs args;
  args.desc = g;
  args.a = A.p;
  args.b = B.p;
  args.d = D.p;
  const Status run = by_threads ? sm90_wgmma_ws_pc_launch(args, input, stages, std::max(max_clusters, 0), store, tile)
                     : max_clusters < 0 ? k->launch(args)
                                        : sm90_wgmma_ws_pc_launch(args, input, stages, max_clusters, PcDStore::tma, tile);
  ASSERT_TRUE(run.ok()) << run.message();
  CUDA_OK(cudaDeviceSynchronize());

  ASSERT_TRUE(reference_gemm_device(g, A.p, B.p, nullptr, static_cast<float*>(ref.p), false).ok());
  ASSERT_TRUE(convert_to_float_device(g, D.p, static_cast<float*>(got.p)).ok());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<float> r(g.m * g.n), d(g.m * g.n);
  CUDA_OK(cudaMemcpy(r.data(), ref.p, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(d.data(), got.p, d.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // tf32: A/B are raw f32; wgmma drops their low 13 mantissa bits while the reference rounds
  // (cvt.rna), so the tolerance and floor of test_sm90_wgmma.cu's tf32 cases apply.
  const bool tf32 = input == DType::tf32;
  const double eps = input == DType::bf16 ? 1e-2 : tf32 ? 2e-3 : 5e-3;
  const double floor = (tf32 ? 1e-3 : 0.1 * eps) * std::sqrt(static_cast<double>(g.k)) * std::fabs(g.alpha);
  expect_close(d, r, g.n, eps, floor);

  // The TMA store clips at N: the padding columns of each row keep their poison.
  if (g.d.ld > g.n) {
    std::vector<uint8_t> raw(nd * d_bytes);
    CUDA_OK(cudaMemcpy(raw.data(), D.p, raw.size(), cudaMemcpyDeviceToHost));
    int64_t touched = 0;
    for (int64_t row = 0; row < g.m; ++row)
      for (int64_t c = g.n; c < g.d.ld; ++c)
        for (size_t b = 0; b < d_bytes; ++b) touched += raw[(row * g.d.ld + c) * d_bytes + b] != 0xFF;
    EXPECT_EQ(touched, 0) << "the kernel wrote into D's ld padding";
  }
}

// --- every instance x shapes x grid caps --------------------------------------------------------
const Shape kShapes[] = {
    {1, 1, 1},          {7, 7, 7},         {33, 33, 33},       {129, 129, 129},   {255, 255, 255},
    {257, 257, 257},    {1000, 1000, 1001}, {4097, 256, 64},   {384, 512, 200},   {640, 300, 96},
    {2048, 2048, 2048}, {1152, 2304, 777},  {4096, 1024, 4096}};

// instance index into kNames, shape index, grid cap (-1: the registry entry; else clusters)
using Case = std::tuple<int, int, int>;

class Sm90PersistentCluster : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PersistentCluster, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [instance, shape_index, max_clusters] = GetParam();
  const DType input = instance == 2 || instance == 3 ? DType::f16 : DType::bf16;
  const int stages = instance % 2 == 0 ? 3 : 4;
  const float alphas[] = {1.0f, 0.75f, -1.25f};
  const GemmDesc g = tn_problem(input, kShapes[shape_index], shape_index % 3 == 1 ? 8 : 0, alphas[shape_index % 3]);
  run_and_check(kNames[instance], input, stages, max_clusters, g);
}

// A case's name: the kernel without its sm90_wgmma_ prefix, the shape, and how it ran.
std::string param_name(std::string_view kernel, Shape s, int cap) {
  kernel.remove_prefix(std::string_view("sm90_wgmma_").size());
  return std::string(kernel) + "_" + shape_name(s) + (cap < 0 ? std::string("_registry") : "_clusters" + std::to_string(cap));
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [instance, si, cap] = info.param;
  return param_name(kNames[instance], kShapes[si], cap);
}

INSTANTIATE_TEST_SUITE_P(Registry, Sm90PersistentCluster,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kNames))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Values(-1)),
                         case_name);
// One to three clusters walk all tiles: barrier phases, the producer's run-ahead and the C
// buffer's reuse cross many tile boundaries (k-block counts 1..63 against 3 and 4 stages).
INSTANTIATE_TEST_SUITE_P(FewClusters, Sm90PersistentCluster,
                         ::testing::Combine(::testing::Range(0, 4),
                                            ::testing::Values(3, 5, 7, 8, 9, 11),
                                            ::testing::Values(1, 3)),
                         case_name);

// --- tf32: both stage counts x shapes x grid caps ------------------------------------------------
// 1/7/33/129 cubes, K not a multiple of 32, N % 4 = 1, 2, 3 (the f32 tail past the last 16-byte
// chunk), odd tile-row counts (ghost CTA), N tails inside the first and second half of a tile.
const Shape kTf32Shapes[] = {{1, 1, 1},        {7, 7, 7},        {33, 33, 33},     {129, 129, 129},
                             {255, 257, 1000}, {1000, 1000, 1001}, {130, 253, 64},  {257, 514, 96},
                             {385, 259, 200},  {640, 383, 33},   {2048, 2048, 2048}, {4096, 1024, 4096}};

// stage index into kTf32Names, shape index, grid cap (-1: the registry entry; else clusters)
class Sm90PersistentClusterTf32 : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PersistentClusterTf32, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [instance, shape_index, max_clusters] = GetParam();
  const float alphas[] = {1.0f, 0.75f, -1.25f};
  const GemmDesc g =
      tn_problem(DType::tf32, kTf32Shapes[shape_index], shape_index % 3 == 1 ? 4 : 0, alphas[shape_index % 3]);
  run_and_check(kTf32Names[instance], DType::tf32, instance == 0 ? 3 : 4, max_clusters, g);
}

std::string tf32_case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [instance, si, cap] = info.param;
  return param_name(kTf32Names[instance], kTf32Shapes[si], cap);
}

INSTANTIATE_TEST_SUITE_P(Registry, Sm90PersistentClusterTf32,
                         ::testing::Combine(::testing::Range(0, 2),
                                            ::testing::Range(0, static_cast<int>(std::size(kTf32Shapes))),
                                            ::testing::Values(-1)),
                         tf32_case_name);
INSTANTIATE_TEST_SUITE_P(FewClusters, Sm90PersistentClusterTf32,
                         ::testing::Combine(::testing::Range(0, 2), ::testing::Values(4, 5, 7, 8, 9),
                                            ::testing::Values(1, 3)),
                         tf32_case_name);

// D's ld retuned (tn_problem's D is aligned): for the D-by-the-threads cases.
GemmDesc with_d_ld(GemmDesc g, int64_t ld) {
  g.d.ld = ld;
  g.c = g.d;
  return g;
}

// --- the 192x192 tile (three consumer warpgroups of m64n192) -------------------------------------
// Tails inside the first and second B half (N = 200: the upper half wholly past N is not loaded;
// N = 289), N % 8 != 0 (the columns past the last 16-byte chunk), odd tile-row counts (M = 385,
// 577: the ghost CTA), K not a multiple of 64, 4224 (22 x 22 tiles, gemm()'s pick).
constexpr const char* kSquareNames[] = {"sm90_wgmma_bf16_192x192x64_s3_pc2x1_tmastore",
                                        "sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore",
                                        "sm90_wgmma_f16_192x192x64_s4_pc2x1_tmastore",
                                        "sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit"};
const Shape kSquareShapes[] = {{1, 1, 1},       {7, 7, 7},        {33, 33, 33},       {191, 193, 64},
                               {385, 200, 130}, {577, 289, 96},   {384, 384, 384},    {1000, 1000, 1001},
                               {1152, 1920, 777}, {4224, 4224, 256}};

DType square_input(int instance) { return instance == 2 ? DType::f16 : DType::bf16; }
int square_stages(int instance) { return instance == 0 ? 3 : 4; }

class Sm90PersistentClusterSquare : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PersistentClusterSquare, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [instance, shape_index, max_clusters] = GetParam();
  const DType input = square_input(instance);
  const float alphas[] = {1.0f, 0.75f, -1.25f};
  const GemmDesc g = tn_problem(input, kSquareShapes[shape_index], shape_index % 3 == 1 ? 8 : 0, alphas[shape_index % 3]);
  run_and_check(kSquareNames[instance], input, square_stages(instance), max_clusters, g, PcDStore::tma,
                PcTile::m192n192);
}

// gemm()'s entry (`_fit`) through the registry, on shapes its rule admits (fewer tile rounds).
TEST(Sm90PersistentClusterSquareFit, GemmEntryOnItsShapes) {
  TCGEMM_REQUIRE_GPU(90);
  for (const Shape s : {Shape{4224, 4224, 200}, Shape{3072, 3072, 136}}) {
    SCOPED_TRACE(shape_name(s));
    const GemmDesc g = tn_problem(DType::bf16, s, 0, 0.5f);
    if (!find_kernel(kSquareNames[3])->supports(g).ok()) GTEST_SKIP() << "not 132 SMs: the rule admits other shapes";
    run_and_check(kSquareNames[3], DType::bf16, 4, -1, g);
  }
}

std::string square_case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [instance, si, cap] = info.param;
  return param_name(kSquareNames[instance], kSquareShapes[si], cap);
}

INSTANTIATE_TEST_SUITE_P(Registry, Sm90PersistentClusterSquare,
                         ::testing::Combine(::testing::Range(0, 3),
                                            ::testing::Range(0, static_cast<int>(std::size(kSquareShapes))),
                                            ::testing::Values(-1)),
                         square_case_name);
INSTANTIATE_TEST_SUITE_P(FewClusters, Sm90PersistentClusterSquare,
                         ::testing::Combine(::testing::Range(0, 3), ::testing::Values(3, 4, 5, 7, 8),
                                            ::testing::Values(1, 3)),
                         square_case_name);

// --- the 192-row fitting widths (three consumer warpgroups of m64n160 / m64n176, 3 stages) --------
// B halves of 80 / 88 rows (N = 200: the second tile column inside the first half, the upper one
// not loaded), N inside the partial last box (150 of 160: columns 128-149 by the threads, a 6-column
// tail; 170 of 176: 128-169, a 2-column tail), ghost CTAs (M = 385, 577), 4224 (24 columns of 176).
constexpr const char* kFit192Names[] = {
    "sm90_wgmma_bf16_192x160x64_s3_pc2x1_tmastore", "sm90_wgmma_f16_192x160x64_s3_pc2x1_tmastore",
    "sm90_wgmma_bf16_192x176x64_s3_pc2x1_tmastore", "sm90_wgmma_f16_192x176x64_s3_pc2x1_tmastore"};
DType fit192_input(int instance) { return instance % 2 == 1 ? DType::f16 : DType::bf16; }
PcTile fit192_tile(int instance) { return instance < 2 ? PcTile::m192n160 : PcTile::m192n176; }
const Shape kFit192Shapes[] = {{1, 1, 1},       {7, 7, 7},      {33, 33, 33},   {191, 177, 64},
                               {385, 200, 130}, {577, 289, 96}, {200, 170, 72}, {200, 150, 72},
                               {384, 352, 384}, {1000, 1000, 1001}, {1152, 1936, 777}, {4224, 4224, 256}};

class Sm90PersistentClusterFit192 : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PersistentClusterFit192, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [instance, shape_index, max_clusters] = GetParam();
  const DType input = fit192_input(instance);
  const float alphas[] = {1.0f, 0.75f, -1.25f};
  const GemmDesc g = tn_problem(input, kFit192Shapes[shape_index], shape_index % 3 == 1 ? 8 : 0, alphas[shape_index % 3]);
  run_and_check(kFit192Names[instance], input, 3, max_clusters, g, PcDStore::tma, fit192_tile(instance));
}

std::string fit192_case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [instance, si, cap] = info.param;
  return param_name(kFit192Names[instance], kFit192Shapes[si], cap);
}

INSTANTIATE_TEST_SUITE_P(Registry, Sm90PersistentClusterFit192,
                         ::testing::Combine(::testing::Range(0, 4),
                                            ::testing::Range(0, static_cast<int>(std::size(kFit192Shapes))),
                                            ::testing::Values(-1)),
                         fit192_case_name);
INSTANTIATE_TEST_SUITE_P(FewClusters, Sm90PersistentClusterFit192,
                         ::testing::Combine(::testing::Range(0, 4), ::testing::Values(3, 4, 5, 6, 7, 9),
                                            ::testing::Values(1, 3)),
                         fit192_case_name);

// D by the threads on the 192-row fitting widths: the whole-row chunk cut along an odd ld.
TEST(Sm90PersistentClusterFit192ThreadsD, OddLd) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance = 0; instance < 4; ++instance) {
    SCOPED_TRACE(kFit192Names[instance]);
    const DType input = fit192_input(instance);
    for (const Shape s : {Shape{385, 259, 200}, Shape{1000, 1000, 1001}})
      run_and_check(kFit192Names[instance], input, 3, 0,
                    with_d_ld(tn_problem(input, s, 0, -0.75f), s.n % 2 == 1 ? s.n : s.n + 1), PcDStore::threads,
                    fit192_tile(instance));
  }
}

// The entries' shape. They run by name only: run 225 measured them no better than the 192x192
// tile beyond the profiler's own order bias (bench/NOTES.md, session 33), so no rule takes them.
TEST(Sm90PersistentClusterFit192Entries, Shape) {
  for (int instance = 0; instance < 4; ++instance) {
    const KernelEntry* k = find_kernel(kFit192Names[instance]);
    ASSERT_NE(k, nullptr) << kFit192Names[instance];
    EXPECT_EQ(k->tile_m, 192);
    EXPECT_EQ(k->tile_n, instance < 2 ? 160 : 176);
    EXPECT_EQ(k->stages, 3);
    EXPECT_EQ(k->threads, 512);
    EXPECT_EQ(k->cluster_m, 2);
    EXPECT_EQ(k->preference, 0) << k->name << ": by name only";
  }
  EXPECT_EQ(pair_tiles(4224, 4224, 192, 176), 264);  // 4 whole rounds on 66 clusters
}

// The tall 256x128 tile through its gated entry on the shapes its rule admits at 132 SMs, an odd K
// and ragged M and N edges included (four consumers, each a 64-row slab of the 256-row tile).
TEST(Sm90PersistentClusterTall, GemmEntryOnItsShapes) {
  TCGEMM_REQUIRE_GPU(90);
  for (const Shape s : {Shape{6656, 624, 256}, Shape{13312, 624, 131}, Shape{6600, 616, 72}}) {
    SCOPED_TRACE(shape_name(s));
    for (DType in : {DType::bf16, DType::f16}) {
      const GemmDesc g = tn_problem(in, s, 0, 0.5f);
      const char* name = in == DType::bf16 ? "sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall"
                                           : "sm90_wgmma_f16_256x128x64_s4_pc2x1_tmastore_tall";
      if (!find_kernel(name)->supports(g).ok()) GTEST_SKIP() << "not 132 SMs: the rule admits other shapes";
      run_and_check(name, in, 4, -1, g, PcDStore::tma, PcTile::m256n128);
    }
  }
}

// The tall tile's rule (132 SMs, 66 clusters): one round of 256x128 pair-tiles where the fitting
// width or 128x256 needs two (run 181); the 192x192 rule's shapes stay with it.
TEST(Sm90PersistentClusterHost, TallTileRule) {
  EXPECT_TRUE(tall_tile_wins(6656, 624, 132));    // 13 x 5 = 65 pair-tiles against 128x144's 130
  EXPECT_TRUE(tall_tile_wins(13312, 624, 132));   // 2 rounds against 4
  EXPECT_FALSE(tall_tile_wins(6656, 520, 132));   // the 192x192 tile's (33.9 us against 32.3)
  EXPECT_FALSE(tall_tile_wins(4232, 800, 132));   // the 192x192 tile's (117.6 against 108.6, f16)
  EXPECT_FALSE(tall_tile_wins(4096, 4096, 132));  // 128x256 fills its rounds
  EXPECT_FALSE(tall_tile_wins(624, 6656, 132));   // wide: the swapped fitting widths' side
  EXPECT_FALSE(tall_tile_wins(256, 624, 132));    // one tile row of 256
}

// D by the threads on the 192x192 tile: its three consumers' slabs and chunks (s4: 64-column boxes).
TEST(Sm90PersistentClusterSquareThreadsD, OddLd) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance : {0, 1, 2}) {
    SCOPED_TRACE(kSquareNames[instance]);
    const DType input = square_input(instance);
    for (const Shape s : {Shape{385, 259, 200}, Shape{1000, 1000, 1001}})
      run_and_check(kSquareNames[instance], input, square_stages(instance), 0,
                    with_d_ld(tn_problem(input, s, 0, -0.75f), s.n % 2 == 1 ? s.n : s.n + 1), PcDStore::threads,
                    PcTile::m192n192);
  }
}

// --- D stored by the threads (PcDStore::threads): D's ld odd (every other row's pairs split in two
// 16-bit stores) or one element past 16 bytes, N tails inside a box, ghost CTAs; all four stagings
// (16-bit whole tile / halves, f32 halves / quarters). tn_problem's D is aligned; these retune it.

const Shape kThreadsDShapes[] = {{1, 1, 1}, {7, 7, 7}, {33, 33, 33}, {129, 257, 130}, {385, 259, 200}, {1000, 1000, 1001}};

// input (0 bf16, 1 f16, 2 tf32), stages, shape index
using ThreadsDCase = std::tuple<int, int, int>;
class Sm90PersistentClusterThreadsD : public ::testing::TestWithParam<ThreadsDCase> {};

TEST_P(Sm90PersistentClusterThreadsD, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [in, stages, si] = GetParam();
  const DType input = in == 0 ? DType::bf16 : in == 1 ? DType::f16 : DType::tf32;
  const char* name = in == 2 ? kTf32Names[stages == 3 ? 0 : 1] : kNames[(in == 1 ? 2 : 0) + (stages == 3 ? 0 : 1)];
  const Shape s = kThreadsDShapes[si];
  const GemmDesc g = tn_problem(input, s, 0, si % 2 == 0 ? 1.0f : -0.75f);
  run_and_check(name, input, stages, si % 3 == 0 ? 1 : 0, with_d_ld(g, s.n % 2 == 1 ? s.n : s.n + 1), PcDStore::threads);
}

std::string threads_d_name(const ::testing::TestParamInfo<ThreadsDCase>& info) {
  const auto [in, stages, si] = info.param;
  const char* inputs[] = {"bf16", "f16", "tf32"};
  return std::string(inputs[in]) + "_s" + std::to_string(stages) + "_" + shape_name(kThreadsDShapes[si]);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Sm90PersistentClusterThreadsD,
                         ::testing::Combine(::testing::Range(0, 3), ::testing::Values(3, 4),
                                            ::testing::Range(0, static_cast<int>(std::size(kThreadsDShapes)))),
                         threads_d_name);

// For compute-sanitizer (racecheck, synccheck, memcheck): small sizes, one cluster walking several
// tiles (2 pair-tiles with 3 k-blocks; 3 tile rows so the last pair has a ghost CTA).
TEST(Sm90PersistentClusterSmall, RingAndGhostAcrossTiles) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance : {0, 1, 3}) {
    const DType input = instance == 3 ? DType::f16 : DType::bf16;
    const int stages = instance % 2 == 0 ? 3 : 4;
    SCOPED_TRACE(kNames[instance]);
    run_and_check(kNames[instance], input, stages, 1, tn_problem(input, {129, 257, 130}, 8, 0.75f));
    run_and_check(kNames[instance], input, stages, 1, tn_problem(input, {300, 100, 70}, 0, -1.25f));
    run_and_check(kNames[instance], input, stages, -1, tn_problem(input, {33, 33, 33}, 0, 1.0f));
    // D by the threads, ld 257 (odd): the C buffer's reads race the next tile's writes if unordered.
    run_and_check(kNames[instance], input, stages, 1, with_d_ld(tn_problem(input, {129, 257, 130}, 0, 0.75f), 257),
                  PcDStore::threads);
  }
}

// The 192x192 tile: one cluster over 2 pair-tiles with a ghost CTA (M = 385: 3 tile rows), the
// ring and the C buffer crossing tiles; D by the threads.
TEST(Sm90PersistentClusterSmall, SquareRingAndGhostAcrossTiles) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance : {0, 1, 2}) {
    SCOPED_TRACE(kSquareNames[instance]);
    const DType input = square_input(instance);
    const int stages = square_stages(instance);
    run_and_check(kSquareNames[instance], input, stages, 1, tn_problem(input, {385, 300, 130}, 8, 0.75f), PcDStore::tma,
                  PcTile::m192n192);
    run_and_check(kSquareNames[instance], input, stages, 1,
                  with_d_ld(tn_problem(input, {385, 257, 130}, 0, 0.75f), 257), PcDStore::threads, PcTile::m192n192);
  }
}

// The 192-row fitting widths likewise: the whole-row buffer's partial box crossing tiles.
TEST(Sm90PersistentClusterSmall, Fit192RingAndGhostAcrossTiles) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance = 0; instance < 4; ++instance) {
    SCOPED_TRACE(kFit192Names[instance]);
    const DType input = fit192_input(instance);
    run_and_check(kFit192Names[instance], input, 3, 1, tn_problem(input, {385, 300, 130}, 8, 0.75f), PcDStore::tma,
                  fit192_tile(instance));
    run_and_check(kFit192Names[instance], input, 3, 1, with_d_ld(tn_problem(input, {385, 257, 130}, 0, 0.75f), 257),
                  PcDStore::threads, fit192_tile(instance));
  }
}

// The same for tf32 (f32 C buffer in halves and quarters, the 1-3 column f32 tail).
TEST(Sm90PersistentClusterSmall, Tf32RingAndGhostAcrossTiles) {
  TCGEMM_REQUIRE_GPU(90);
  for (int instance : {0, 1}) {
    const int stages = instance == 0 ? 3 : 4;
    SCOPED_TRACE(kTf32Names[instance]);
    run_and_check(kTf32Names[instance], DType::tf32, stages, 1, tn_problem(DType::tf32, {129, 257, 70}, 4, 0.75f));
    run_and_check(kTf32Names[instance], DType::tf32, stages, 1, tn_problem(DType::tf32, {300, 99, 40}, 0, -1.25f));
    run_and_check(kTf32Names[instance], DType::tf32, stages, -1, tn_problem(DType::tf32, {33, 33, 33}, 0, 1.0f));
    run_and_check(kTf32Names[instance], DType::tf32, stages, 1,
                  with_d_ld(tn_problem(DType::tf32, {129, 257, 70}, 0, 0.75f), 257), PcDStore::threads);
  }
}

// --- host-only checks (run without a GPU) --------------------------------------------------------
TEST(Sm90PersistentClusterHost, Registered) {
  for (const char* name : kNames) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->min_sm, 90);
    EXPECT_EQ(k->family, MmaFamily::wgmma);
    EXPECT_EQ(k->tile_m, 128);
    EXPECT_EQ(k->tile_n, 256);
    EXPECT_EQ(k->tile_k, 64);
    EXPECT_EQ(k->threads, 384);
    EXPECT_EQ(k->cluster_m, 2);
    // The 3-stage kernel on the full grid is gemm()'s default where it applies (measured to win
    // on all ten peak problems); the other variants run by name.
    const std::string_view n = name;
    EXPECT_EQ(k->preference, n.find("_s3_") != std::string_view::npos && !n.ends_with("_g128") ? 2 : 0) << name;
  }
  for (const char* name : kTf32Names) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->input, DType::tf32);
    EXPECT_EQ(k->family, MmaFamily::wgmma);
    EXPECT_EQ(k->tile_m, 128);
    EXPECT_EQ(k->tile_n, 256);
    EXPECT_EQ(k->tile_k, 32);  // one 128-byte row of f32
    EXPECT_EQ(k->threads, 384);
    EXPECT_EQ(k->cluster_m, 2);
    EXPECT_EQ(k->preference, std::string_view(name).find("_s3_") != std::string_view::npos ? 2 : 0) << name;
  }
}

// gemm()'s 192x176 entry where square176_wins: 4224^3 in both 16-bit inputs, the shape it is
// picked for, and a K tail (4224 x 4224 x 1000) on the same grid.
TEST(Sm90PersistentClusterSquare176, GemmsPickMatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  if (small_only()) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  for (DType t : {DType::bf16, DType::f16}) {
    const std::string name = std::string("sm90_wgmma_") + (t == DType::bf16 ? "bf16" : "f16") +
                             "_192x176x64_s3_pc2x1_tmastore_fit176";
    for (const Shape& sh : {Shape{4224, 4224, 4224}, Shape{4224, 4224, 1000}}) {
      SCOPED_TRACE(name + " " + std::to_string(sh.k));
      run_and_check(name.c_str(), t, 3, -1, tn_problem(t, sh, 0, 0.75f), PcDStore::tma, PcTile::m192n176);
    }
  }
}

TEST(Sm90PersistentClusterHost, SquareTileRegisteredAndPickedWhereItFits) {
  for (const char* name : kSquareNames) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->tile_m, 192);
    EXPECT_EQ(k->tile_n, 192);
    EXPECT_EQ(k->tile_k, 64);
    EXPECT_EQ(k->threads, 512);
    EXPECT_EQ(k->cluster_m, 2);
    EXPECT_EQ(k->preference, std::string_view(name).ends_with("_fit") ? 4 : 0) << name;
  }
  // Rounds of pair-tiles on 66 clusters (132 SMs): 4224^3 is 4 of 192x192 against 5 of 128x256;
  // 3072^3 2 against 3; 4096^3 and 8192^3 pad 192x192 and stay on 128x256.
  EXPECT_TRUE(square_tile_wins(4224, 4224, 132));
  EXPECT_TRUE(square_tile_wins(3072, 3072, 132));
  EXPECT_FALSE(square_tile_wins(4096, 4096, 132));
  EXPECT_FALSE(square_tile_wins(8192, 8192, 132));
  EXPECT_FALSE(square_tile_wins(4096, 57344, 132));
  EXPECT_FALSE(square_tile_wins(128, 4224, 132));
  // Grid-fitting widths (132 SMs, 66 clusters): the width whose rounds cost the least MMA area.
  EXPECT_EQ(fit_tile_width(256, 9216, 132), 144);    // 64 pair-tiles, one round (128x256: 36)
  EXPECT_EQ(fit_tile_width(256, 11264, 132), 176);   // 64 (44)
  EXPECT_EQ(fit_tile_width(192, 11008, 132), 176);   // 63 (43); a quarter of the rows padding
  EXPECT_EQ(fit_tile_width(154, 11328, 132), 0);     // 40% of the rows padding: no gain measured
  EXPECT_EQ(fit_tile_width(768, 4096, 132), 192);    // 66 (48)
  EXPECT_EQ(fit_tile_width(640, 8192, 132), 192);    // 129 = 2 rounds (96 = 2 rounds of 256)
  EXPECT_EQ(fit_tile_width(4096, 4096, 132), 0);     // 128x256 needs the fewest rounds' area
  EXPECT_EQ(fit_tile_width(8192, 8192, 132), 0);
  EXPECT_EQ(fit_tile_width(4096, 57344, 132), 0);
  EXPECT_EQ(fit_tile_width(4224, 4224, 132), 0);     // the 192x192 tile's shape
  EXPECT_EQ(fit_tile_width(320, 8192, 132), 0);      // every width needs two rounds
  EXPECT_EQ(fit_tile_width(256, 256, 132), 0);       // under half the clusters: split-K's planner
  EXPECT_EQ(fit_tile_width(128, 9216, 132), 0);      // one tile row: the swap paths
  if (current_sm_count() == 132)
    EXPECT_EQ(pick_kernel(tn_problem(DType::bf16, {256, 9216, 8192}, 0, 1.0f)).value(),
              "sm90_wgmma_bf16_128xNfit_s4_pc2x1_tmastore");
  if (current_sm_count() == 132) {
    for (DType t : {DType::bf16, DType::f16}) {
      const std::string in = t == DType::bf16 ? "bf16" : "f16";
      // 4224^3: 192x176 fills the 4 rounds that 192x192 leaves part-full (square176_wins).
      EXPECT_EQ(pick_kernel(tn_problem(t, {4224, 4224, 4224}, 0, 1.0f)).value(),
                "sm90_wgmma_" + in + "_192x176x64_s3_pc2x1_tmastore_fit176");
      EXPECT_EQ(pick_kernel(tn_problem(t, {3072, 3072, 3072}, 0, 1.0f)).value(),
                "sm90_wgmma_" + in + "_192x192x64_s4_pc2x1_tmastore_fit");
      EXPECT_EQ(pick_kernel(tn_problem(t, {4096, 4096, 4096}, 0, 1.0f)).value(),
                "sm90_wgmma_" + in + "_128x256x64_s3_pc2x1_tmastore");
    }
  }
  // Combinations that are not built are refused by the launch, not run.
  int dummy = 0;
  GemmArgs args;
  args.desc = tn_problem(DType::f16, {384, 384, 64}, 0, 1.0f);
  args.a = args.b = args.d = &dummy;
  EXPECT_EQ(sm90_wgmma_ws_pc_launch(args, DType::f16, 3, 0, PcDStore::tma, PcTile::m192n192).code(), StatusCode::internal);
  EXPECT_EQ(sm90_wgmma_ws_pc_function(DType::tf32, 3, PcTile::m192n192), nullptr);
  EXPECT_FALSE(pc_tile_instantiated(DType::tf32, 3, PcTile::m192n192));
  EXPECT_TRUE(pc_tile_instantiated(DType::bf16, 4, PcTile::m192n192));
}

TEST(Sm90PersistentClusterHost, GemmPicksItForLargeTn) {
  GemmDesc g;
  g.m = g.n = g.k = 4096;
  for (DType t : {DType::bf16, DType::f16}) {
    g.a.dtype = g.b.dtype = g.c.dtype = g.d.dtype = t;
    const Result<std::string_view> k = pick_kernel(g);
    ASSERT_TRUE(k.ok()) << k.status().message();
    EXPECT_TRUE(k.value().ends_with("_s3_pc2x1_tmastore")) << k.value();
  }
  g.b.layout = Layout::row;  // not TN: the plain kernel serves it
  const Result<std::string_view> k = pick_kernel(g);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(k.value().ends_with("_s4_ws")) << k.value();
  // tf32 (TN, f32 D, beta == 0) takes the 3-stage cluster kernel too.
  g.b.layout = Layout::column;
  g.a.dtype = g.b.dtype = DType::tf32;
  g.c.dtype = g.d.dtype = DType::f32;
  const Result<std::string_view> t = pick_kernel(g);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value(), "sm90_wgmma_tf32_128x256x32_s3_pc2x1_tmastore");
}

TEST(Sm90PersistentClusterHost, RefusesWhatTheEpilogueOrTmaCannotDo) {
  const KernelEntry* k = find_kernel(kNames[0]);
  ASSERT_NE(k, nullptr);
  const GemmDesc ok = tn_problem(DType::bf16, {256, 256, 256}, 0, 1.0f);
  ASSERT_TRUE(k->supports(ok).ok()) << k->supports(ok).message();
  auto expect = [&](const GemmDesc& g, StatusCode code, const char* text) {
    const Status s = k->supports(g);
    EXPECT_EQ(s.code(), code) << s.message();
    EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
  };
  for (auto [la, lb] : {std::pair{Layout::column, Layout::column}, std::pair{Layout::row, Layout::row},
                        std::pair{Layout::column, Layout::row}}) {
    GemmDesc g = ok;
    g.a.layout = la;
    g.b.layout = lb;
    g.a.ld = g.b.ld = 0;
    expect(g, StatusCode::unsupported, "A row-major, B column-major");
  }
  GemmDesc col_d = ok;
  col_d.d.layout = Layout::column;
  expect(col_d, StatusCode::unsupported, "row-major");
  GemmDesc f32_d = ok;
  f32_d.d.dtype = DType::f32;
  f32_d.c.dtype = DType::f32;
  expect(f32_d, StatusCode::unsupported, "in the input type");
  // beta != 0: C is TMA-loaded into D's boxes, so it must be D's type, row-major, TMA-aligned.
  GemmDesc beta = ok;
  beta.beta = 0.5f;
  ASSERT_TRUE(k->supports(beta).ok()) << k->supports(beta).message();
  GemmDesc col_c = beta;
  col_c.c.layout = Layout::column;
  expect(col_c, StatusCode::unsupported, "reads C row-major in D's type");
  GemmDesc f32_c = beta;
  f32_c.c.dtype = DType::f32;
  expect(f32_c, StatusCode::unsupported, "reads C row-major in D's type");
  GemmDesc odd_ldc = beta;
  odd_ldc.c.ld = 260;
  expect(odd_ldc, StatusCode::misaligned, "C: ldc*2 bytes = 520 is not a multiple of 16");
  GemmDesc misaligned_c = beta;
  misaligned_c.c.pointer_alignment = 4;
  expect(misaligned_c, StatusCode::misaligned, "C: base pointer is only 4-byte aligned");
  GemmDesc odd_ldd = ok;
  odd_ldd.d.ld = 260;  // 520 bytes
  expect(odd_ldd, StatusCode::misaligned, "D: ldd*2 bytes = 520 is not a multiple of 16");
  GemmDesc misaligned_d = ok;
  misaligned_d.d.pointer_alignment = 8;
  expect(misaligned_d, StatusCode::misaligned, "D: base pointer is only 8-byte aligned");
  GemmDesc odd_lda = ok;
  odd_lda.k = 255;
  odd_lda.a.ld = 255;
  expect(odd_lda, StatusCode::misaligned, "A: lda*2 bytes = 510");
  GemmDesc f32_in = ok;
  f32_in.a.dtype = f32_in.b.dtype = DType::f32;
  EXPECT_EQ(k->supports(f32_in).code(), StatusCode::unsupported);
  EXPECT_EQ(find_kernel(kNames[2])->supports(ok).code(), StatusCode::unsupported) << "f16 kernel, bf16 problem";
}

TEST(Sm90PersistentClusterHost, Tf32RefusesWhatTheEpilogueOrTmaCannotDo) {
  for (const char* name : kTf32Names) {
    SCOPED_TRACE(name);
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr);
    const GemmDesc ok = tn_problem(DType::tf32, {256, 257, 255}, 0, 1.0f);  // lda = ldb = 256, ldd = 260
    ASSERT_TRUE(k->supports(ok).ok()) << k->supports(ok).message();
    auto expect = [&](const GemmDesc& g, StatusCode code, const char* text) {
      const Status s = k->supports(g);
      EXPECT_EQ(s.code(), code) << s.message();
      EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
    };
    for (auto [la, lb] : {std::pair{Layout::column, Layout::column}, std::pair{Layout::row, Layout::row}}) {
      GemmDesc g = ok;
      g.a.layout = la;
      g.b.layout = lb;
      g.a.ld = g.b.ld = 0;
      expect(g, StatusCode::unsupported, "A row-major, B column-major");
    }
    GemmDesc bf16_d = ok;
    bf16_d.d.dtype = bf16_d.c.dtype = DType::bf16;
    expect(bf16_d, StatusCode::unsupported, "f32 for tf32 inputs");
    GemmDesc col_d = ok;
    col_d.d.layout = Layout::column;
    col_d.d.ld = 0;
    expect(col_d, StatusCode::unsupported, "row-major");
    GemmDesc beta = ok;
    beta.beta = 0.5f;
    ASSERT_TRUE(k->supports(beta).ok()) << k->supports(beta).message();
    GemmDesc bf16_c = beta;
    bf16_c.c.dtype = DType::bf16;
    expect(bf16_c, StatusCode::unsupported, "reads C row-major in D's type (f32)");
    GemmDesc odd_ldd = ok;
    odd_ldd.d.ld = 258;  // 1032 bytes
    expect(odd_ldd, StatusCode::misaligned, "D: ldd*4 bytes = 1032 is not a multiple of 16");
    GemmDesc misaligned_d = ok;
    misaligned_d.d.pointer_alignment = 4;
    expect(misaligned_d, StatusCode::misaligned, "D: base pointer is only 4-byte aligned");
    GemmDesc odd_lda = ok;
    odd_lda.a.ld = 255;  // K = 255: 1020 bytes
    expect(odd_lda, StatusCode::misaligned, "A: lda*4 bytes = 1020");
    GemmDesc f32_in = ok;  // f32 storage not declared tf32: not this kernel's
    f32_in.a.dtype = f32_in.b.dtype = DType::f32;
    EXPECT_EQ(k->supports(f32_in).code(), StatusCode::unsupported);
    EXPECT_EQ(k->supports(tn_problem(DType::bf16, {256, 256, 256}, 0, 1.0f)).code(), StatusCode::unsupported)
        << "tf32 kernel, bf16 problem";
  }
  EXPECT_EQ(find_kernel(kNames[0])->supports(tn_problem(DType::tf32, {256, 256, 256}, 0, 1.0f)).code(),
            StatusCode::unsupported)
      << "bf16 kernel, tf32 problem";
}

}  // namespace
}  // namespace tcgemm
