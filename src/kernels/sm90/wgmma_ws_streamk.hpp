// Host entry points of the stream-K / serial split-K kernel (wgmma_ws_streamk.cu): the persistent
// warp-specialized 128x256x64 kernel with work units that may end mid-tile, and a deterministic
// in-kernel fix-up of partial tiles through a workspace. K-major A and B (A row-major, B
// column-major) only; D and C as the persistent kernel (f32/f16/bf16, either layout, any ld).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// The work split both modes compute on the host and the kernel walks (one CTA per SM).
struct StreamKPlan {
  bool serial = false;     // serial split-K (units = tile x split) instead of stream-K
  int64_t tiles = 0;       // 128x256 output tiles
  int64_t k_blocks = 0;    // 64-wide k-blocks per tile
  int64_t grid = 0;        // CTAs
  // stream-K: tiles [0, sk_tiles) are cut into sk_tiles*k_blocks MAC iterations shared evenly by
  // all CTAs; tiles [sk_tiles, tiles) are whole (data-parallel) tiles, round robin.
  int64_t sk_tiles = 0;
  // serial split-K: every tile in `splits` units of k_per_split k-blocks (the last one clipped).
  int splits = 1;
  int64_t k_per_split = 0;
  // Serial with one unit per CTA: every split sums 1/S of its tile over all S partials (a
  // reduce-scatter) instead of the last split adding S-1 partials alone.
  bool distributed = false;
  int64_t slots = 0;       // partial tiles that may be handed over (flags + 128 KB f32 each)
};

// sms: the SM count (one CTA per SM). stream-K: full waves data-parallel, the remainder shared
// in iterations by all CTAs (plus one more wave when the remainder alone would cut a tile into
// more than 4 pieces); no full wave: floor(sms / tiles) aligned pieces a tile (at most 16), which
// are serial split-K units (serial = true in the plan). Serial: choose_splits(g, sms).
StreamKPlan plan_streamk(const GemmDesc& g, int sms, bool serial);
std::size_t streamk_workspace_bytes(const StreamKPlan& p);

// stream-K: refuses shapes whose tiles fill whole waves (the persistent kernel has no tail there).
Status sm90_wgmma_ws_streamk_supports(const GemmDesc& g, DType input);
std::size_t sm90_wgmma_ws_streamk_workspace(const GemmDesc& g);
Status sm90_wgmma_ws_streamk_launch(const GemmArgs& args, DType input);
// Tests and benchmarks: run a given stream-K plan (grid, sk_tiles) instead of plan_streamk's;
// the data-parallel tiles must be a multiple of the grid, each CTA needs a split iteration.
Status sm90_wgmma_ws_streamk_launch_plan(const GemmArgs& args, DType input, const StreamKPlan& plan);

// Serial split-K (split count from choose_splits, so --split_k_slices / set_forced_split_k reach
// it): refuses, unless a count is forced, shapes for which one split would be chosen.
Status sm90_wgmma_ws_serial_splitk_supports(const GemmDesc& g, DType input);
std::size_t sm90_wgmma_ws_serial_splitk_workspace(const GemmDesc& g);
Status sm90_wgmma_ws_serial_splitk_launch(const GemmArgs& args, DType input);

const void* sm90_wgmma_ws_streamk_function(DType input, bool direct_store = false);
Sm90WsShape sm90_wgmma_ws_streamk_shape();

}  // namespace tcgemm
