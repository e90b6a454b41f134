// Advice: every cure the seeds name, priced under the same time model as the current plan.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "analysis/family_peak.hpp"
#include "analysis/path_rules.hpp"
#include "analysis/split_model.hpp"
#include "tcgemm/analysis.hpp"

namespace tcgemm {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

int ctas_for(const DeviceProfile& d, const TileConfig& t, DType in) {
  KernelResources k{t.threads, t.regs_per_thread, 0, estimated_smem_bytes(t, in)};
  if (k.dynamic_smem > d.smem_per_block_optin) return 0;
  Result<Occupancy> o = compute_occupancy(d, k);
  return o.ok() ? o->ctas_per_sm : 0;
}

void add(std::vector<Advice>& out, double base_us, double alt_us, std::string action, std::string reason) {
  if (alt_us <= 0) return;
  out.push_back({std::move(action), base_us / alt_us, std::move(reason)});
}

// A misaligned problem's plan already includes the repack (its copies are in the predicted time);
// it is listed as advice with its gain over the best family that runs without copies, because it
// is the cure that matters most for such a shape and a reader should see it priced.
void advise_repack(const ShapeReport& r, std::vector<Advice>& out) {
  if (r.predicted.copy_us <= 0) return;
  const GemmDesc& g = r.desc;
  double without = 0;
  std::string family;
  for (const FamilyCheck& f : r.alignment.families) {
    if (!f.available || !f.eligible || f.family == MmaFamily::wgmma) continue;
    const TileConfig t = default_tile_config(f.family, g.a.dtype);
    const int b = std::max(1, ctas_for(r.device, t, g.a.dtype));
    const double us = predict_time(g, r.device, t, b, family_peak_tflops(r.device, f.family, g.a.dtype)).total_us;
    if (us > 0 && (without == 0 || us < without)) {
      without = us;
      family = std::string(to_string(f.family));
    }
  }
  if (without <= 0) return;
  add(out, without, r.predicted.total_us, "repack A/B into an aligned workspace (in this plan)",
      "A or B breaks TMA's 16-byte rule; copying it (" + fmt("%.1f us", r.predicted.copy_us) +
          ") lets the wgmma kernels run it, against " + fmt("%.1f us", without) + " on " + family + " without copies");
}

// gemm()'s TMA split-pass candidates as split_k.cu plans them (bf16/f16): 128x256, 128x128 and
// 128x64, and last the 128x64 tile unsplit in 1x2 multicast pairs sharing A.
std::array<SplitPassTile, 4> tma_split_tiles() {
  std::array<SplitPassTile, 4> t = {{{128, 256, 64, split_tile_efficiency(256), 0.0, false, 0.0},
                                     {128, 128, 64, split_tile_efficiency(128), 0.0, false, 0.0},
                                     {128, 64, 64, split_tile_efficiency(64), 0.0, false, 0.0},
                                     {128, 64, 64, split_tile_efficiency(64), 0.0, false, 0.0}}};
  t[3].a_share = 2;
  t[3].max_splits = 1;
  return t;
}

// Row classes (the `_ws_rowclass` kernels): K-major 16-bit A and B that break TMA's 16-byte rule
// are read by TMA as eight row classes each (rows r, r + 8, ... lie 8 * ld apart, a legal stride)
// and realigned in shared memory: no copy, slower k-blocks. Priced with gemm()'s own model and gate
// (split_model.hpp): one round of CTAs, taken where it is 5% below the copies plus the repacked
// problem's plan; problems of <= 2 k-blocks go to the thread loads instead (register_sm90.cu).
// NOTES: measured where the gate takes it (runs 140, 150, the row-class suite): 128x8192x28673
// 2.2x cuBLAS against 1.1x through the copies, 256x256x65537 1.8x against 1.1x, 64x8192x8193 1.8x.
inline constexpr const char* kRowClassAction = "load A/B by TMA as eight row classes (no copy)";
void advise_row_classes(const ShapeReport& r, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  if (r.predicted.copy_us <= 0 || r.tile.family != MmaFamily::wgmma) return;
  const bool sixteen_bit = g.a.dtype == DType::bf16 || g.a.dtype == DType::f16;
  if (!sixteen_bit || g.b.dtype != g.a.dtype || g.a.layout != Layout::row || g.b.layout != Layout::column) return;
  if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0) return;
  const FamilyCheck& wg = family_check(r.alignment, MmaFamily::wgmma);
  if (!wg.available) return;
  const int64_t k_blocks = ceil_div(g.k, 64);
  if (k_blocks <= 2) return;
  const int sms = r.device.sm_count;
  const double peak = 989e12;
  const SplitPassTile row_tiles[] = {{128, 128, 64, split_tile_efficiency(128), kRowClassKBlockSeconds, false, kRowClassFillUs},
                                     {128, 64, 64, split_tile_efficiency(64), kRowClassNarrowKBlockSeconds, false, kRowClassFillUs}};
  const bool both[] = {true, true};
  const SplitPassPlan row = best_split_pass(g.m, g.n, g.k, 2.0, peak, row_tiles, both, 2, sms, 0);
  if (row.tile < 0 || row.ctas > sms) return;
  const std::array<SplitPassTile, 4> tma_tiles = tma_split_tiles();
  const bool no_pair[] = {true, true, true, false};
  const SplitPassPlan on_copies = best_split_pass(g.m, g.n, g.k, 2.0, peak, tma_tiles.data(), no_pair, 4, sms, 0);
  // The copies of what breaks the rule: lines of K rounded up to 64 elements, 256-byte aligned each.
  auto copy_bytes = [&](bool ok, int64_t lines) {
    return ok ? 0.0 : static_cast<double>((lines * ((g.k + 63) / 64 * 64) * 2 + 255) / 256 * 256);
  };
  const double copies_us = 2.0 * (copy_bytes(wg.a.ok, g.m) + copy_bytes(wg.b.ok, g.n)) / kRepackBytesPerUs + kRepackLaunchUs;
  if (row.us > kRowClassMargin * (copies_us + on_copies.us)) return;
  add(out, r.predicted.total_us, row.us, kRowClassAction,
      "A and B are K-major and break TMA's 16-byte rule; rows r, r + 8, ... of each form a legal TMA tensor, "
      "realigned in shared memory at ~" + fmt("%.1f us", 1e6 * row_tiles[row.tile].load_kblock_seconds) +
          " a k-block (measured): tile 128x" + std::to_string(row_tiles[row.tile].tile_n) + ", " +
          std::to_string(row.splits) + " K slice(s), " + std::to_string(row.ctas) + " CTAs, " + fmt("%.1f us", row.us) +
          " by gemm()'s model against " + fmt("%.1f us", copies_us + on_copies.us) + " for the copies and the GEMM on them");
}

// Strips in the copy (kernels/common/repack_strips.hpp): where A and B are both copied anyway and
// D's partial last tile row or column holds at most 8 rows or columns, the copy computes those
// as dot products of the lines it streams, and the kernel runs the tile-exact core. Priced as the
// core under the same model, on the persistent kernel, plus the same copy (the dots ride on a
// memory-bound pass).
void advise_strips(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  if (r.predicted.copy_us <= 0 || r.tile.family != MmaFamily::wgmma) return;
  // Both A and B copied: for 16-bit TN operands the only wgmma rule they can fail is TMA's.
  const FamilyCheck& wg = family_check(r.alignment, MmaFamily::wgmma);
  const bool sixteen_bit = g.a.dtype == DType::bf16 || g.a.dtype == DType::f16;
  if (!sixteen_bit || g.a.layout != Layout::row || g.b.layout != Layout::column || g.d.layout != Layout::row ||
      g.beta != 0.0f || g.d.dtype != g.a.dtype || wg.a.ok || wg.b.ok)
    return;
  const int64_t rows = thin_edge_lines(g.m, r.tile.tile_m), cols = thin_edge_lines(g.n, r.tile.tile_n);
  if (rows == 0 && cols == 0) return;
  GemmDesc core = g;
  core.m -= rows;
  core.n -= cols;
  // The core runs on the persistent kernel: only the last tile's epilogue is exposed (as in
  // advise_persistent).
  const TimeModel t = predict_time(core, r.device, r.tile, r.waves.ctas_per_sm, peak);
  const int64_t waves = std::max<int64_t>(wave_model(core, r.device, r.tile, r.waves.ctas_per_sm).wave_count, 1);
  const double us = t.total_us - t.epilogue_us + t.epilogue_us / static_cast<double>(waves) + r.predicted.copy_us;
  add(out, r.predicted.total_us, us, "compute D's thin edge in the copy",
      "D's last tile row holds " + std::to_string(g.m % r.tile.tile_m) + " row(s) and its last tile column " +
          std::to_string(g.n % r.tile.tile_n) + " column(s); the A/B copy already streams both operands, so it computes " +
          (rows > 0 ? std::to_string(rows) + " row(s)" : std::string()) + (rows > 0 && cols > 0 ? " and " : "") +
          (cols > 0 ? std::to_string(cols) + " column(s)" : std::string()) + " as dot products and the kernel runs the " +
          std::to_string(core.m) + "x" + std::to_string(core.n) + " core: " +
          std::to_string(ceil_div(core.m, r.tile.tile_m) * ceil_div(core.n, r.tile.tile_n)) + " tiles instead of " +
          std::to_string(r.waves.grid_ctas));
}

// The 128x64 tile unsplit in 1x2 TMA multicast pairs sharing A: where gemm()'s split planner
// (split_model.hpp, the same tiles and terms as split_k.cu's plan) takes it over every split plan,
// it replaces the split-K advice. Priced as the split-K advice's time scaled by the planner's ratio
// of the pair to its best split plan, so both read in this model's currency. NOTES: at
// 128x8192x28672 the pair ran 6-8% ahead of the 128x256 x3 split on the H100 (runs 255-258), and
// the plain 128x64 tile unsplit ran level with it there: on the H100 the gain is the unsplit plan;
// whether A's halved L2 reads add to it on the H200 is not yet measured.
bool advise_pair(const ShapeReport& r, double split_us, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  const bool sixteen_bit = g.a.dtype == DType::bf16 || g.a.dtype == DType::f16;
  if (!sixteen_bit || g.b.dtype != g.a.dtype || g.a.layout != Layout::row || g.b.layout != Layout::column) return false;
  const FamilyCheck& wg = family_check(r.alignment, MmaFamily::wgmma);
  if (!wg.available || !wg.a.ok || !wg.b.ok || ceil_div(g.n, 64) % 2 != 0) return false;
  const double peak = 989e12;
  const std::array<SplitPassTile, 4> tiles = tma_split_tiles();
  const bool with_pair[] = {true, true, true, true}, without[] = {true, true, true, false};
  const int sms = r.device.sm_count;
  const SplitPassPlan plan = best_split_pass(g.m, g.n, g.k, 2.0, peak, tiles.data(), with_pair, 4, sms, 0);
  if (plan.tile != 3) return false;
  const SplitPassPlan split = best_split_pass(g.m, g.n, g.k, 2.0, peak, tiles.data(), without, 4, sms, 0);
  if (split.tile < 0 || split.us <= 0) return false;
  add(out, r.predicted.total_us, split_us * plan.us / split.us, "128x64 tiles in 1x2 multicast pairs sharing A (no split)",
      std::to_string(plan.ctas) + " CTAs of 128x64 fill the SMs unsplit; each pair's A boxes leave L2 once for both "
      "CTAs, so A's L2 reads halve and no f32 partials are written: gemm()'s split model gives " +
          fmt("%.1f us", plan.us) + " against " + fmt("%.1f us", split.us) + " for its best split (tile 128x" +
          std::to_string(tiles[split.tile].tile_n) + ", " + std::to_string(split.splits) + " K slices)");
  return true;
}

void advise_split_k(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  if (r.waves.grid_ctas >= r.waves.resident_ctas) return;  // already a full wave
  double best_us = r.predicted.total_us;
  int best = 1;
  for (int s = 2; s <= 64; ++s) {
    if (ceil_div(g.k, s) < 2 * r.tile.tile_k) break;
    const double us = predict_time(g, r.device, r.tile, r.waves.ctas_per_sm, peak, s).total_us + r.predicted.copy_us;
    if (us < best_us) { best_us = us; best = s; }
  }
  if (best > 1 && advise_pair(r, best_us, out)) return;
  if (best > 1)
    add(out, r.predicted.total_us, best_us, "split-K x" + std::to_string(best),
        std::to_string(r.waves.grid_ctas) + " tiles fill " +
            fmt("%.0f%%", 100.0 * r.waves.grid_ctas / r.waves.resident_ctas) +
            " of one wave; splitting K " + std::to_string(best) + " ways gives " +
            std::to_string(r.waves.grid_ctas * best) + " CTAs, plus a combine pass over " +
            fmt("%.1f MB", static_cast<double>(g.m * g.n) * 4.0 * best / 1e6) + " of f32 partials");
}

// NOTES: a stream-K MAC iteration costs ~1.1x a plain tile's: 4224^3 measured ~1.01x over the
// plain grid where a full-rate share modelled 1.09x (runs 54, 60-62), 256x9216x8192 1.13x where it
// modelled 1.27x (run 87); run 91 found the shared k-blocks' cycles 35% above the plain kernel's at
// equal clocks there (two pipeline fills a cluster, the partials written and read back).
constexpr double kStreamKIterationCost = 1.10;

void advise_stream_k(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  if (r.waves.wave_efficiency > 0.95) return;
  const GemmDesc& g = r.desc;
  const TileConfig& t = r.tile;
  // After a full wave, a tail of short tiles is not worth sharing (measured: kStreamKMinSharedKTiles).
  if (r.waves.wave_count > 1 && ceil_div(g.k, t.tile_k) < kStreamKMinSharedKTiles) return;
  const int64_t iters = r.waves.grid_ctas * ceil_div(g.k, t.tile_k);
  const int64_t per_cta = ceil_div(iters, r.waves.resident_ctas);
  const double per_sm_flops = peak * 1e12 / r.device.sm_count;
  const double iter_us = 2.0 * t.tile_m * t.tile_n * t.tile_k / per_sm_flops * 1e6;
  const double compute = static_cast<double>(per_cta) * r.waves.ctas_per_sm * iter_us * kStreamKIterationCost;
  // Every resident CTA may leave one partial tile for a neighbour to fix up (f32, out and in).
  const double fixup = static_cast<double>(r.waves.resident_ctas) * t.tile_m * t.tile_n * 8.0 /
                       (r.device.mem_bandwidth_gbs * 1e9) * 1e6;
  const double us = overlapped_us(compute, r.predicted.memory_us) + fixup + r.predicted.copy_us +
                    r.predicted.epilogue_us / static_cast<double>(std::max<int64_t>(r.waves.wave_count, 1));
  add(out, r.predicted.total_us, us, "stream-K",
      "the last wave is " + fmt("%.0f%%", 100.0 * r.waves.wave_efficiency) +
          " efficient; an equal share of the " + std::to_string(iters) +
          " MAC-loop iterations per persistent CTA removes the tail for a partial-tile fix-up");
}

void advise_persistent(const ShapeReport& r, std::vector<Advice>& out) {
  if (r.waves.wave_count < 2) return;
  const double per_wave = r.predicted.epilogue_us / static_cast<double>(r.waves.wave_count);
  const double us = r.predicted.total_us - r.predicted.epilogue_us + per_wave;
  add(out, r.predicted.total_us, us, "persistent",
      std::to_string(r.waves.wave_count) + " waves each expose an epilogue (" +
          fmt("%.1f us", per_wave) + "); a persistent grid overlaps all but the last with the next tile's mainloop");
}

void advise_tiles(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  const DType in = r.desc.a.dtype;
  std::vector<TileConfig> candidates;
  const TileConfig base = default_tile_config(r.tile.family, in);
  if (r.tile.family == MmaFamily::wgmma) {
    // The narrower tiles are compiled for A row-major, B column-major and aligned operands only
    // (no repack composite): advise them only where one of them can run the problem.
    const GemmDesc& g = r.desc;
    if (g.a.layout != Layout::row || g.b.layout != Layout::column || r.predicted.copy_us > 0) return;
    // The tiles the library has compiled (kernels/sm90/wgmma_tma_ws.cu: 128 x N, stages filling
    // shared memory, one CTA per SM): advising a tile nobody can run helps no one.
    const int tk = base.tile_k;
    candidates = {{MmaFamily::wgmma, 128, 256, tk, 4, 384, 168, 0},
                  {MmaFamily::wgmma, 128, 128, tk, 7, 384, 168, 0},
                  {MmaFamily::wgmma, 128, 64, tk, 9, 384, 168, 0}};
    // The cluster kernel's 192x192 tile (three consumer warpgroups), or its 192x176 where that
    // rule holds, where gemm() runs them: the same rules (analysis/path_rules.hpp), priced by the
    // same model as every other tile.
    // Its epilogue stores D row-major in the input type and TMA-loads C as D's own boxes.
    const bool c_as_d = g.beta == 0.0f || (g.c.layout == Layout::row && g.c.dtype == g.d.dtype);
    if (square_tile_wins(g.m, g.n, r.device.sm_count) && c_as_d && g.d.layout == Layout::row &&
        g.d.dtype == g.a.dtype)
      candidates.push_back(square176_wins(g.m, g.n, r.device.sm_count) ? TileConfig{MmaFamily::wgmma, 192, 176, tk, 3, 512, 128, 0, 2}
                                                                        : TileConfig{MmaFamily::wgmma, 192, 192, tk, 4, 512, 128, 0, 2});
    // The grid-fitting width (128 x 144/176/192, bf16/f16 D of the input type), where gemm() runs it:
    // the same rule.
    if (const int64_t w = fit_tile_width(g.m, g.n, r.device.sm_count);
        w > 0 && c_as_d && g.d.layout == Layout::row && g.d.dtype == in && (in == DType::bf16 || in == DType::f16))
      candidates.push_back({MmaFamily::wgmma, 128, static_cast<int>(w), tk, 4, 384, 168, 0, 2});
    // The tall 256x128 tile (four consumer warpgroups, 640 threads at 96 registers), where gemm()
    // runs it: the same rule.
    if (tall_tile_wins(g.m, g.n, r.device.sm_count) && c_as_d && g.d.layout == Layout::row && g.d.dtype == in &&
        (in == DType::bf16 || in == DType::f16))
      candidates.push_back({MmaFamily::wgmma, 256, 128, tk, 4, 640, 96, 0, 2});
  } else {
    candidates = {base, {base.family, 128, 64, base.tile_k, base.stages, 128, base.regs_per_thread, 0},
                  {base.family, 64, 128, base.tile_k, base.stages, 128, base.regs_per_thread, 0},
                  {base.family, 64, 64, base.tile_k, base.stages, 128, base.regs_per_thread, 0}};
  }
  double best_us = r.predicted.total_us;
  const TileConfig* best = nullptr;
  for (const TileConfig& c : candidates) {
    if (c.tile_m == r.tile.tile_m && c.tile_n == r.tile.tile_n && c.tile_k == r.tile.tile_k) continue;
    const int b = ctas_for(r.device, c, in);
    if (b < 1) continue;
    const double us = predict_time(r.desc, r.device, c, b, peak).total_us + r.predicted.copy_us;
    if (us < best_us * 0.98) { best_us = us; best = &c; }
  }
  if (best)
    add(out, r.predicted.total_us, best_us,
        "tile " + std::to_string(best->tile_m) + "x" + std::to_string(best->tile_n) + "x" + std::to_string(best->tile_k),
        "fits the shape better: " +
            fmt("eta_wave %.2f", wave_efficiency(cluster_tile_rows(r.desc.m, *best) * ceil_div(r.desc.n, best->tile_n),
                                                 r.device.sm_count, ctas_for(r.device, *best, in))) +
            fmt(", eta_pad %.2f", padding_efficiency(r.desc.m, r.desc.n, r.desc.k, best->tile_m, best->tile_n, best->tile_k)));
}

// Swap A/B onto the narrow tiles kernels/sm90/swap_ab.cu runs: 64 or 128 rows of N by the
// smallest of 16/32/64/128 columns that holds M, stages filling shared memory, K split when faster.
// Those tiles read both operands K-major through TMA, with no copy in front: for an operand that
// breaks TMA's 16-byte rule the cure is the caller's (pad the leading dimension), so the advice
// says so and prices the swap on the padded problem, without the copies the current plan pays.
void advise_swap_ab(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  // A column-major is read MN-major by the unswapped 64x64 tile only, where K is long (path_rules.hpp);
  // the swapped tiles need a K-major A (it becomes B^T).
  const bool a_ok = g.a.layout == Layout::row ||
                    (tiles64x64_fit_one_round(g.m, g.n, r.device.sm_count) && g.k >= kNarrow64MnMajorAMinK);
  if (r.tile.family != MmaFamily::wgmma || g.m > 128 || g.n <= g.m || !a_ok || g.b.layout != Layout::column)
    return;
  // Swapping cures M's padding; an M that fills whole tiles has none to cure (128x8192x28672: the
  // split-K plan on 128x256 measured ahead of the swapped 128-wide tile in every pass, NOTES).
  if (g.m % r.tile.tile_m == 0) return;
  GemmDesc s = g;
  std::swap(s.m, s.n);
  // Widths 16 and 32 run 64-row tiles (one consumer warpgroup, 16 stages), or 128-row ones (two,
  // 12 and 11 stages) where 64 rows would take a second round and 128 fit one
  // (swap_narrow_takes_128_rows, run 174); 64 and 128 run 128, except width 64 where 256-row tiles
  // (four consumers, 5 stages) fill >= 80% of the SMs, as gemm() runs it (swap_wide_tile_fills;
  // bench/NOTES.md, run 57).
  const int narrow = g.m <= 16 ? 16 : g.m <= 32 ? 32 : g.m <= 64 ? 64 : 128;
  const bool wide = swap_wide_tile_fills(g.m, g.n, r.device.sm_count);
  const bool narrow128 = swap_narrow_takes_128_rows(g.m, g.n, r.device.sm_count);
  // Width 64 also runs 64 rows (one consumer, 14 stages) where those tiles fit one round (run 194).
  const bool rows64 = tiles64x64_fit_one_round(g.m, g.n, r.device.sm_count);
  const bool one_consumer = (narrow <= 32 && !narrow128) || rows64;
  const int rows = narrow <= 32 ? (narrow128 ? 128 : 64) : wide ? 256 : rows64 ? 64 : 128;
  const int stages =
      narrow <= 32 ? (narrow128 ? (narrow == 16 ? 12 : 11) : 16) : wide ? 5 : rows64 ? 14 : narrow == 64 ? 9 : 7;
  const TileConfig t{MmaFamily::wgmma, rows, narrow, r.tile.tile_k, stages, rows + 128, wide ? 96 : 168, 0};
  const int b = std::max(1, ctas_for(r.device, t, g.a.dtype));
  double best = predict_time(s, r.device, t, b, peak).total_us;
  int best_split = 1;
  std::string split_how, tail;
  if (narrow <= 32 || one_consumer) {
    // As gemm() plans it (path_rules.hpp): the most splits whose clusters fit one round, summed in
    // the clusters (no combine pass), or the last round's tiles in two.
    const int64_t tiles = ceil_div(g.n, rows), k_blocks = ceil_div(g.k, t.tile_k), sms = r.device.sm_count;
    best_split = swap_cluster_splits(tiles, k_blocks, sms, [&](int c) { return modeled_resident_clusters(c, sms); });
    if (best_split > 1) {
      const TimeModel tm = predict_time(s, r.device, t, b, peak, best_split);
      best = tm.total_us - tm.combine_us;
      split_how = " summed in clusters of " + std::to_string(best_split);
    }
    if (const int64_t first = swap_tail_first(tiles, k_blocks, sms, modeled_resident_clusters(2, sms)); first > 0)
      tail = "; the last round's " + std::to_string(tiles - first) + " of " + std::to_string(tiles) +
             " tiles run in 2 K splits summed in clusters of 2 (not priced here)";
  } else {
    for (int k = 2; k <= 64 && ceil_div(g.k, k) >= 4 * t.tile_k; ++k) {
      const double us = predict_time(s, r.device, t, b, peak, k).total_us;
      if (us < best * 0.98) { best = us; best_split = k; }
    }
  }
  const bool pad_first = r.predicted.copy_us > 0;
  const std::string fill = "M=" + std::to_string(g.m) + " fills " +
                           fmt("%.0f%%", 100.0 * static_cast<double>(g.m) / r.tile.tile_m) + " of a " +
                           std::to_string(r.tile.tile_m) + "-row tile; ";
  // gemm() runs the 64x64 tile unswapped for K-major A and B (run 199: 7-17% ahead of the swapped
  // 64x64 tile on midm_split): 64 rows of M, N 64 wide; the model prices it as the swapped tile
  // (64x64 both ways, the same bytes and splits).
  const std::string how =
      rows64 ? "64 rows of M (one consumer warpgroup) by 64 of N make ceil(N/64) = " + std::to_string(ceil_div(g.n, 64)) +
                   " tiles, one round"
             : "computing D^T = B^T A^T puts N on wgmma's 64-row side and M on an N=" + std::to_string(narrow) + " tile";
  add(out, r.predicted.total_us, best,
      std::string(pad_first ? "pad lda/ldb to 16 bytes, then " : "") + (rows64 ? "64x64 tiles" : "swap A/B") +
          (best_split > 1 ? " + split-K x" + std::to_string(best_split) + split_how : std::string()),
      fill + how + " (" + std::to_string(rows) + "x" + std::to_string(narrow) + ", " + std::to_string(stages) +
          " stages)" + tail);
}

// The cluster kernel's fitting widths on the swapped problem (kernels/sm90/pc_swap.hpp), where
// gemm() runs them: the same rule (swap_fit_tile_width), priced by the same model on D^T = B^T A^T
// with a 128 x width tile. Mid-size M that 128-row tiles pad or leave ghost rows in.
void advise_swap_fit(const ShapeReport& r, double peak, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  const DType in = g.a.dtype;
  if (r.tile.family != MmaFamily::wgmma || r.predicted.copy_us > 0 || (in != DType::bf16 && in != DType::f16) ||
      g.a.layout != Layout::row || g.b.layout != Layout::column || g.d.layout != Layout::row || g.d.dtype != in ||
      g.beta != 0.0f || g.n % 8 != 0)
    return;
  const int64_t w = swap_fit_tile_width(g.m, g.n, r.device.sm_count);
  if (w == 0) return;
  GemmDesc s = g;
  std::swap(s.m, s.n);
  const TileConfig t{MmaFamily::wgmma, 128, static_cast<int>(w), r.tile.tile_k, 4, 384, 168, 0, 2};
  const int b = std::max(1, ctas_for(r.device, t, in));
  add(out, r.predicted.total_us, predict_time(s, r.device, t, b, peak).total_us,
      "swap A/B onto a 128x" + std::to_string(w) + " tile",
      "M=" + std::to_string(g.m) + " runs as " + std::to_string(r.waves.m_padded) + " rows of " +
          std::to_string(r.tile.tile_m) + "-row tiles" + (r.tile.cluster_m > 1 ? " in CTA pairs" : "") +
          "; D^T = B^T A^T puts N on the 128 rows and M on " +
          std::to_string(ceil_div(g.m, w)) + (ceil_div(g.m, w) == 1 ? " tile column of " : " tile columns of ") +
          std::to_string(w) + " (" +
          fmt("eta_pad %.2f", static_cast<double>(g.m) / static_cast<double>(ceil_div(g.m, w) * w)) + ")");
}

// The tiny kernel (the small side on the CUDA cores, one launch), where gemm()'s gate takes it
// (path_rules.hpp). Priced by its own measured fit, not the tensor-core model: the gate keeps its
// CTAs to about one round, so the time is a fixed ~6.4 us (launch, one DRAM round trip, the
// cluster's sum) plus one CTA's multiply-adds (rows x 32 columns x k a rank) at ~33K a microsecond.
// NOTES (runs 170-177, same process, by name): 17K-39K a CTA ran 7.0-8.3 us (42x40x456 7.3,
// 33x1000x77 7.7), 128K 10.2 (7x1000x1001), 212K 12.6 (26x28x3316), 263K 14.3 (17x17x4097); the
// lanes-along-N instance runs slower (17x617x633: 162K, 14.1 against 11.3 by this fit).
void advise_tiny(const ShapeReport& r, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  if (r.device.cc_major != 9 || (g.a.dtype != DType::bf16 && g.a.dtype != DType::f16) || g.b.dtype != g.a.dtype) return;
  if (!tiny_kernel_gate(g.m, g.n, g.k, r.alignment.needs_repack, r.device.sm_count)) return;
  const TinyGrid t = tiny_grid(std::min(g.m, g.n), std::max(g.m, g.n), g.k, r.device.sm_count);
  const double us = 6.4 + static_cast<double>(t.tile_rows * kTinyTileCols * t.k_per_rank) / 33e3;
  add(out, r.predicted.total_us, us, "one launch on the CUDA cores (the tiny kernel; gemm() takes it here)",
      "min(M, N) = " + std::to_string(std::min(g.m, g.n)) +
          ": a tensor-core path is latency here (launches" + (r.alignment.needs_repack ? ", copies" : "") +
          ", pipeline fill, epilogue); the tiny kernel reads any layout and alignment and sums K across a "
          "cluster, " + fmt("~%.1f us measured-fit", us) + " (the plan's model under-prices these problems)");
}

// The skinny kernel (mma.sync, both operands streamed along K in 16-byte copies realigned from
// shared memory, one launch), where gemm()'s gate takes it (path_rules.hpp) with A row-major and B
// column-major and the row-class kernel does not. Priced as a plain stream of the problem's bytes
// (the device's measured stream model) times the kernel's measured overhead on it: 1.96-2.71x
// over the seven gated shapes of run 186 (geomean 2.28; bench/NOTES.md, session 23).
inline constexpr double kSkinnyStreamFactor = 2.3;
void advise_skinny(const ShapeReport& r, std::vector<Advice>& out) {
  const GemmDesc& g = r.desc;
  if (r.device.cc_major != 9 || (g.a.dtype != DType::bf16 && g.a.dtype != DType::f16) || g.b.dtype != g.a.dtype) return;
  if (r.roofline.stream_us <= 0 || !skinny_kernel_gate(g.m, g.n, g.k, r.alignment.needs_repack, r.device.sm_count)) return;
  if (g.a.layout != Layout::row || g.b.layout != Layout::column) return;
  for (const Advice& a : out)
    if (a.action.rfind(kRowClassAction, 0) == 0) return;  // gemm() takes the row-class kernel instead
  const double us = kSkinnyStreamFactor * r.roofline.stream_us;
  add(out, r.predicted.total_us, us, "stream the large operand along K on mma.sync (the skinny kernel; gemm() takes it here)",
      "min(M, N) = " + std::to_string(std::min(g.m, g.n)) +
          " against a large operand that breaks TMA's 16-byte rule: the TMA paths copy it first; the skinny kernel "
          "reads it once in 16-byte copies and realigns them in shared memory, " +
          fmt("~%.1f us", us) + fmt(" (%.1f x the plain stream of the bytes, measured)", kSkinnyStreamFactor));
}

}  // namespace

std::vector<Advice> advise(const ShapeReport& r) {
  std::vector<Advice> out;
  const double peak = family_peak_tflops(r.device, r.tile.family, r.desc.a.dtype);
  const GemmDesc& g = r.desc;

  if (g.a.dtype == DType::f32 && r.device.peak.tf32 > 0) {
    GemmDesc t32 = g;
    t32.a.dtype = t32.b.dtype = DType::tf32;
    const MmaFamily f = r.device.cc_major == 9 ? MmaFamily::wgmma : MmaFamily::mma_sync;
    const TileConfig cfg = default_tile_config(f, DType::tf32);
    const int b = std::max(1, ctas_for(r.device, cfg, DType::tf32));
    add(out, r.predicted.total_us, predict_time(t32, r.device, cfg, b, family_peak_tflops(r.device, f, DType::tf32)).total_us,
        "declare A and B tf32", "f32 inputs run on the CUDA cores; tf32 (10-bit mantissa, f32 range) runs on the Tensor Cores");
  }
  advise_repack(r, out);
  advise_row_classes(r, out);
  advise_strips(r, peak, out);
  advise_split_k(r, peak, out);
  advise_stream_k(r, peak, out);
  advise_persistent(r, out);
  advise_tiles(r, peak, out);
  advise_swap_ab(r, peak, out);
  advise_swap_fit(r, peak, out);
  advise_tiny(r, out);
  advise_skinny(r, out);

  std::erase_if(out, [](const Advice& a) { return a.predicted_gain < 1.01; });
  std::stable_sort(out.begin(), out.end(),
                   [](const Advice& a, const Advice& b) { return a.predicted_gain > b.predicted_gain; });
  return out;
}

}  // namespace tcgemm
