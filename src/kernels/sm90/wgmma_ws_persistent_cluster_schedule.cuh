// The persistent cluster kernel's work schedule: which tile a cluster's pair-tile is (the raster
// order), and the walk over work units (whole pair-tiles, stream-K shares, split-K slabs) that the
// producer and the consumers of both CTAs of a cluster follow in step.
#pragma once

#include <cstdint>

#include "kernels/sm90/wgmma_ws_persistent_cluster_config.cuh"

namespace tcgemm::sm90_pc {

// Tile order, shared by producer and consumers: pair-tile pt (a cluster's work item) -> tile
// coordinates. Groups of p.group pair rows sweep all tile columns (along M), or groups of p.group
// tile columns sweep all pair rows (along N), so the clusters resident at once share B columns
// and a band of A rows in L2.
struct TileCoord {
  int32_t m0, n0;
  bool ghost;  // odd tiles_m: nothing of this CTA's tile to store
};

template <class C>
__device__ __forceinline__ TileCoord tile_coord(int64_t pt, uint32_t rank, const Params& p) {
  int64_t pair_m, tile_n;
  if (p.along_n) {
    const int64_t group_tiles = p.group * p.pairs_m;
    const int64_t first_n = (pt / group_tiles) * p.group;
    const int64_t group_cols = min(p.tiles_n - first_n, static_cast<int64_t>(p.group));
    const int64_t in_group = pt % group_tiles;
    tile_n = first_n + in_group % group_cols;
    pair_m = in_group / group_cols;
  } else {
    const int64_t group_tiles = p.group * p.tiles_n;
    const int64_t first_pm = (pt / group_tiles) * p.group;
    const int64_t group_rows = min(p.pairs_m - first_pm, static_cast<int64_t>(p.group));
    const int64_t in_group = pt % group_tiles;
    pair_m = first_pm + in_group % group_rows;
    tile_n = in_group / group_rows;
  }
  const bool ghost = C::kClusterM * pair_m + rank >= p.tiles_m;
  const int64_t tile_m = ghost ? C::kClusterM * pair_m : C::kClusterM * pair_m + rank;
  return {static_cast<int32_t>(tile_m * C::kTileM), static_cast<int32_t>(tile_n * C::kTileN), ghost};
}

// A cluster's work: k-blocks [kb_begin, kb_end) of pair-tile pt. Both CTAs of a cluster walk
// the same units (B is multicast), producer and consumers alike, so their stage counters agree.
// A unit that stops short of the last k-block contributes a partial tile; one that holds the last
// but not the first owns the tile (its contributors are the clusters before it); else it is whole.
// (Derived where needed rather than carried: the consumers' registers are full of accumulators.)
struct Unit {
  int64_t pt;
  int kb_begin, kb_end;
  int split;  // the slab it stores to (split-K); 0 otherwise
};

// NOTES: pair-tile indices are 32-bit (M*N < 2^47 elements, so < 2^31 pair-tiles of 2^16):
// the producer runs on 40 registers and spilled with a 64-bit walk.
struct Walk {
  int64_t sk_begin, sk_end;  // this cluster's split iterations (pair-tile * k_tiles + k-block) left
  int32_t dp;                // its next whole pair-tile
};

__device__ __forceinline__ Walk walk_start(const Params& p, int64_t cluster) {
  Walk w{0, 0, static_cast<int32_t>(p.sk_tiles + cluster)};
  if (cluster < p.sk_clusters) {
    w.sk_begin = cluster * p.sk_share + min(cluster, p.sk_extra);
    w.sk_end = w.sk_begin + p.sk_share + (cluster < p.sk_extra ? 1 : 0);
  }
  return w;
}

// The sharing cluster that runs split iteration i.
__device__ __forceinline__ int64_t sk_cluster_of(const Params& p, int64_t i) {
  const int64_t cut = p.sk_extra * (p.sk_share + 1);
  return i < cut ? i / (p.sk_share + 1) : p.sk_extra + (i - cut) / p.sk_share;
}

// NOTES: a cluster walks its split range backwards, tile by tile. Its first unit is then the
// head of its last tile (a contributor, unless the range ends on a tile edge) and every later
// split unit ends on a tile edge (an owner, or a whole tile). Owners wait only for other
// clusters' first units, which never wait themselves: no chain of waits, and no deadlock since
// the persistent grid is co-resident. Split units come before the whole tiles, so an owner's
// wait overlaps its producer's loads of the next tile.
template <bool kStreamK>
__device__ __forceinline__ bool walk_next(const Params& p, Walk& w, Unit& u) {
  if constexpr (kStreamK) {
    if (w.sk_end > w.sk_begin) {
      const int64_t tile = (w.sk_end - 1) / p.k_tiles;
      const int64_t start = max(w.sk_begin, tile * p.k_tiles);
      u.pt = tile;
      u.kb_begin = static_cast<int>(start - tile * p.k_tiles);
      u.kb_end = static_cast<int>(w.sk_end - tile * p.k_tiles);
      u.split = 0;
      w.sk_end = start;
      return true;
    }
  }
  if constexpr (kStreamK) {
    if (w.dp >= p.pair_tiles) return false;
    u = {w.dp, 0, p.k_tiles, 0};
  } else {
    if (w.dp >= p.pair_tiles * p.splits) return false;
    // Split-major: the clusters resident at once share a K range, so A and B panels meet in L2.
    // 32-bit (pair-tiles x splits < 2^31, checked at launch): the producer has 40 registers.
    const int32_t pair_tiles = static_cast<int32_t>(p.pair_tiles);
    const int split = w.dp / pair_tiles;
    const int kb0 = split * p.k_per_split;
    u = {w.dp - split * pair_tiles, kb0, min(p.k_tiles, kb0 + p.k_per_split), split};
  }
  w.dp += static_cast<int32_t>(gridDim.x / 2);  // clusters
  return true;
}

}  // namespace tcgemm::sm90_pc
