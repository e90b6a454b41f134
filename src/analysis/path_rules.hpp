// Where two of gemm()'s shape-specific paths apply: the kernels that run them and explain's
// advice that prices them read the same rule (bench/NOTES.md has the measurements behind each).
#pragma once

#include <cstdint>

namespace tcgemm {

// Most rows (or columns) a strip computed inside the A/B copy may hold: each is one dot product
// per element of the other operand's lines, on the CUDA cores, in a memory-bound pass ("Strips").
inline constexpr int64_t kMaxStripLines = 8;

// The strip of D's last partial tile along a dimension of `extent` cut into `tile`s: its lines,
// or 0 when it is wider than kMaxStripLines or leaves no full tile beside it.
constexpr int64_t thin_edge_lines(int64_t extent, int64_t tile) {
  const int64_t lines = extent % tile;
  return lines > kMaxStripLines || extent - lines < tile ? 0 : lines;
}

// Swap A/B for 32 < M <= 64 on the 256-row tile: where its ceil(N / 256) CTAs fill at least 80%
// of the SMs (run 57: 0.96-0.99x cuBLAS at N = 28672 and 57344 against 0.81-0.93x for the
// 128-row tile; at N = 8192, four K splits, it lost).
constexpr bool swap_wide_tile_fills(int64_t m, int64_t n, int64_t sm_count) {
  return m > 32 && m <= 64 && 5 * ((n + 255) / 256) >= 4 * (sm_count > 1 ? sm_count : 1);
}

// Swap A/B for M <= 32: the narrow tiles stream 64 rows of N a CTA (one consumer warpgroup) at one
// CTA a SM, or 128 rows (two) where 64 would need a second round of CTAs and 128 fits one. NOTES
// (runs 174 and 176, same process): 128 rows won all 36 problems measured in that band (M 16, 26
// and 32, N 9000-16384, K 32-8192; 26x9666x32 7.2 us against 10.4, 16x9000x8192 45.6 against
// 56.8); the second round's fill and epilogue cost more than a CTA's doubled stream.
constexpr bool swap_narrow_takes_128_rows(int64_t m, int64_t n, int64_t sm_count) {
  const int64_t sms = sm_count > 1 ? sm_count : 1;
  return m <= 32 && (n + 63) / 64 > sms && (n + 127) / 128 <= sms;
}

// 32 < M <= 64 on 64x64 tiles (one consumer warpgroup, as the narrow tiles) where ceil(N / 64)
// tiles fit one round, split in clusters. Run 194 (midm_split.txt, same process) put the swapped
// 64x64 tile ahead of the swapped 128-row one on all 10 shapes, by 8-16% (64x4096x4096 18.3 us
// against 21.4): twice the tiles, so half the splits. Run 199 put the same tile unswapped (64 rows
// of M, N 64 wide) ahead of the swapped one on all 10, by 7-17% (15.7 against 18.5; midm_split
// 0.97x of cuBLAS): gemm() runs it unswapped for K-major A and B, swapped for the other layouts.
constexpr bool tiles64x64_fit_one_round(int64_t m, int64_t n, int64_t sm_count) {
  const int64_t sms = sm_count > 1 ? sm_count : 1;
  return m > 32 && m <= 64 && (n + 63) / 64 <= sms;
}

// With a column-major A (read MN-major in 64x64 boxes) gemm() runs that tile only where K is long.
// Run 215, against the 128-row split-K tile that took A column-major before (TFLOP/s, two passes):
// K >= 8192 level to 12% faster (48x4096x8192 130 against 115, 64x3072x12288 173 against 160,
// 64x8192x8192 level); K = 4096 unsteady (64x4096x4096 114 and 92 against 112); 56x2048x2048 26
// against 40.
constexpr int64_t kNarrow64MnMajorAMinK = 8192;

// Clusters of `ctas` CTAs (one a SM, 2..8) resident at once: the H200's answer (run 190: 66, 39,
// 30, 22, 17, 15, 15; a cluster's CTAs share a GPC of 16-18 SMs) scaled to sm_count, for where
// there is no device to ask (kernels/sm90/swap_ab.cu asks it when there is).
constexpr int64_t modeled_resident_clusters(int ctas, int64_t sm_count) {
  constexpr int64_t kH200[] = {0, 0, 66, 39, 30, 22, 17, 15, 15};
  const int64_t sms = sm_count > 1 ? sm_count : 1;
  if (ctas < 2) return sms;
  if (ctas > 8) return 0;
  const int64_t c = kH200[ctas] * sms / 132;
  return c > 1 ? c : 1;
}

// The swap tiles of widths 16 and 32 where their tiles fill under half the SMs: K in the most
// splits (<= 8, >= 4 k-blocks each) whose clusters fit one round (capacity(s): clusters of s
// resident), summed in the clusters; 1 where none fits. NOTES (run 191, forced sweeps of 1-16 on
// 8 decode shapes): that count was the fastest within 2% on all 8; a second round of clusters, or
// the slab model's 11 splits in 4 rounds (16x3072x12288: 38.2 us against 26.3), lost.
template <class Capacity>
constexpr int swap_cluster_splits(int64_t tiles, int64_t k_blocks, int64_t sm_count, Capacity capacity) {
  if (2 * tiles >= (sm_count > 1 ? sm_count : 1)) return 1;
  const int64_t cap = k_blocks / 4 < 8 ? k_blocks / 4 : 8;
  for (int64_t s = cap; s >= 2; --s)
    if (capacity(static_cast<int>(s)) >= tiles) return static_cast<int>(s);
  return 1;
}

// Past one round of those tiles, a last round at most half full runs in two splits summed in
// clusters of 2 (every CTA then in a cluster of 2: only where those fill every SM). The first
// tile of that tail (a whole number of clusters before it), or 0 for none. NOTES (run 191): 2-7 us
// off 40-60 tail tiles (16x28672x8192 125.7 -> 118.9 us), level at 8.
constexpr int64_t swap_tail_first(int64_t tiles, int64_t k_blocks, int64_t sm_count, int64_t pair_capacity) {
  const int64_t sms = sm_count > 1 ? sm_count : 1;
  const int64_t tail = tiles % sms;
  int64_t first = tiles - tail;
  if (first % 2 != 0) --first;
  const bool applies = tiles > sms && tail > 0 && 2 * (tiles - first) <= sms && k_blocks >= 8 && 2 * pair_capacity >= sms;
  return applies ? first : 0;
}

// Stream-K shares a last round of tiles after a full one only where a tile has at least this many
// k-blocks (kernels/sm90 sm90_pc_streamk_shares_tail, and explain's stream-K advice): each shared
// piece writes and reads back an f32 partial and pays a second pipeline fill whatever its k-blocks.
// NOTES (run 175, same process, against the plain cluster kernel): sharing lost at 4-32 k-blocks
// (6656x624x256 23.1 us against 15.2, 4224x4224x1024 77.3 against 72.5); at 66 (4224^3) it gained ~1%.
inline constexpr int64_t kStreamKMinSharedKTiles = 64;

// Pair-tiles (two CTA tiles along M, one 2-CTA cluster each) of an m x n D cut into tile_m x
// tile_n tiles, and the clusters of a persistent grid on sm_count SMs.
constexpr int64_t pair_tiles(int64_t m, int64_t n, int64_t tile_m, int64_t tile_n) {
  return ((m + tile_m - 1) / tile_m + 1) / 2 * ((n + tile_n - 1) / tile_n);
}
constexpr int64_t pair_clusters(int64_t sm_count) { return sm_count / 2 > 1 ? sm_count / 2 : 1; }

// Rounds of pair-tiles that a persistent grid of sm_count / 2 clusters runs.
constexpr int64_t pair_tile_rounds(int64_t m, int64_t n, int64_t tile_m, int64_t tile_n, int64_t sm_count) {
  const int64_t clusters = pair_clusters(sm_count);
  return (pair_tiles(m, n, tile_m, tile_n) + clusters - 1) / clusters;
}

// The persistent cluster kernel's 192x192 tile over its 128x256 tile. Both stream the same 48 KB
// a k-block stage, so a round costs ~ a CTA tile's MMA area, and time ~ rounds x area (padding
// and the last round's idle SMs included). Taken where that models at least 5% faster: 4224^3 is
// 4 rounds of 192x192 (22 x 22 tiles, no padding) against 5 of 128x256 (33 x 17 tiles, the last
// round 38% full), 0.90 of the time; 4096^3 and 8192^3 stay on 128x256 (1.12x and 1.05x).
constexpr bool square_tile_wins(int64_t m, int64_t n, int64_t sm_count) {
  if (m <= 128) return false;  // one tile row of either: the swap and split paths serve it
  const int64_t square = pair_tile_rounds(m, n, 192, 192, sm_count) * 192 * 192;
  const int64_t wide = pair_tile_rounds(m, n, 128, 256, sm_count) * 128 * 256;
  return 20 * square <= 19 * wide;
}

// The 192x176 tile in place of 192x192 where the square tile's rule holds, both need the same
// number of pair-tile rounds (two or more), and 192x192's last round runs part-full while 176's
// fill theirs: the same MMA work in 8% less tile area a round. NOTES (run 262, H100, one provider a
// process, SM clock and power sampled): 4224^3 (4 rounds of 22 x 22 against 22 x 24 tiles) 222.6-223.0
// us at 1455-1470 MHz and 697 W against 230.8-234.3 us at 1470-1590 MHz, cuBLAS 224.9-227.0; ahead
// in one process in runs 225 (H200), 255, 259 too. Single-round shapes stay on 192x192: there the
// 3-stage 176 lost or tied at short K (run 225: 6656x520x2048, 11000x336x768, 4232x800x7784 bf16).
constexpr bool square176_wins(int64_t m, int64_t n, int64_t sm_count) {
  if (!square_tile_wins(m, n, sm_count)) return false;
  const int64_t rounds = pair_tile_rounds(m, n, 192, 192, sm_count);
  if (rounds < 2 || pair_tile_rounds(m, n, 192, 176, sm_count) != rounds) return false;
  const int64_t clusters = pair_clusters(sm_count);
  // 192x192's last round part-full and 176's full: where both fill theirs, 176 only adds N padding.
  return pair_tiles(m, n, 192, 192) < rounds * clusters && pair_tiles(m, n, 192, 176) == rounds * clusters;
}

// M rounded up to whole 128-row tiles; a quarter of them padding is where the fitting-width rules
// below turn away from 128-row tiles.
constexpr int64_t rows_in_128_tiles(int64_t m) { return (m + 127) / 128 * 128; }

// The widths the persistent cluster kernel is built with besides 256 (wgmma takes N in steps of 8;
// 192 is the widest whose C buffer fits beside 4 stages).
inline constexpr int64_t kFitWidths[] = {144, 160, 176, 192};

// The width of kFitWidths whose pair-tile rounds cost the least MMA area (rounds x width) on an
// m x n D in 128-row tiles; the first of equal ones.
struct FitWidth {
  int64_t width, cost;
};
constexpr FitWidth cheapest_fit_width(int64_t m, int64_t n, int64_t sm_count) {
  FitWidth best{0, 0};
  for (int64_t w : kFitWidths) {
    const int64_t cost = pair_tile_rounds(m, n, 128, w, sm_count) * w;
    if (best.width == 0 || cost < best.cost) best = {w, cost};
  }
  return best;
}

// The persistent cluster kernel's grid-fitting widths (128 x 144, 160, 176 or 192): the width whose
// pair-tile rounds cost the least MMA area, where that models at least 5% below the 128x256 tile,
// the 192x192 tile does not apply and 128x256 keeps more than half the clusters busy; 0 elsewhere. cuBLAS fills one round exactly this way
// (256x9216x8192: a 144-wide tile on 2 x 64 CTAs, bench/NOTES.md run 91). 4096^3, 8192^3 and the
// prefill shapes keep 128x256 (the fitting widths need more rounds there).
constexpr int64_t fit_tile_width(int64_t m, int64_t n, int64_t sm_count) {
  if (m <= 128 || square_tile_wins(m, n, sm_count)) return 0;
  // At most half the clusters busy on 128x256: split-K's planner splits K over them instead.
  if (2 * pair_tiles(m, n, 128, 256) <= pair_clusters(sm_count)) return 0;
  // More than a quarter of the tile rows padding (154x11328x13808: 40%): measured, filling the
  // idle SMs lost 2% there (0.622x -> 0.609x, runs 90 and 92); our reading, not measured: the
  // padded MMAs cost the same power at every width.
  if (4 * m < 3 * rows_in_128_tiles(m)) return 0;
  const int64_t wide = pair_tile_rounds(m, n, 128, 256, sm_count) * 256;
  const FitWidth best = cheapest_fit_width(m, n, sm_count);
  return 20 * best.cost <= 19 * wide ? best.width : 0;
}

// The same widths on the swapped problem D^T = B^T A^T (kernels/sm90/pc_swap.hpp): N takes the
// tile's 128 rows and M its width, so M pads to a multiple of the width (steps of 16) instead of
// 128-row tiles, and no CTA holds a tile row past M. 320x8192: 128x256 runs 64 pair-tiles with a
// quarter of the CTAs ghosts; swapped, 128x160 tiles cut 320 exactly, 64 pair-tiles again at 5/8 of
// the area. Taken where its rounds x width model below the better of 128x256 and the
// unswapped fitting width by 1/8, on the same shapes those rules consider. NOTES (run 95): a
// swapped tile's area costs 8-12% more than an unswapped one's (640x8192x8192: 160 x 2 rounds
// against 192 x 2 modelled 0.83, measured 0.90); 440x10768x6312 (160 against 176, 0.91) lost 3%.
constexpr int64_t swap_fit_tile_width(int64_t m, int64_t n, int64_t sm_count) {
  if (m <= 128 || n <= m || square_tile_wins(m, n, sm_count)) return 0;
  if (2 * pair_tiles(m, n, 128, 256) <= pair_clusters(sm_count)) return 0;
  // The unswapped fitting width is the baseline unless a quarter of its rows pad (M = 192: 256
  // rows): 192x11008x4096 ran 43.6 us swapped onto one 192 column against 45.4 on the unswapped
  // 176, the same single round (run 101). It stays the fallback where the swap cannot run.
  const int64_t fit = fit_tile_width(m, n, sm_count);
  const bool fit_pads = 4 * m <= 3 * rows_in_128_tiles(m);
  const int64_t unswapped = fit != 0 && !fit_pads ? pair_tile_rounds(m, n, 128, fit, sm_count) * fit
                                                  : pair_tile_rounds(m, n, 128, 256, sm_count) * 256;
  const FitWidth best = cheapest_fit_width(n, m, sm_count);
  return 8 * best.cost <= 7 * unswapped ? best.width : 0;
}

// The persistent cluster kernel's tall 256x128 tile (four consumer warpgroups, 512 rows of M a
// cluster) where its pair-tile rounds cost at least 5% less MMA area than a fitting width or
// 128x256 on a tall D: N that cuts badly into 256-wide columns, where the 192x192 rule does not
// apply. NOTES (run 181, same process): against 128x144, 6656x624x1024 21.2 us against 23.3,
// x4096 58.0 against 68.2 (cuBLAS 58.0), 13312x624x1024 36.1 against 40.4, x256 level; against the
// 192x192 tile it tied or lost (4232x800x7784 f16 117.6 against 108.6, 6656x520x2048 33.9
// against 32.3), so that rule keeps its shapes.
constexpr bool tall_tile_wins(int64_t m, int64_t n, int64_t sm_count) {
  if (m <= 256 || n >= m || square_tile_wins(m, n, sm_count)) return false;
  if (2 * pair_tiles(m, n, 128, 256) <= pair_clusters(sm_count)) return false;  // split-K's planner serves it
  const int64_t fit = fit_tile_width(m, n, sm_count);
  const int64_t baseline = fit != 0 ? pair_tile_rounds(m, n, 128, fit, sm_count) * 128 * fit
                                    : pair_tile_rounds(m, n, 128, 256, sm_count) * 128 * 256;
  return 20 * pair_tile_rounds(m, n, 256, 128, sm_count) * 256 * 128 <= 19 * baseline;
}

// The tiny kernel's CTA: 32 columns of the large side; clusters of at most 8 CTAs (the portable size).
inline constexpr int64_t kTinyTileCols = 32;
inline constexpr int kTinyMaxClusterSize = 8;

// The tiny kernel's cluster size for `ctas` CTAs before K is split: the most of 1, 2, 4 and 8 whose
// clusters all fit at once (a second round of clusters cost more than the split saved: run 170,
// 7x1000x1001 at 32 tiles ran 10.2 us in clusters of 2 and 15.6 in clusters of 8), with at least 32
// k a rank. Resident at one CTA a SM (what the 8- and 16-row instances' 142-194 registers allow; the
// smaller ones fit more, so this undercounts for them): the H200 keeps 66 clusters of 2, 30 of 4 and
// 15 of 8 on its 132 SMs (bench/NOTES.md, session 18; a cluster's CTAs share a GPC), scaled by the SM
// count elsewhere.
constexpr int tiny_cluster_size(int64_t ctas, int64_t k, int64_t sms) {
  const auto resident = [sms](int s) -> int64_t {
    return s == 1 ? sms : s == 2 ? sms / 2 : s == 4 ? sms * 30 / 132 : sms * 15 / 132;
  };
  int s = kTinyMaxClusterSize;
  while (s > 1 && (s * int64_t{32} > k || ctas > resident(s))) s /= 2;
  return s;
}

// The tiny kernel's grid for a small side of `rows`, a large side of `cols` and K on `sms` SMs: the
// plan it launches (kernels/sm90/tiny_gemm.cu plan_tiny, which passes the profiler's forced count),
// gemm()'s gate and explain's price all read this one. forced_splits > 0 fixes the cluster size
// (at most 8); K caps it either way.
struct TinyGrid {
  int64_t tile_rows = 1;   // the instance's rows: 1, 4, 8 or 16
  int64_t row_blocks = 1;  // blocks of tile_rows (the grid's y)
  int64_t tiles = 1;       // 32-column tiles of the large side
  int64_t splits = 1;      // CTAs of a cluster, along K
  int64_t k_per_rank = 0;
};
constexpr TinyGrid tiny_grid(int64_t rows, int64_t cols, int64_t k, int64_t sms, int64_t forced_splits = 0) {
  TinyGrid t;
  t.tile_rows = rows <= 1 ? 1 : rows <= 4 ? 4 : rows <= 8 ? 8 : 16;
  t.row_blocks = (rows + t.tile_rows - 1) / t.tile_rows;
  t.tiles = (cols + kTinyTileCols - 1) / kTinyTileCols;
  t.splits = forced_splits > 0 ? (forced_splits < kTinyMaxClusterSize ? forced_splits : kTinyMaxClusterSize)
                               : tiny_cluster_size(t.tiles * t.row_blocks, k, sms);
  if (t.splits > k) t.splits = k;
  t.k_per_rank = (k + t.splits - 1) / t.splits;
  return t;
}

// gemm()'s gate onto the tiny kernel (kernels/sm90/tiny_gemm.hpp: the small side on the CUDA cores,
// 16 rows a CTA, one launch, K over a cluster).
// - min(M, N) <= 16: up to 2^16 multiply-adds (2^19 with at most 8 rows), and up to 2^23 where A or
//   B breaks TMA's 16-byte rule (every tensor-core path then pays copies or slower loads). NOTES
//   (runs 170-171, same process): with operands breaking TMA's rule it beat gemm()'s previous pick
//   at every problem measured up to 7M multiply-adds (1x617x633: 6.5-6.7 us against 13.7-17.3,
//   cuBLAS 7.0-8.8; 7x1000x1001: 10.2 against 17.4) and lost from 13M up (8593x2x765: 51 against
//   17). With TMA-legal operands the swap tiles start at ~5-6 us too: the tiny kernel won at 2.3K-7.2K (1x118x24,
//   1x77x56, 4x24x24; 3x10x240 once of twice) and lost at 16x256x128 (524K: 7.1 against 5.8) and
//   1x4096x4096 (16.8M). Between (run 177, same process, two passes): with at most 8 rows it won
//   at 205K-524K (30x1x6856 7.9-8.0 us against 9.5-9.6, 1x8192x64 6.0-6.5 against 6.4-7.4,
//   4x4096x16, 512x8x64, 2x4096x32, 1x1024x256, 4x512x128; 8x256x128 tied), with 12 or 16 rows it
//   tied or lost (16x128x128 7.0 against 5.3-7.0, 16x64x256, 16x256x64, 12x1000x40): so 2^19 up
//   to 8 rows, 2^16 above.
// - 16 < min(M, N) <= 64 (blocks of 16 rows): only where A or B breaks TMA's rule, up to 2^23, the
//   blocks' CTAs in one round and at most 2^18 multiply-adds a CTA. NOTES (runs 174-177, same
//   process): it won 9 of the 10 problems measured inside (42x40x456 7.3 us against 9.3-12.0,
//   122x22x131 7.3 against 13.7, 17x617x633 14.1-14.4 against 17.0-18.9 at 162K a CTA; 858x57x43,
//   108 CTAs, lost by ~0.5 us) and lost the 4 outside (17x17x4097, 263K a CTA: 14.3
//   against 12.3; 3000x24x111, 20x3000x131 and 40x7000x29, two or more rounds: 14.4-25.1 against
//   7.5-10.5); TMA-legal, it won 2 of 6 (64x64x64, 48x1024x64) by at most 1 us.
inline constexpr int64_t kTinyMaxSmallSide = 16;
inline constexpr int64_t kTinyGateMacs = int64_t{1} << 16;
inline constexpr int64_t kTinyGateMacsNarrow = int64_t{1} << 19;  // TMA-legal, at most 8 rows
inline constexpr int64_t kTinyGateMacsMisaligned = int64_t{1} << 23;
inline constexpr int64_t kTinyGateMacsPerCta = int64_t{1} << 18;
// What the kernel itself runs (by name): the small side in blocks of 16 rows, one grid row a block.
inline constexpr int64_t kTinyMaxRows = 64;
constexpr bool tiny_kernel_gate(int64_t m, int64_t n, int64_t k, bool operands_break_tma, int64_t sm_count) {
  const int64_t small = m < n ? m : n, large = m < n ? n : m;
  if (small < 1 || small > kTinyMaxRows || k < 1) return false;
  const int64_t limit = operands_break_tma ? kTinyGateMacsMisaligned : small <= 8 ? kTinyGateMacsNarrow : kTinyGateMacs;
  if (large > limit / small || k > limit / (small * large)) return false;
  if (small <= kTinyMaxSmallSide) return true;
  if (!operands_break_tma) return false;
  const int64_t sms = sm_count > 1 ? sm_count : 1;
  const TinyGrid t = tiny_grid(small, large, k, sms);
  return t.row_blocks * t.tiles <= sms && t.tile_rows * kTinyTileCols * t.k_per_rank <= kTinyGateMacsPerCta;
}

// The skinny kernel's grid (kernels/sm90/skinny_gemm.hpp): the small side (<= 16) as its rows, the
// other as 64-column tiles, K over a cluster of up to 8 CTAs, doubled while the grid holds under
// four CTAs a SM and each rank keeps >= 256 k (run 185: 491x7x3129 13.7 us at 8 ranks of 392 k,
// 20.5 at 4).
inline constexpr int64_t kSkinnyGridTileCols = 64;
struct SkinnyGrid {
  int64_t tiles = 0;
  int splits = 1;
};
constexpr SkinnyGrid skinny_grid(int64_t m, int64_t n, int64_t k, int64_t sm_count, int forced_splits = 0) {
  SkinnyGrid t;
  const int64_t cols = m < n ? n : m;
  t.tiles = (cols + kSkinnyGridTileCols - 1) / kSkinnyGridTileCols;
  if (forced_splits > 0) {
    t.splits = forced_splits < kTinyMaxClusterSize ? forced_splits : kTinyMaxClusterSize;
    return t;
  }
  const int64_t sms = sm_count > 0 ? sm_count : 1;
  while (t.splits < kTinyMaxClusterSize && t.tiles * t.splits < 4 * sms && k >= int64_t{512} * t.splits) t.splits *= 2;
  return t;
}

// gemm()'s gate onto the skinny kernel (min(M, N) <= 16 on mma.sync, both operands streamed along K
// in 16-byte copies realigned from shared memory, one launch): past the tiny kernel's gate, where A
// or B breaks TMA's 16-byte rule (every tensor-core path then copies the large operand first, or
// reads it by row classes), with K >= 1024 (2048 past 8 rows) and >= 64 CTAs. Measured (run 186,
// against the picks without it): 2.4x cuBLAS against 1.23x at 6x7531x14567, 1.69x against 0.82x at
// 4x11007x4097, 1.03x against 0.60x at 2x2332x10604; it lost at 8593x2x765 (K 765: 0.92x against
// 0.99x) and 6x219x10047 (32 CTAs: 1.07x against 1.21x). Its supports() requires A row-major and B
// column-major, and the registry entry also leaves to the row-class kernel what that takes
// (16x8191x8191: 1.70x against the skinny kernel's 1.22x).
inline constexpr int64_t kSkinnyGateMaxRows = 16;
inline constexpr int64_t kSkinnyGateMinK = 1024;
inline constexpr int64_t kSkinnyGateMinCtas = 64;
constexpr const char* skinny_gate_reason(int64_t m, int64_t n, int64_t k, bool operands_break_tma, int64_t sm_count) {
  const int64_t small = m < n ? m : n;
  if (small > kSkinnyGateMaxRows || small < 1) return "min(M, N) over 16";
  if (!operands_break_tma) return "TMA-legal operands: the swap tiles stream them";
  if (tiny_kernel_gate(m, n, k, operands_break_tma, sm_count)) return "the tiny kernel takes it";
  if (k < kSkinnyGateMinK) return "K under 1024: ranks too short for its pipeline";
  // Sixteen rows stream two realigned A vectors a lane (run 188: 16x2049x1025 1.08x cuBLAS against
  // 1.19x through the copies; 16x28673x8193 1.21x against 0.73x).
  if (small > 8 && k < 2 * kSkinnyGateMinK) return "over 8 rows with K under 2048";
  const SkinnyGrid t = skinny_grid(m, n, k, sm_count);
  if (t.tiles * t.splits < kSkinnyGateMinCtas) return "under 64 CTAs";
  return nullptr;
}
constexpr bool skinny_kernel_gate(int64_t m, int64_t n, int64_t k, bool operands_break_tma, int64_t sm_count) {
  return skinny_gate_reason(m, n, k, operands_break_tma, sm_count) == nullptr;
}

}  // namespace tcgemm
