// Registry entries for small M (register_sm90.hpp): swap A/B onto the narrow ws tiles (D^T = B^T A^T,
// swap_ab.hpp), the one-consumer tiles unswapped, and the swap-steal tiles; each width's gate is a
// rule of analysis/path_rules.hpp, shared with explain's advice.
#include <string>

#include "analysis/path_rules.hpp"
#include "kernels/sm90/register_sm90.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "kernels/sm90/swap_steal.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

// Swap-A/B onto a narrow tile (swap_ab.hpp): each width takes the M range it fits, K split inside
// where the tiles leave SMs idle. tile_m/tile_n are in the problem's coordinates: M by N.
// kPreference: 4 (above split-K's 3: at M <= 64 the 128x256 tile multiplies mostly padding) for
// the variant gemm() runs (swap_ab_variant), 0 for the 128-row alternates of widths 16 and 32.
// The 128-wide tile (64 < M <= 128) gets 3, level with the planned split-K entries, which win the
// tie by tile size wherever their plan fits one round: at 128x8192x28672 split-K on 128x256 beat
// this tile in every same-process comparison (0.98-1.06x against 0.89-0.98x, runs 13, 14, 21);
// where the plan does not fit (large N) this tile still ranks above the cluster kernel, whose
// second CTA of each pair would have no rows.
template <int TileN, int Consumers>
Sm90WsVariant narrow() { return sm90_wgmma_ws_narrow_variant(TileN, Consumers); }

template <DType In, int TileN, int Consumers, int kPreference>
KernelEntry swap_entry(std::string_view name) {
  constexpr auto v = &narrow<TileN, Consumers>;
  const Sm90WsShape s = sm90_wgmma_ws_shape(In, v());
  KernelEntry e = wgmma_entry(name, In, {s.tile_n, s.tile_m, s.tile_k, s.stages, s.threads, s.smem_bytes});
  e.preference = kPreference;
  e.supports = [](const GemmDesc& g) { return sm90_swap_ab_supports(g, In, v()); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_swap_ab_workspace(g, v()); };
  e.split_k = [](const GemmDesc& g) { return sm90_swap_ab_splits(g, v()); };
  e.launch = [](const GemmArgs& a) { return sm90_swap_ab_launch(a, In, v()); };
  e.describe = [](const GemmDesc& g) { return sm90_swap_ab_describe(g, v()); };
  e.function = [] { return sm90_wgmma_ws_function(In, false, v()); };
  return e;
}

// The one-consumer narrow tiles unswapped (swap_ab.hpp sm90_narrow_*): 64 rows of M by TileN of N,
// the swap entry's plan. By name (preference 0) unless a rule gates it.
template <DType In, int TileN>
KernelEntry narrow_entry(std::string_view name) {
  constexpr auto v = &narrow<TileN, 1>;
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_shape(In, v()));
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_narrow_supports(g, In, v()); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_narrow_workspace(g, v()); };
  e.split_k = [](const GemmDesc& g) { return sm90_narrow_splits(g, v()); };
  e.launch = [](const GemmArgs& a) { return sm90_narrow_launch(a, In, v()); };
  e.function = [] { return sm90_wgmma_ws_function(In, false, v()); };
  return e;
}

// The unswapped 64x64 tile that gemm() runs for 32 < M <= 64 (tiles64x64_fit_one_round; preference
// 6, above the swapped 64x64 tile's 5, which keeps the layouts this one refuses). Run 199: 7-17%
// ahead of the swapped tile on all 10 midm_split shapes.
constexpr char kNarrow64Why[] =
    "the unswapped 64x64 tile takes M of 33..64 where ceil(N/64) tiles fit one round (the swap tiles serve the "
    "rest)";
template <DType In>
KernelEntry gated_narrow64_entry(std::string_view name) {
  KernelEntry e = narrow_entry<In, 64>(name);
  e.preference = 6;
  e.supports = [](const GemmDesc& g) {
    if (!tiles64x64_fit_one_round(g.m, g.n, current_sm_count())) return Status::unsupported(kNarrow64Why);
    if (g.a.layout == Layout::column && g.k < kNarrow64MnMajorAMinK)
      return Status::unsupported("with a column-major A the unswapped 64x64 tile takes K >= " +
                                 std::to_string(kNarrow64MnMajorAMinK) + " (path_rules.hpp: measured slower below)");
    return sm90_narrow_supports(g, In, narrow<64, 1>());
  };
  return e;
}

// Swap A/B with a shared tail (swap_steal.hpp): the decode widths where ceil(N/64) tiles nearly
// fill the SMs. By name only (preference 0): it balanced the SMs' finish times but measured 3-5%
// slower than the plain swap tile at 16x8192x8192 (39.7 against 38.4 us, session 11, call 10).
template <DType In, int TileN>
KernelEntry swap_steal_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, {TileN, 64, 64, sm90_swap_steal_stages(TileN), 384, 0});
  e.preference = 0;
  e.supports = [](const GemmDesc& g) {
    if (Status s = sm90_swap_steal_supports(g, In); !s.ok()) return s;
    if ((g.m <= 16) != (TileN == 16))
      return Status::unsupported("M = " + std::to_string(g.m) + " takes the " + (g.m <= 16 ? "16" : "32") +
                                 "-wide swap-steal tile");
    return Status::success();
  };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_swap_steal_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_swap_steal_launch(a, In); };
  e.function = [] { return sm90_swap_steal_function(In, TileN); };
  return e;
}

// A swap tile that gemm() runs (preference 5, above the 64x128 tile's 4) where its rule (path_rules.hpp,
// shared with explain's advice) holds for M and N; `why` says what it takes when the rule refuses.
template <DType In, int TileN, int Consumers, bool (*kRule)(int64_t, int64_t, int64_t), const char* kWhy>
KernelEntry gated_swap_entry(std::string_view name) {
  KernelEntry e = swap_entry<In, TileN, Consumers, 5>(name);
  e.supports = [](const GemmDesc& g) {
    if (!kRule(g.m, g.n, current_sm_count())) return Status::unsupported(kWhy);
    return sm90_swap_ab_supports(g, In, narrow<TileN, Consumers>());
  };
  return e;
}

// The 128-row swap tiles of widths 16 and 32 (swap_narrow_takes_128_rows: 64 rows would need a second
// round of CTAs, 128 fit one); the by-name alternates (preference 0) run anywhere their width fits.
constexpr char kOneRoundWhy[] =
    "the 128-row swap tile of widths 16 and 32 takes N where 64-row tiles need a second round and 128-row ones fit "
    "one (the 64-row tile serves the rest)";

// Width 64 on 64 rows of N, one consumer (as the 16/32-wide tiles; tiles64x64_fit_one_round: its tiles
// fit one round): twice the 64x128 tile's tiles, so half the splits, summed in clusters.
constexpr char kRows64Why[] =
    "the 64-row swap tile of width 64 takes M of 33..64 where ceil(N/64) tiles fit one round (the 64x128 and "
    "64x256 tiles serve the rest)";

// The four-consumer 64x256 swap tile (swap_wide_tile_fills: its CTAs fill >= 80% of the SMs); by name
// it runs anywhere its width fits.
constexpr char kWideWhy[] =
    "the wide 64-column swap tile takes M of 33..64 with ceil(N/256) CTAs filling >= 80% of the SMs (the 64x128 "
    "tile serves the rest)";

}  // namespace

void add_sm90_swap_kernels(std::vector<KernelEntry>& table) {
  // Small M: swap A/B onto a 16/32/64/128-wide tile (stages fill shared memory).
  table.push_back(swap_entry<DType::bf16, 16, 1, 4>("sm90_wgmma_bf16_16x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::bf16, 32, 1, 4>("sm90_wgmma_bf16_32x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::bf16, 64, 2, 4>("sm90_wgmma_bf16_64x128x64_s9_swapab"));
  table.push_back(swap_entry<DType::bf16, 128, 2, 3>("sm90_wgmma_bf16_128x128x64_s7_swapab"));
  table.push_back(swap_entry<DType::bf16, 16, 2, 0>("sm90_wgmma_bf16_16x128x64_s12_swapab"));
  table.push_back(swap_entry<DType::bf16, 32, 2, 0>("sm90_wgmma_bf16_32x128x64_s11_swapab"));
  table.push_back(swap_entry<DType::f16, 16, 1, 4>("sm90_wgmma_f16_16x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::f16, 32, 1, 4>("sm90_wgmma_f16_32x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::f16, 64, 2, 4>("sm90_wgmma_f16_64x128x64_s9_swapab"));
  table.push_back(swap_entry<DType::f16, 128, 2, 3>("sm90_wgmma_f16_128x128x64_s7_swapab"));
  table.push_back(gated_swap_entry<DType::bf16, 64, 1, tiles64x64_fit_one_round, kRows64Why>(
      "sm90_wgmma_bf16_64x64x64_s14_swapab"));
  table.push_back(gated_swap_entry<DType::f16, 64, 1, tiles64x64_fit_one_round, kRows64Why>(
      "sm90_wgmma_f16_64x64x64_s14_swapab"));
  table.push_back(narrow_entry<DType::bf16, 16>("sm90_wgmma_bf16_64x16x64_s16_narrow"));
  table.push_back(narrow_entry<DType::bf16, 32>("sm90_wgmma_bf16_64x32x64_s16_narrow"));
  table.push_back(narrow_entry<DType::bf16, 64>("sm90_wgmma_bf16_64x64x64_s14_narrow"));
  table.push_back(narrow_entry<DType::f16, 64>("sm90_wgmma_f16_64x64x64_s14_narrow"));
  table.push_back(gated_narrow64_entry<DType::bf16>("sm90_wgmma_bf16_64x64x64_s14_narrow_midm"));
  table.push_back(gated_narrow64_entry<DType::f16>("sm90_wgmma_f16_64x64x64_s14_narrow_midm"));
  table.push_back(swap_entry<DType::bf16, 64, 4, 0>("sm90_wgmma_bf16_64x256x64_s5_swapab"));
  table.push_back(swap_entry<DType::f16, 64, 4, 0>("sm90_wgmma_f16_64x256x64_s5_swapab"));
  table.push_back(swap_steal_entry<DType::bf16, 16>("sm90_wgmma_bf16_16x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::bf16, 32>("sm90_wgmma_bf16_32x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::f16, 16>("sm90_wgmma_f16_16x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::f16, 32>("sm90_wgmma_f16_32x64x64_s16_swapab_steal"));
  table.push_back(gated_swap_entry<DType::bf16, 16, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_bf16_16x128x64_s12_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::bf16, 32, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_bf16_32x128x64_s11_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::f16, 16, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_f16_16x128x64_s12_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::f16, 32, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_f16_32x128x64_s11_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::bf16, 64, 4, swap_wide_tile_fills, kWideWhy>(
      "sm90_wgmma_bf16_64x256x64_s5_swapab_wide"));
  table.push_back(gated_swap_entry<DType::f16, 64, 4, swap_wide_tile_fills, kWideWhy>(
      "sm90_wgmma_f16_64x256x64_s5_swapab_wide"));
}

}  // namespace tcgemm
