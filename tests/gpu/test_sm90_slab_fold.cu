// Split-K with the reduce folded into the split pass (slab_fold.cuh) against the same split pass
// followed by the separate reduce kernel: the same slabs summed in the same order, so D must match
// bit for bit, on every tile variant, every split count 2..64 that fits one round, edge tiles,
// D f32/f16/bf16 with ld padding, beta 0 and not; D and the slabs NaN-poisoned, a second folded run
// bitwise equal (determinism), the meeting counters left at zero, and a few split counts checked
// against the device reference as well.
#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gemm_test_util.cuh"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm {
namespace {

std::vector<unsigned char> download_bytes(const void* p, size_t bytes) {
  std::vector<unsigned char> h(bytes);
  if (cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) h.clear();
  return h;
}

Sm90WsVariant variant_of(int i) {
  switch (i) {
    case 0: return Sm90WsVariant{};                       // 128x256 s4
    case 1: return sm90_wgmma_ws_narrow_variant(128);     // 128x128 s7
    case 2: return sm90_wgmma_ws_narrow_variant(64);      // 128x64 s9
    default: return sm90_wgmma_ws_narrow_variant(64, 1);  // 64x64 s14, one consumer
  }
}

const Shape kShapes[] = {{256, 256, 8192}, {130, 258, 3000}, {1, 1, 4097}, {7, 33, 999}, {129, 257, 2049}, {64, 522, 4160}};
const DType kOut[] = {DType::bf16, DType::f32, DType::f16};

// One problem on variant v, run for every split count `counts` names: folded (twice) and unfolded.
// reference_all: compare with the device reference at every count, else at the first, splits 2 and 7
// and the largest asked.
void check_fold(Sm90WsVariant v, Shape sh, int variant, const std::vector<int>& counts, bool reference_all) {
  GemmDesc g = tn_problem(DType::bf16, sh);
  g.d = {kOut[variant % 3], Layout::row, sh.n + (variant % 2 ? 3 : 0)};
  g.c = {kOut[(variant + 1) % 3], variant % 4 < 2 ? Layout::row : Layout::column, 0};
  g.c.ld = tight_ld(extent_c(g), g.c.layout);
  g.alpha = 0.75f;
  g.beta = variant % 3 == 2 ? 0.0f : 0.5f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  ASSERT_TRUE(sm90_wgmma_ws_supports(g, DType::bf16, v).ok());
  const Sm90WsShape s = sm90_wgmma_ws_shape(DType::bf16, v);
  const int64_t k_blocks = (sh.k + s.tile_k - 1) / s.tile_k;
  const int sms = current_sm_count();

  const size_t na = stored_elements(extent_a(g), g.a.layout, g.a.ld);
  const size_t nb = stored_elements(extent_b(g), g.b.layout, g.b.ld);
  const size_t nc = stored_elements(extent_c(g), g.c.layout, g.c.ld);
  const size_t d_bytes = stored_elements(extent_c(g), g.d.layout, g.d.ld) * dtype_bytes(g.d.dtype);
  const size_t ws_bytes = split_slabs_bytes(g.m, g.n, true, 64);
  DeviceBuffer A(na * 2), B(nb * 2), Cb(nc * dtype_bytes(g.c.dtype)), Dfold(d_bytes), Dref(d_bytes), W(ws_bytes);
  ASSERT_TRUE(A.p && B.p && Cb.p && Dfold.p && Dref.p && W.p);
  fill(A.p, na, DType::bf16);
  fill(B.p, nb, DType::bf16);
  fill(Cb.p, nc, g.c.dtype);
  Result<uint32_t*> counters = tile_counters(nullptr);
  ASSERT_TRUE(counters.ok()) << counters.status().message();
  uint32_t* fold = counters.value() + (kTileCounterWords - kFoldCounterWords);

  GemmArgs args{.desc = g, .a = A.p, .b = B.p, .c = Cb.p, .d = Dfold.p, .workspace = W.p, .workspace_bytes = ws_bytes};
  GemmArgs ref_args = args;
  ref_args.d = Dref.p;
  int last = 0, referenced = 0;
  for (const int asked : counts) {
    const int per_split = static_cast<int>((k_blocks + asked - 1) / asked);
    const int splits = static_cast<int>((k_blocks + per_split - 1) / per_split);
    if (splits == last || splits < 2 || !sm90_wgmma_ws_can_fold(g, v, splits, sms)) continue;
    last = splits;
    SCOPED_TRACE(to_string(v) + " " + shape_name(sh) + " splits " + std::to_string(splits));
    CUDA_OK(cudaMemset(Dref.p, 0xFF, d_bytes));
    CUDA_OK(cudaMemset(W.p, 0xFF, ws_bytes));
    Status st = sm90_wgmma_ws_launch_partials(ref_args, DType::bf16, per_split, splits, static_cast<float*>(W.p), v);
    ASSERT_TRUE(st.ok()) << st.message();
    const Status reduced = splitk_reduce(split_k_reduce_args(ref_args, static_cast<float*>(W.p), splits, true), nullptr);
    ASSERT_TRUE(reduced.ok()) << reduced.message();
    std::vector<unsigned char> first;
    for (int run = 0; run < 2; ++run) {
      CUDA_OK(cudaMemset(Dfold.p, 0xFF, d_bytes));
      CUDA_OK(cudaMemset(W.p, 0xFF, ws_bytes));
      const Status folded = sm90_wgmma_ws_launch_partials(args, DType::bf16, per_split, splits,
                                                          static_cast<float*>(W.p), v, nullptr, {}, fold);
      ASSERT_TRUE(folded.ok()) << folded.message();
      CUDA_OK(cudaDeviceSynchronize());
      std::vector<unsigned char> got = download_bytes(Dfold.p, d_bytes);
      ASSERT_EQ(got.size(), d_bytes);
      if (run == 0) {
        const std::vector<unsigned char> want = download_bytes(Dref.p, d_bytes);
        ASSERT_EQ(want.size(), d_bytes);
        int64_t differ = 0;
        for (size_t i = 0; i < d_bytes; ++i) differ += got[i] != want[i];
        EXPECT_EQ(differ, 0) << "folded D differs from the unfolded reduce's in " << differ << " bytes";
        first = std::move(got);
      } else {
        EXPECT_TRUE(got == first) << "the folded D differs between two runs";
      }
    }
    expect_padding_untouched(g, Dfold.p);
    const std::vector<unsigned char> words = download_bytes(fold, kFoldCounterWords * sizeof(uint32_t));
    ASSERT_EQ(words.size(), kFoldCounterWords * sizeof(uint32_t));
    EXPECT_EQ(std::count(words.begin(), words.end(), 0), static_cast<std::ptrdiff_t>(words.size()))
        << "a meeting counter was left non-zero";
    if (reference_all || splits == 2 || splits == 7 || asked == counts.back() || referenced == 0) {
      ++referenced;
      const test::Comparison c = test::compare_with_reference(g, A.p, B.p, Cb.p, Dfold.p, test::tolerance_for(g));
      EXPECT_TRUE(c.ok) << c.message;
    }
  }
  EXPECT_GT(referenced, 0) << "no split count could fold on " << to_string(v) << " " << shape_name(sh);
}

using Case = std::tuple<int, int>;  // variant, shape
class Sm90SlabFold : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90SlabFold, BitwiseEqualToTheSeparateReduceForEverySplitCount) {
  TCGEMM_REQUIRE_GPU(90);
  if (small_only()) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: Sm90SlabFoldSmall covers the sanitizer runs";
  const auto [vi, si] = GetParam();
  std::vector<int> counts;
  for (int s = 2; s <= 64; ++s) counts.push_back(s);
  check_fold(variant_of(vi), kShapes[si], vi + si, counts, false);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [vi, si] = info.param;
  const Sm90WsShape s = sm90_wgmma_ws_shape(DType::bf16, variant_of(vi));
  return "tile" + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n) + "_" + shape_name(kShapes[si]);
}

INSTANTIATE_TEST_SUITE_P(Variants, Sm90SlabFold,
                         ::testing::Combine(::testing::Range(0, 4), ::testing::Range(0, static_cast<int>(std::size(kShapes)))),
                         case_name);

// For compute-sanitizer (TCGEMM_TEST_SMALL=1 runs *Small*): one edge-tile shape a variant, three
// split counts (several positions a thread, one batch, two batches of the 32-load loop).
TEST(Sm90SlabFoldSmall, EveryVariant) {
  TCGEMM_REQUIRE_GPU(90);
  for (int vi = 0; vi < 4; ++vi) check_fold(variant_of(vi), {65, 70, 2200}, vi, {3, 11, 34}, true);
}

// The planned entry at a shape its plan could fold (the fold is off in gemm() unless
// TCGEMM_DIAG_FOLD=1: runs 229-230): correct and deterministic either way.
TEST(Sm90SlabFoldPlanned, PlannedEntryAtAFoldableShape) {
  TCGEMM_REQUIRE_GPU(90);
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128xN_ws_splitk");
  ASSERT_NE(k, nullptr);
  GemmDesc g = tn_problem(DType::bf16, {256, 256, 16384});
  const SplitKPlan p = plan_split_k(g, DType::bf16, current_sm_count());
  ASSERT_GE(p.splits, 2);
  EXPECT_TRUE(sm90_wgmma_ws_can_fold(g, p.variant, p.splits, current_sm_count())) << to_string(p.variant) << " x" << p.splits;
  run_and_check(*k, g, 0, /*twice=*/true);
}

}  // namespace
}  // namespace tcgemm
