// Swap A/B for small M (decode shapes, M <= 128): D^T = B^T * A^T, so the problem's large N takes
// wgmma's 64-row side (two consumer warpgroups, 128 rows a CTA) and its small M becomes a narrow
// wgmma N of 16, 32, 64 or 128. A 128x256 tile at M = 16 multiplies 88% padding; the swapped
// 128x16 tile multiplies none, and its 12-stage ring keeps enough of B in flight to stream it at
// memory speed. K splits in the same plan when the tiles alone leave SMs idle.
#pragma once

#include <cstddef>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// The transposed problem: m' = n, n' = m, A' = B^T, B' = A^T, C' = C^T, D' = D^T (each a flip of
// the layout over the same memory; ld's and alignments carry over).
GemmDesc swapped_desc(const GemmDesc& g);

// The narrow tile for this M: the smallest of 16, 32, 64, 128 that holds it (M <= 128).
int swap_ab_tile_n(int64_t m);

struct SwapAbPlan {
  Sm90WsVariant variant;
  int splits = 1;
  int k_blocks_per_split = 0;
  std::size_t workspace_bytes = 0;  // splits * M * N * 4 when splits > 1
};
// Splits chosen by a memory-bound model: CTAs = tiles * splits run in waves of sm_count, each CTA
// streams its 128 rows of B over K / splits; splitting also writes and re-reads splits * M * N f32.
// The forced split count (set_forced_split_k) wins when set.
SwapAbPlan plan_swap_ab(const GemmDesc& g, int sm_count);

// ok when M <= 128, A is row-major (K-major: it becomes B', which the narrow tiles read K-major)
// and the swapped problem meets the narrow kernel's rules. tile_n names the entry (its M range is
// (tile_n/2, tile_n], 16 covers 1..16), so exactly one swap entry takes a given M.
Status sm90_swap_ab_supports(const GemmDesc& g, DType input, int tile_n);
std::size_t sm90_swap_ab_workspace(const GemmDesc& g);
int sm90_swap_ab_splits(const GemmDesc& g);
Status sm90_swap_ab_launch(const GemmArgs& args, DType input);

}  // namespace tcgemm
