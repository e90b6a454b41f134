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

}  // namespace tcgemm
