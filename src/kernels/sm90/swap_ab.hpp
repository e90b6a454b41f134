// Swap A/B for small M (decode shapes, M <= 128): D^T = B^T * A^T, so the problem's large N takes
// wgmma's 64-row side (two consumer warpgroups, 128 rows a CTA) and its small M becomes a narrow
// wgmma N of 16, 32, 64 or 128. A 128x256 tile at M = 16 multiplies 88% padding; the swapped
// 64x16 tile multiplies none, and its 16-stage ring keeps B streaming (82% of the copy-bandwidth
// floor at 16x8192x8192, bench/NOTES.md). K splits in the same plan when the tiles alone leave SMs idle.
#pragma once

#include <cstddef>
#include <string>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// The transposed problem: m' = n, n' = m, A' = B^T, B' = A^T, C' = C^T, D' = D^T (each a flip of
// the layout over the same memory; ld's and alignments carry over).
GemmDesc swapped_desc(const GemmDesc& g);
// The arguments of that problem: its desc, A' = B and B' = A (the same buffers), the rest as given.
GemmArgs swapped_args(const GemmArgs& a);

// The narrow tile width for this M: the smallest of 16, 32, 64, 128 that holds it (M <= 128).
int swap_ab_tile_n(int64_t m);
// The default variant for this M: 64-row tiles (one consumer warpgroup) for widths 16 and 32, so a
// decode shape's N alone makes enough CTAs; 128-row tiles for 64 and 128 (gemm()'s gated entries
// take other row counts where their rules hold: register_sm90.cu).
Sm90WsVariant swap_ab_variant(int64_t m);

struct SwapAbPlan {
  Sm90WsVariant variant;
  int splits = 1;
  int k_blocks_per_split = 0;
  // The splits of a tile as one cluster, summed in shared memory (sm90_wgmma_ws_launch_cluster_split):
  // 2..8 splits on the widths of 16 and 32 and the one-consumer 64-wide tile (sums of 4-16 KB a CTA),
  // and at forced counts on every TMA-loaded tile up to 128 wide.
  bool in_cluster = false;
  // Unsplit (splits = 1) but more than a round of tiles with a last round at most half full: tiles
  // from tail_first on run in tail_splits splits, summed in clusters (every CTA then sits in a
  // cluster of that size, so only where those fill every SM).
  int64_t tail_first = 0;
  int tail_splits = 1;
  std::size_t workspace_bytes = 0;  // splits * M * N * 4 when split into slabs
};
// Diagnosis: TCGEMM_DIAG_NO_CLUSTER_SPLIT=1 keeps every split on the slabs and the reduce (to
// measure the cluster sum against them in one build).
bool swap_cluster_split_disabled();
// Diagnosis: TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1 lets the planner sum the 64- and 128-wide tiles'
// splits in clusters too (one round of clusters, as the narrow tiles), instead of the slab model.
bool swap_cluster_split_wide();
// Splits of the two-consumer 64- and 128-wide tiles chosen by a memory-bound model: CTAs = tiles * splits run in
// waves of sm_count, each CTA streams its rows of B over K / splits; splitting also writes and
// re-reads splits * M * N f32. No split when the tiles alone occupy at least half the SMs
// (measured: the stream is then at HBM's rate already, and splits only cost) but for the tail
// split above.
// The forced split count (set_forced_split_k) wins when set (summed in clusters wherever 2..8 splits
// of a 16- or 32-wide tile can be, fitting one round or not). Otherwise the 16- and 32-wide tiles
// take the most splits (<= 8) whose clusters fit one round, summed in the clusters: no workspace.
// NOTES: the reduce launch and the slab round trip cost ~2-3 us at 16x4096x4096 (17.4 us against
// 15.3 in clusters of 2, run 190), where the whole stream is ~11 us.
SwapAbPlan plan_swap_ab(const GemmDesc& g, int sm_count, Sm90WsVariant v);
// Clusters of `splits` CTAs of v resident at once: the device's answer where one with sm_count SMs
// is present, else the H200's measured one scaled to sm_count; 0 past kMaxClusterSplits.
int swap_cluster_capacity(Sm90WsVariant v, int splits, int sm_count);

// ok when M fits the variant's width and needs it (M > half of it; 16 takes 1..16), A is row-major
// (K-major: it becomes B', which the narrow tiles read K-major) and the swapped problem meets the
// narrow kernel's rules.
Status sm90_swap_ab_supports(const GemmDesc& g, DType input, Sm90WsVariant v);
std::size_t sm90_swap_ab_workspace(const GemmDesc& g, Sm90WsVariant v);
int sm90_swap_ab_splits(const GemmDesc& g, Sm90WsVariant v);
Status sm90_swap_ab_launch(const GemmArgs& args, DType input, Sm90WsVariant v);
// The same tiles and plan without the swap: 64 rows of M a tile, N in the narrow width (cuBLAS's
// choice at M = 64: 64x32 tiles over all of K, run 198). gemm() runs the 64-wide one for M of 33-64
// (register_sm90.cu); the 16/32-wide ones are by name (they lost to the swap tiles, run 200).
Status sm90_narrow_supports(const GemmDesc& g, DType input, Sm90WsVariant v);
std::size_t sm90_narrow_workspace(const GemmDesc& g, Sm90WsVariant v);
int sm90_narrow_splits(const GemmDesc& g, Sm90WsVariant v);
Status sm90_narrow_launch(const GemmArgs& args, DType input, Sm90WsVariant v);
// The plan in words, for `tcgemm explain`: the swapped tile and how K is split and summed.
std::string sm90_swap_ab_describe(const GemmDesc& g, Sm90WsVariant v);

}  // namespace tcgemm
