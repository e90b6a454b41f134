// The fused repack path (sm90_wgmma_*_128xN_ws_repack_fused): operands that break TMA's 16-byte
// rule copied by the GEMM's own grid (each split's CTAs copy its K range, meet at a per-split
// counter, then load the copies by TMA; in_kernel_copy.hpp). Odd ld's, 2-byte-offset bases, only A
// or only B misaligned, every A/B layout (the MN-major ones, and forced plans of more than one
// round, take the copies kernel instead: the test checks which path ran), M/N/K tails, D and C
// dtypes and layouts, forced split counts; against the device reference with D and the workspace
// NaN-poisoned, run twice for bitwise determinism (the second run with the copies' area poisoned
// again, so a counter left raised would be seen), and the counters left at zero.
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/repack.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_wgmma_bf16_128xN_ws_repack_fused", "sm90_wgmma_f16_128xN_ws_repack_fused"};
const Shape kShapes[] = {{1, 1, 1},       {7, 33, 65},       {129, 65, 300}, {130, 200, 129},
                         {333, 777, 4099}, {1000, 1000, 1001}, {256, 64, 7},   {64, 1024, 4097}};
const int kCounts[] = {0, 1, 64};  // 0: the plan's choice; 64 is clipped to the k-blocks
constexpr int kLayouts = 4;           // A row/column x B row/column
// 0: odd ld's; 1: tight ld's, bases 2 bytes off; 2: only A misaligned; 3: only B misaligned
constexpr int kMisalign = 4;

using Case = std::tuple<int, int, int, int, int>;  // entry, shape, layouts, misalignment, split count
class Sm90RepackFused : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90RepackFused, MatchesDeviceReferenceAndIsDeterministic) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, li, mi, ci] = GetParam();
  if (small_only() && kShapes[si].k > 1000) GTEST_SKIP() << "TCGEMM_TEST_SMALL=1: small cases only";
  const KernelEntry* k = find_kernel(kEntries[ei]);
  ASSERT_NE(k, nullptr) << kEntries[ei];
  const DType in = ei == 0 ? DType::bf16 : DType::f16;
  const Shape sh = kShapes[si];
  const ForcedSplits forced(kCounts[ci]);
  const int variant = ei + si + li + mi + ci;
  GemmDesc g = ab_problem(in, sh, li % 2 ? Layout::column : Layout::row, li / 2 ? Layout::row : Layout::column);
  // Misaligned: tight + 1 where tight is even (never a multiple of 8), else tight; aligned: the
  // tight ld rounded up to 8.
  auto ld_of = [&](StoredExtent e, Layout l, bool misaligned) {
    const int64_t t = tight_ld(e, l);
    if (!misaligned) return (t + 7) / 8 * 8;
    return mi == 1 ? t : (t % 2 == 0 ? t + 1 : t);
  };
  g.a.ld = ld_of(extent_a(g), g.a.layout, mi != 3);
  g.b.ld = ld_of(extent_b(g), g.b.layout, mi != 2);
  const size_t offset = mi == 1 ? 2 : 0;
  g.a.pointer_alignment = g.b.pointer_alignment = mi == 1 ? 2 : 256;
  const GemmDesc copied = repacked_desc(g, plan_tma_repack(g));
  const bool k_major = g.a.layout == Layout::row && g.b.layout == Layout::column;
  const bool fused =
      k_major && plan_split_k(copied, in, current_sm_count(), WsLoads::in_copy).ctas <= current_sm_count();
  const int64_t before = sm90_in_copy_launches();
  check_misaligned_case(*k, g, variant, offset);
  if (HasFatalFailure() || IsSkipped()) return;
  EXPECT_EQ(sm90_in_copy_launches() - before, fused ? 2 : 0) << (fused ? "the grid's own copies should have run"
                                                                       : "the copies kernel should have run");
  Result<uint32_t*> counters = tile_counters(nullptr);
  ASSERT_TRUE(counters.ok()) << counters.status().message();
  std::vector<uint32_t> words(kTileCounterWords);
  ASSERT_EQ(cudaMemcpy(words.data(), counters.value(), words.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
            cudaSuccess);
  int64_t raised = 0;
  for (uint32_t w : words) raised += w != 0;
  EXPECT_EQ(raised, 0) << "counters left raised after the launch";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, li, mi, ci] = info.param;
  const Shape s = kShapes[si];
  static const char* const kMis[] = {"_oddld", "_base2", "_Aonly", "_Bonly"};
  return std::string(ei == 0 ? "bf16_" : "f16_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + "_" + (li % 2 ? "Acol" : "Arow") + (li / 2 ? "Brow" : "Bcol") + kMis[mi] + "_splits" +
         (kCounts[ci] == 0 ? std::string("auto") : std::to_string(kCounts[ci]));
}

// bf16 on every layout; f16 (the same code but for the MMA's type) K-major only.
INSTANTIATE_TEST_SUITE_P(Small, Sm90RepackFused,
                         ::testing::Combine(::testing::Values(0), ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, kLayouts), ::testing::Range(0, kMisalign),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);
INSTANTIATE_TEST_SUITE_P(SmallF16, Sm90RepackFused,
                         ::testing::Combine(::testing::Values(1), ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Values(0), ::testing::Range(0, kMisalign),
                                            ::testing::Range(0, static_cast<int>(std::size(kCounts)))),
                         case_name);

}  // namespace
}  // namespace tcgemm
