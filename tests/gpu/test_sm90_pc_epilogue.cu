// The persistent cluster kernel's epilogue options (src/kernels/sm90/wgmma_ws_persistent_cluster.cu):
// beta != 0 (each C chunk TMA-loaded into the epilogue's swizzled D boxes, D = alpha*AB + beta*C
// written over it) and the _f32d instances (an f32 D and C from bf16/f16 inputs). Against the
// device reference: bf16, f16 and tf32, 3 and 4 stages, both tiles, f32 D, fresh random A, B and
// C; C in its own buffer (padded ldc, D poisoned with NaN and its padding checked) or D itself (in
// place, the common residual update); beta 0 on some shapes; M/N/K tails (N % 8 != 0: the columns
// past the last 16-byte chunk; ghost CTAs), one cluster walking every tile (the C barrier's phase
// across chunks and tiles). The registry's stream-K, repack and f32-D entries, run twice for
// bitwise determinism. Host: gemm() takes the cluster kernel with beta != 0 and with an f32 D.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

struct Instance {
  DType input;
  int stages;
  PcTile tile;
  const char* name;
  bool f32_d = false;  // the _f32d instances
};
const Instance kInstances[] = {
    {DType::bf16, 3, PcTile::m128n256, "bf16_128x256_s3"}, {DType::bf16, 4, PcTile::m128n256, "bf16_128x256_s4"},
    {DType::f16, 3, PcTile::m128n256, "f16_128x256_s3"},   {DType::tf32, 3, PcTile::m128n256, "tf32_128x256_s3"},
    {DType::tf32, 4, PcTile::m128n256, "tf32_128x256_s4"}, {DType::bf16, 3, PcTile::m192n192, "bf16_192x192_s3"},
    {DType::bf16, 4, PcTile::m192n192, "bf16_192x192_s4"}, {DType::f16, 4, PcTile::m192n192, "f16_192x192_s4"},
    {DType::bf16, 3, PcTile::m128n256, "bf16_128x256_s3_f32d", true},
    {DType::f16, 3, PcTile::m128n256, "f16_128x256_s3_f32d", true},
    // The grid-fitting widths: 144 and 176 end in a partial 64-column store box (the threads store
    // it); 192 is whole boxes.
    {DType::bf16, 4, PcTile::m128n144, "bf16_128x144_s4"},  {DType::bf16, 4, PcTile::m128n176, "bf16_128x176_s4"},
    {DType::bf16, 4, PcTile::m128n192, "bf16_128x192_s4"},  {DType::f16, 4, PcTile::m128n144, "f16_128x144_s4"},
    {DType::f16, 4, PcTile::m128n176, "f16_128x176_s4"},    {DType::f16, 4, PcTile::m128n192, "f16_128x192_s4"},
    // The 192-row fitting widths: three consumers, each one's whole row in its buffer, the last 32
    // (160) or 48 (176) columns a partial box.
    {DType::bf16, 3, PcTile::m192n160, "bf16_192x160_s3"},  {DType::f16, 3, PcTile::m192n160, "f16_192x160_s3"},
    {DType::bf16, 3, PcTile::m192n176, "bf16_192x176_s3"},  {DType::f16, 3, PcTile::m192n176, "f16_192x176_s3"}};

// N % 8 == 0 with beta != 0 (385x200, 640x512, 520x768): no columns past the last 16-byte chunk.
const Shape kShapes[] = {{1, 1, 1},    {7, 7, 7},       {33, 33, 33},       {129, 129, 129}, {257, 300, 96},
                         {385, 200, 130}, {1000, 1000, 1001}, {640, 512, 320}, {520, 768, 200}};

// Runs the kernel with beta on a grid of max_clusters (0: all that fit). in_place: C is D (D holds
// C's values before the launch); else C has its own buffer with ldc = ldd + c_pad.
void run_beta(const Instance& in, int max_clusters, Shape s, float alpha, float beta, bool in_place, int64_t c_pad) {
  GemmDesc g = tn_problem(in.input, s, 0, alpha);
  if (in.f32_d) g.d.dtype = DType::f32;  // ld: N rounded up to 8, a 16-byte multiple either way
  g.beta = beta;
  g.c = g.d;
  if (!in_place) g.c.ld = g.d.ld + c_pad;
  const Status sup = sm90_wgmma_ws_pc_supports(g, in.input, PcDStore::tma, in.f32_d);
  ASSERT_TRUE(sup.ok()) << sup.message();

  const size_t eb = dtype_bytes(in.input), db = dtype_bytes(g.d.dtype);
  const size_t na = stored_elements(extent_a(g), g.a.layout, g.a.ld);
  const size_t nb = stored_elements(extent_b(g), g.b.layout, g.b.ld);
  const size_t nc = stored_elements(extent_c(g), g.c.layout, g.c.ld);
  const size_t nd = stored_elements(extent_c(g), g.d.layout, g.d.ld);
  DeviceBuffer A(na * eb), B(nb * eb), Cb(nc * db), D(nd * db), ref(g.m * g.n * sizeof(float)),
      got(g.m * g.n * sizeof(float));
  ASSERT_TRUE(A.p && B.p && Cb.p && D.p && ref.p && got.p);
  fill(A.p, na, in.input);
  fill(B.p, nb, in.input);
  fill(Cb.p, nc, g.c.dtype);
  if (in_place) {
    CUDA_OK(cudaMemcpy(D.p, Cb.p, nd * db, cudaMemcpyDeviceToDevice));  // same ld: C is D's old values
  } else {
    CUDA_OK(cudaMemset(D.p, 0xFF, nd * db));  // NaN in f32, f16 and bf16
  }

  GemmArgs args;
  args.desc = g;
  args.a = A.p;
  args.b = B.p;
  args.c = in_place ? D.p : Cb.p;
  args.d = D.p;
  const Status run = sm90_wgmma_ws_pc_launch(args, in.input, in.stages, max_clusters, PcDStore::tma, in.tile);
  ASSERT_TRUE(run.ok()) << run.message();
  CUDA_OK(cudaDeviceSynchronize());
  if (!in_place) expect_padding_untouched(g, D.p);

  ASSERT_TRUE(reference_gemm_device(g, A.p, B.p, Cb.p, static_cast<float*>(ref.p), false).ok());
  ASSERT_TRUE(convert_to_float_device(g, D.p, static_cast<float*>(got.p)).ok());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<float> r(g.m * g.n), d(g.m * g.n);
  CUDA_OK(cudaMemcpy(r.data(), ref.p, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(d.data(), got.p, d.size() * sizeof(float), cudaMemcpyDeviceToHost));
  // test_sm90_persistent_cluster.cu's tolerances (tf32: wgmma truncates what the reference rounds).
  const bool tf32 = in.input == DType::tf32;
  const double eps = in.input == DType::bf16 ? 1e-2 : tf32 ? 2e-3 : 5e-3;
  const double floor = (tf32 ? 1e-3 : 0.1 * eps) * std::sqrt(static_cast<double>(g.k)) * std::fabs(g.alpha);
  expect_close(d, r, g.n, eps, floor);
}

// instance, shape, grid (0: every cluster that fits; 1: one cluster walks every tile)
using Case = std::tuple<int, int, int>;
class Sm90PcBeta : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90PcBeta, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [instance, si, clusters] = GetParam();
  if (small_only() && kShapes[si].m > 400) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  // Odd shapes run in place with beta 1; even ones with a separate, padded C, beta -0.5, alpha
  // 1.25, except 33^3 and 1000x1000x1001 at beta 0 (C never read).
  const bool in_place = si % 2 == 1;
  const float beta = in_place ? 1.0f : si == 2 || si == 6 ? 0.0f : -0.5f;
  run_beta(kInstances[instance], clusters, kShapes[si], in_place ? 1.0f : 1.25f, beta, in_place, si % 4 == 0 ? 8 : 24);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [instance, si, clusters] = info.param;
  return std::string(kInstances[instance].name) + "_" + shape_name(kShapes[si]) +
         (clusters == 0 ? "_full" : "_clusters" + std::to_string(clusters));
}

INSTANTIATE_TEST_SUITE_P(Instances, Sm90PcBeta,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kInstances))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Values(0, 1)),
                         case_name);

// --- the registry entries gemm() picks, with beta: stream-K (shared tiles: owners add partials
// before the C-reading epilogue) and the repack path (A/B copied, C and D read and written in
// place), each run twice and compared bit for bit ---------------------------------------------------
struct EntryCase {
  const char* entry;
  Shape shape;
  bool f32_d = false;
};
// The stream-K shapes share a last round after a full one (the entry's rule at 66 clusters, 64
// k-blocks at least): 67 pair-tiles (one shared in 8 pieces) and 70 (four shared; three tile rows,
// so ghost CTAs).
const EntryCase kEntryCases[] = {
    {"sm90_wgmma_bf16_128x256x64_s3_pc2x1_streamk", {256, 17152, 4096}},
    {"sm90_wgmma_f16_128x256x64_s3_pc2x1_streamk", {384, 8960, 4096}},
    {"sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack", {1000, 1024, 1001}},
    {"sm90_wgmma_f16_128x256x64_s3_pc2x1_repack", {333, 776, 4099}},
    {"sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore", {577, 392, 96}},
    {"sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore_f32d", {1000, 1000, 1001}, true},
    {"sm90_wgmma_f16_128x256x64_s3_pc2x1_tmastore_f32d", {2048, 1536, 512}, true},
    // gemm()'s grid-fitting entry: widths 144 (64 pair-tiles), 192 (66) and 176 (63).
    {"sm90_wgmma_bf16_128xNfit_s4_pc2x1_tmastore", {256, 9216, 512}},
    {"sm90_wgmma_bf16_128xNfit_s4_pc2x1_tmastore", {768, 4096, 256}},
    {"sm90_wgmma_bf16_128xNfit_s4_pc2x1_tmastore", {192, 11008, 200}},
    {"sm90_wgmma_f16_128xNfit_s4_pc2x1_tmastore", {440, 10768, 320}}};

class Sm90PcBetaEntries : public ::testing::TestWithParam<int> {};

TEST_P(Sm90PcBetaEntries, MatchesDeviceReferenceTwice) {
  TCGEMM_REQUIRE_GPU(90);
  if (small_only() && kEntryCases[GetParam()].shape.m * kEntryCases[GetParam()].shape.n > 600000)
    GTEST_SKIP() << "TCGEMM_TEST_SMALL=1";
  const EntryCase& c = kEntryCases[GetParam()];
  const KernelEntry* k = find_kernel(c.entry);
  ASSERT_NE(k, nullptr) << c.entry;
  const DType input = k->input;
  GemmDesc g = tn_problem(input, c.shape, 0, 0.75f);
  if (c.f32_d) g.d.dtype = DType::f32;
  else if (c.shape.k % 8 != 0) g.a.ld = g.b.ld = c.shape.k;  // the repack cases: A and B break TMA's rule
  g.beta = 1.5f;
  g.c = g.d;
  g.c.ld = g.d.ld + 16;
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();
  run_and_check(*k, g, 0, true);
}

INSTANTIATE_TEST_SUITE_P(Entries, Sm90PcBetaEntries,
                         ::testing::Range(0, static_cast<int>(std::size(kEntryCases))),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string n = kEntryCases[info.param].entry;
                           return n.substr(std::string("sm90_wgmma_").size()) + "_" +
                                  shape_name(kEntryCases[info.param].shape);
                         });

// --- host: gemm()'s pick with beta != 0 ----------------------------------------------------------
TEST(Sm90PcBetaHost, GemmTakesTheClusterKernelWithBeta) {
  GemmDesc g = tn_problem(DType::bf16, {4096, 4096, 4096});
  const Result<std::string_view> plain = pick_kernel(g);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  g.beta = 1.0f;
  const Result<std::string_view> with_c = pick_kernel(g);
  ASSERT_TRUE(with_c.ok()) << with_c.status().message();
  EXPECT_EQ(with_c.value(), plain.value()) << "beta != 0 with a row-major C of D's type: the same kernel";
  g.c.layout = Layout::column;  // not what the TMA-loaded C boxes take
  const Result<std::string_view> col_c = pick_kernel(g);
  ASSERT_TRUE(col_c.ok()) << col_c.status().message();
  EXPECT_EQ(col_c.value().find("pc2x1"), std::string_view::npos) << col_c.value();
}

TEST(Sm90PcBetaHost, GemmTakesTheF32DInstanceForAnF32D) {
  for (DType in : {DType::bf16, DType::f16}) {
    GemmDesc g = tn_problem(in, {4096, 4096, 4096});
    g.d.dtype = DType::f32;
    g.c = g.d;
    const std::string want = std::string("sm90_wgmma_") + std::string(to_string(in)) + "_128x256x64_s3_pc2x1_tmastore_f32d";
    EXPECT_EQ(pick_kernel(g).value(), want);
    g.beta = 1.0f;  // an f32 C, TMA-loaded as D's boxes
    EXPECT_EQ(pick_kernel(g).value(), want);
    const KernelEntry* k = find_kernel(want);
    ASSERT_NE(k, nullptr);
    EXPECT_NE(k->function(), nullptr);
    GemmDesc bf16_c = g;  // C must be D's type
    bf16_c.c.dtype = in;
    EXPECT_EQ(k->supports(bf16_c).code(), StatusCode::unsupported);
    GemmDesc same_type = tn_problem(in, {4096, 4096, 4096});  // a 16-bit D is the other entry's
    EXPECT_EQ(k->supports(same_type).code(), StatusCode::unsupported);
    EXPECT_NE(k->supports(same_type).message().find("f32 (this instance)"), std::string::npos);
    // The other cluster entries (stream-K, 4 stages, 192x192, ping-pong) refuse an f32 D.
    for (const char* other : {"_128x256x64_s3_pc2x1_streamk", "_128x256x64_s4_pc2x1_tmastore",
                              "_64x256x64_s4_pingpong"}) {
      const KernelEntry* o = find_kernel(std::string("sm90_wgmma_") + std::string(to_string(in)) + other);
      ASSERT_NE(o, nullptr) << other;
      EXPECT_FALSE(o->supports(g).ok()) << other;
    }
  }
}

}  // namespace
}  // namespace tcgemm
