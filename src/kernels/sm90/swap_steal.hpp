// Swap A/B for decode shapes with a shared tail (swap_steal.cu): the 64-row swapped tiles of
// swap_ab.hpp (M <= 32 on wgmma's narrow N), one CTA per SM, where each tile's owner streams the
// first ~3/4 of its K and the last ~1/4 of every tile is a pool of small chunks that any CTA
// takes when it is done with its own work. Why: the SMs do not stream at one rate. The ws
// kernel's trace at 16x8192x8192 (bench/NOTES.md, session 11) had the same 1 MB a CTA take 25 us
// on some SMs and 33 us on others, by SM position, so the slowest SM set the time; the pool lets
// the fast SMs finish the slow ones' tails, and the 4 SMs a 128-tile grid leaves idle join in.
// Deterministic: every part (the owner's head, each pool chunk) is summed from zero over fixed
// k-blocks and the tile's last finisher adds the parts in k order.
// Status (bench/NOTES.md, "A shared tail for the decode tiles"): balanced, correct, sanitizer-clean,
// and 3-5% slower than the plain swap tile, so gemm() does not pick it. TCGEMM_STEAL_CHUNK
// (k-blocks a pool chunk) and TCGEMM_STEAL_TAIL (1/x of K pooled) override the plan for sweeps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/registry.hpp"

namespace tcgemm {

struct SwapStealPlan {
  int tile_n = 16;        // the swapped tile's width (M's side): 16 or 32
  int64_t tiles = 0;      // 64-row tiles along N
  int grid = 0;           // CTAs: the SM count (>= tiles)
  int k_blocks = 0;       // 64-element k-blocks
  int chunk_kb = 0;       // k-blocks a pool chunk
  int tail_chunks = 0;    // pool chunks a tile (its last tail_chunks * chunk_kb k-blocks)
  int head_kb = 0;        // the owner's k-blocks (part 0)
  int parts = 0;          // 1 + tail_chunks
  std::size_t workspace_bytes = 0;  // tiles * parts * 64 * tile_n f32 partial sums
};

// sms: the SM count. Plans the head/tail split for a problem swap_steal_supports() accepts.
SwapStealPlan plan_swap_steal(const GemmDesc& g, int sms);

// ok for M <= 32, A row-major and B column-major (both K-major once swapped), TMA's 16-byte rule on
// lda/ldb, ceil(N/64) tiles within one CTA a SM, and K long enough for a pool (>= 16 k-blocks).
Status sm90_swap_steal_supports(const GemmDesc& g, DType input);
std::size_t sm90_swap_steal_workspace(const GemmDesc& g);
Status sm90_swap_steal_launch(const GemmArgs& args, DType input);
const void* sm90_swap_steal_function(DType input, int tile_n);
int sm90_swap_steal_stages(int tile_n);

}  // namespace tcgemm
