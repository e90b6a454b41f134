// Host entry points of the persistent, 2-CTA-cluster, TMA-store warp-specialized wgmma kernel
// (wgmma_ws_persistent_cluster.cu), for the registry. bf16/f16 with D of the input type, or tf32
// (f32 storage) with D f32; A row-major and B column-major (both K-major), D row-major,
// beta == 0, A/B meeting TMA's 16-byte rules (D too, unless the threads store it: PcDStore).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// Tile order of the persistent cluster kernels. Pair-tiles (a cluster's 256x256 work item) go
// in groups of `swizzle` cluster rows (along_m: pair rows, walked down M inside the group) or
// tile columns (along_n: walked across N inside the group). heuristic: along_m in groups of 8
// pair rows (bench/NOTES.md: least L2->DRAM traffic for a wave of ~132 tiles of 128x256).
enum class PcRaster { heuristic, along_m, along_n };
inline constexpr int kPcDefaultSwizzle = 8;

// Profiler/test only: every later launch of these kernels uses this order and group size
// (swizzle 0: the default, 8; otherwise 1, 2, 4, 8 or 16). Process-wide, not for concurrent use,
// like set_forced_split_k.
void set_pc_raster(PcRaster order, int swizzle);
PcRaster pc_raster_order();
int pc_swizzle();  // 0: the default
// What the kernels run with: heuristic -> along_m, 0 -> kPcDefaultSwizzle.
PcRaster pc_raster_resolved();
int pc_swizzle_resolved();
const char* to_string(PcRaster r);


// How the epilogue writes D from the shared-memory C buffer: by TMA store (D must meet TMA's
// 16-byte rules), or by the consumer threads' own coalesced stores, 2 elements a thread, which take
// any ld and any element-aligned base (4097^3: D's ld of 4097 breaks the rule, and an aligned
// temporary plus a copy-out cost ~67 MB of extra traffic).
enum class PcDStore { tma, threads };

// The CTA tile: 128x256 (two consumer warpgroups, every input) or 192x192 (three consumer
// warpgroups of m64n192; bf16 at 3 or 4 stages, f16 at 4): a pair of them divides M and N = 4224
// and other multiples of 384 x 192 that 128x256 pads (bench/NOTES.md, "A 192x192 tile").
// m128n144/160/176/192: the grid-fitting widths (4 stages, bf16/f16, D of the input type), which
// also store a column-major D: the swapped problem D^T = B^T A^T of pc_swap.hpp, whose D^T tile
// goes out as one box of width x 64 rows of D.
// m256n128 (four consumer warpgroups of m64n128, bf16/f16 at 4 stages, D of the input type): the
// tall tile, 512 rows of M a cluster, for N that cuts badly into 256-wide columns (6656x624: 13 x 5
// pair-tiles, one round, where 128x256 needs 26 x 3); cuBLAS runs its 128x256 tile this way there
// (bench/NOTES.md, session 21).
// m192n160/m192n176 (three consumer warpgroups of m64n160/m64n176, bf16/f16 at 3 stages, D of the
// input type): the 192-row fitting widths, whose C buffer holds each consumer's whole row of boxes
// as the 128-row ones' does. 4224^3 is 11 x 24 = 264 pair-tiles of 192x176, 4 whole rounds on 66
// clusters, where 192x192 runs 242 (3.67 rounds, the last a third idle); 6144x640 is 4 columns of
// 160 where 192 pads N by 20%. Measured (run 225): within the profiler's order bias of 192x192 there,
// behind it at short K; by name only.
enum class PcTile { m128n256, m192n192, m128n144, m128n176, m128n192, m128n160, m256n128, m192n176, m192n160 };
constexpr bool is_pc_fit_tile(PcTile t) {
  return t == PcTile::m128n144 || t == PcTile::m128n160 || t == PcTile::m128n176 || t == PcTile::m128n192;
}
constexpr bool is_pc_fit192_tile(PcTile t) { return t == PcTile::m192n160 || t == PcTile::m192n176; }
bool pc_tile_instantiated(DType input, int stages, PcTile tile);

// f32_d: the _f32d instances (bf16/f16 inputs, 3 stages, 128x256), which store an f32 D (and read
// an f32 C) instead of the input type.
Status sm90_wgmma_ws_pc_supports(const GemmDesc& g, DType input, PcDStore store = PcDStore::tma, bool f32_d = false);
// stages: 3 (a 64 KB C buffer: the whole 16-bit tile, or an f32 tile in two halves) or 4 (32 KB:
// a 16-bit tile in two halves, an f32 tile in four quarters). max_clusters caps the
// persistent grid (0: as many 2-CTA clusters as can be resident at once).
// 192x192: 3 stages keep the whole 64x192 slab of each consumer (24 KB), 4 stages one 64-column box.
Status sm90_wgmma_ws_pc_launch(const GemmArgs& args, DType input, int stages, int max_clusters = 0,
                               PcDStore store = PcDStore::tma, PcTile tile = PcTile::m128n256);
// nullptr where the combination is not instantiated.
const void* sm90_wgmma_ws_pc_function(DType input, int stages, PcTile tile = PcTile::m128n256);
// The _f32d instance of a 16-bit input (nullptr for others); sm90_wgmma_ws_pc_launch runs it when
// D is f32.
const void* sm90_wgmma_ws_pc_f32d_function(DType input);

// Split-K's GEMM pass on the _f32d instance: slab_args.desc is the problem with D the stack of
// f32 slabs (row-major, ld N, N % 4 == 0; alpha as given, beta 0) and slab_args.d the workspace;
// split s sums k-blocks [s * k_blocks_per_split, +k_blocks_per_split) into rows
// [s * slab_rows, +M). slab_rows: M rounded up to 64, so the 64-row store box stays in its slab.
struct PcSlabs {
  int splits = 1;
  int k_blocks_per_split = 0;
  int64_t slab_rows = 0;
};
Status sm90_wgmma_ws_pc_slabs_launch(const GemmArgs& slab_args, DType input, const PcSlabs& slabs);
// tile_k is 64 for the 16-bit inputs, 32 for tf32 (one 128-byte row either way).
Sm90WsShape sm90_wgmma_ws_pc_shape(int stages, DType input = DType::bf16, PcTile tile = PcTile::m128n256);

// The grid of g for 2-CTA clusters that own pairs of tile rows (the last pair may hold a row past
// M), every pair-tile running all k-blocks; shared with the ping-pong kernel.
struct PairGrid {
  int64_t tiles_m, tiles_n, pairs_m, pair_tiles;
  int k_tiles;
};
// The grid's counts into a kernel's Params (the cluster and ping-pong kernels name them alike).
template <class Params>
void set_pair_grid(Params& p, const PairGrid& pg) {
  p.tiles_m = pg.tiles_m;
  p.tiles_n = pg.tiles_n;
  p.pairs_m = pg.pairs_m;
  p.pair_tiles = pg.pair_tiles;
  p.k_tiles = pg.k_tiles;
}

inline PairGrid pair_grid(const GemmDesc& g, int64_t tile_m, int64_t tile_n, int64_t tile_k) {
  PairGrid pg{};
  pg.tiles_m = (g.m + tile_m - 1) / tile_m;
  pg.tiles_n = (g.n + tile_n - 1) / tile_n;
  pg.pairs_m = (pg.tiles_m + 1) / 2;
  pg.pair_tiles = pg.pairs_m * pg.tiles_n;
  pg.k_tiles = static_cast<int>((g.k + tile_k - 1) / tile_k);
  return pg;
}

// Stream-K on the same kernel (3 stages, bf16/f16): the pair-tiles past the last full round
// are cut along K into equal shares of k-blocks, one per cluster; partial tiles are handed over
// through the workspace and added in k order by the cluster that holds the tile's last k-block.
struct PcStreamKPlan {
  int64_t pair_tiles = 0;
  int k_tiles = 0;
  int64_t clusters = 0;     // the persistent grid, in clusters
  int64_t sk_tiles = 0;     // pair-tiles [0, sk_tiles) are split (the remainder of the rounds)
  int64_t sk_clusters = 0;  // clusters [0, sk_clusters) share their k-blocks
  int64_t sk_share = 0;     // k-blocks a sharing cluster runs (the first sk_extra run one more)
  int64_t sk_extra = 0;
};
// Shares nothing when the pair-tiles make whole rounds, or when the last round is more than
// half full (measured: no gain at the power cap); with no full round it always shares.
PcStreamKPlan plan_pc_streamk(int64_t pair_tiles, int k_tiles, int64_t clusters);
// Flags (one per CTA per consumer warpgroup) then one 128 KB f32 slot per sharing CTA.
std::size_t pc_streamk_workspace_bytes(const PcStreamKPlan& p);
// At most what the launch needs on this device (every cluster of current_sm_count() sharing).
std::size_t sm90_wgmma_ws_pc_streamk_workspace(const GemmDesc& g);
// Whether g has more than one tile row (with one, the second CTA of every pair would idle) and
// either at least one full round of pair-tiles and a last round the plan shares (at most half full;
// >= 64 k-blocks a tile), or a single round filling half to 60% of the clusters (and >= 64 k-blocks), on this
// device's SMs / 2 clusters: where gemm() prefers stream-K (bench/NOTES.md).
bool sm90_pc_streamk_shares_tail(const GemmDesc& g);
Status sm90_wgmma_ws_pc_streamk_supports(const GemmDesc& g, DType input);
Status sm90_wgmma_ws_pc_streamk_launch(const GemmArgs& args, DType input, int max_clusters = 0,
                                       PcDStore store = PcDStore::tma);
const void* sm90_wgmma_ws_pc_streamk_function(DType input);

}  // namespace tcgemm
