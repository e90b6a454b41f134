// Swap A/B onto the persistent cluster kernel's fitting widths: D^T = B^T A^T, so N (the long
// side) takes the 128-row side of the tile and M its width of 144-192. M then pads to a multiple of
// the width rather than of 128 rows, and no CTA holds a tile row past M: 320x8192x8192 ran 0.72x
// cuBLAS on 128x256 pairs with a quarter of the CTAs ghosts (bench/NOTES.md, "Swapped fitting
// widths"). The kernel stores the swapped problem's column-major D, i.e. the caller's row-major D,
// one width x 64 box a consumer (C likewise TMA-loaded into it where beta != 0). TN (A row-major, B
// column-major), D (and C) row-major in the input type; gemm() takes it where swap_fit_tile_width
// (analysis/path_rules.hpp) says so.
#pragma once

#include <cstdint>

#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// The fitting tile of a width in kFitWidths (144, 160, 176, 192).
PcTile pc_fit_tile(int64_t width);

// Layouts, dtypes, C's (beta != 0), N % 8 == 0 (the D box's 16-byte lines end inside each row) and TMA's
// rules on the swapped operands; not the shape rule (gemm()'s entry adds swap_fit_tile_width).
Status sm90_pc_swap_supports(const GemmDesc& g, DType input);
// The swapped problem on the given fitting tile (tests and the profiler pick any width);
// max_clusters caps the persistent grid (0: every cluster that fits).
Status sm90_pc_swap_launch(const GemmArgs& args, DType input, PcTile tile, int max_clusters = 0);

}  // namespace tcgemm
