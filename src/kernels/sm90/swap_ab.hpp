// Swap A/B for small M (decode shapes, M <= 128): D^T = B^T * A^T, so the problem's large N takes
// wgmma's 64-row side (two consumer warpgroups, 128 rows a CTA) and its small M becomes a narrow
// wgmma N of 16, 32, 64 or 128. A 128x256 tile at M = 16 multiplies 88% padding; the swapped
// 64x16 tile multiplies none, and its 16-stage ring keeps B streaming (82% of the copy-bandwidth
// floor at 16x8192x8192, bench/NOTES.md). K splits in the same plan when the tiles alone leave SMs idle.
#pragma once

#include <cstddef>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// The transposed problem: m' = n, n' = m, A' = B^T, B' = A^T, C' = C^T, D' = D^T (each a flip of
// the layout over the same memory; ld's and alignments carry over).
GemmDesc swapped_desc(const GemmDesc& g);

// The narrow tile width for this M: the smallest of 16, 32, 64, 128 that holds it (M <= 128).
int swap_ab_tile_n(int64_t m);
// The variant gemm() runs for this M: 64-row tiles (one consumer warpgroup) for widths 16 and 32,
// so a decode shape's N alone makes enough CTAs; 128-row tiles for 64 and 128.
Sm90WsVariant swap_ab_variant(int64_t m);

struct SwapAbPlan {
  Sm90WsVariant variant;
  int splits = 1;
  int k_blocks_per_split = 0;
  std::size_t workspace_bytes = 0;  // splits * M * N * 4 when splits > 1
};
// Splits chosen by a memory-bound model: CTAs = tiles * splits run in waves of sm_count, each CTA
// streams its rows of B over K / splits; splitting also writes and re-reads splits * M * N f32.
// No split when the tiles alone occupy at least half the SMs (measured: the stream is then at
// HBM's rate already, and splits only cost).
// The forced split count (set_forced_split_k) wins when set.
SwapAbPlan plan_swap_ab(const GemmDesc& g, int sm_count, Sm90WsVariant v);

// ok when M fits the variant's width and needs it (M > half of it; 16 takes 1..16), A is row-major
// (K-major: it becomes B', which the narrow tiles read K-major) and the swapped problem meets the
// narrow kernel's rules.
Status sm90_swap_ab_supports(const GemmDesc& g, DType input, Sm90WsVariant v);
std::size_t sm90_swap_ab_workspace(const GemmDesc& g, Sm90WsVariant v);
int sm90_swap_ab_splits(const GemmDesc& g, Sm90WsVariant v);
Status sm90_swap_ab_launch(const GemmArgs& args, DType input, Sm90WsVariant v);

}  // namespace tcgemm
