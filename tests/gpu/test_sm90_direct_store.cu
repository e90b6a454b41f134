// The register-store epilogue of the warp-specialized wgmma kernel on every tile variant: a
// row-major 16-bit D (beta == 0) stored straight from the accumulators, edge tiles bounded, as
// 4-byte pairs where ldd is even and D 4-byte aligned, else as 2-byte halves. The cases cross
// edge tiles in M and N, ldd tight / odd / padded, and D's base 0 or 2 bytes past an allocation,
// against the device reference with D (and its ld padding, and the bytes in front) poisoned.
#include <string>
#include <iterator>
#include <tuple>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

const char* const kEntries[] = {"sm90_wgmma_bf16_128xN_ws_splitk",        "sm90_wgmma_bf16_128x128x64_s7_ws",
                                "sm90_wgmma_bf16_128x64x64_s9_ws",        "sm90_wgmma_f16_128x128x64_s7_ws",
                                "sm90_wgmma_bf16_128x256x64_s4_ws_ds",    "sm90_wgmma_bf16_128x256x64_s4_ws_repack",
                                "sm90_wgmma_bf16_16x64x64_s16_swapab"};
const Shape kShapes[] = {{1, 1, 8}, {7, 33, 64}, {87, 681, 48}, {130, 200, 72}, {256, 128, 128}, {33, 517, 40}};
const int kLdPad[] = {0, 1, 8};     // ldd = n + pad: tight, odd (pairs misaligned on odd rows), padded
const int kDOffset[] = {0, 2};      // bytes past the allocation: 2 breaks the 4-byte pair alignment

using Case = std::tuple<int, int, int, int>;  // entry, shape, ld pad, D offset
class Sm90DirectStore : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90DirectStore, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [ei, si, li, oi] = GetParam();
  const KernelEntry* k = find_kernel(kEntries[ei]);
  ASSERT_NE(k, nullptr) << kEntries[ei];
  const std::string name = kEntries[ei];
  const bool repack = name.find("_repack") != std::string::npos;
  const DType in = name.find("_f16_") != std::string::npos ? DType::f16 : DType::bf16;
  const Shape sh = kShapes[si];
  const int variant = ei + si + li + oi;
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  // The narrow tiles and swap A/B read B K-major only; A alternates.
  g.a = {in, variant % 2 ? Layout::column : Layout::row, 0};
  g.b = {in, Layout::column, 0};
  // Repack: A's ld breaks TMA's 16-byte rule, so the copies run first.
  const int64_t ta = tight_ld(extent_a(g), g.a.layout);
  g.a.ld = repack ? (ta % 8 == 0 ? ta + 1 : ta) : (ta + 7) / 8 * 8;
  g.b.ld = (tight_ld(extent_b(g), g.b.layout) + 7) / 8 * 8;
  g.d = {in, Layout::row, g.n + kLdPad[li]};
  g.c = {in, Layout::row, 0};
  g.alpha = variant % 2 ? 1.0f : 1.25f;
  g.beta = 0.0f;
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status supported = k->supports(g);
  if (supported.code() == StatusCode::unsupported) GTEST_SKIP() << "refused by design: " << supported.message();
  ASSERT_TRUE(supported.ok()) << supported.message();
  run_and_check(*k, g, 0, /*twice=*/false, static_cast<size_t>(kDOffset[oi]));
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [ei, si, li, oi] = info.param;
  const Shape s = kShapes[si];
  return std::string(kEntries[ei]).substr(std::string("sm90_wgmma_").size()) + "_" + std::to_string(s.m) + "x" +
         std::to_string(s.n) + "x" + std::to_string(s.k) + "_ldpad" + std::to_string(kLdPad[li]) + "_doff" +
         std::to_string(kDOffset[oi]);
}

INSTANTIATE_TEST_SUITE_P(Edges, Sm90DirectStore,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kEntries))),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes))),
                                            ::testing::Range(0, static_cast<int>(std::size(kLdPad))),
                                            ::testing::Range(0, static_cast<int>(std::size(kDOffset)))),
                         case_name);

}  // namespace
}  // namespace tcgemm
