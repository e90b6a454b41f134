// Host entry points of the persistent, 2-CTA-cluster, TMA-store warp-specialized wgmma kernel
// (wgmma_ws_persistent_cluster.cu), for the registry. bf16/f16 with D of the input type, or tf32
// (f32 storage) with D f32; A row-major and B column-major (both K-major), D row-major,
// beta == 0, A/B/D meeting TMA's 16-byte rules.
#pragma once

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

Status sm90_wgmma_ws_pc_supports(const GemmDesc& g, DType input);
// stages: 3 (a 64 KB C buffer: the whole 16-bit tile, or an f32 tile in two halves) or 4 (32 KB:
// a 16-bit tile in two halves, an f32 tile in four quarters). max_clusters caps the
// persistent grid (0: as many 2-CTA clusters as can be resident at once).
Status sm90_wgmma_ws_pc_launch(const GemmArgs& args, DType input, int stages, int max_clusters = 0);
const void* sm90_wgmma_ws_pc_function(DType input, int stages);
// tile_k is 64 for the 16-bit inputs, 32 for tf32 (one 128-byte row either way).
Sm90WsShape sm90_wgmma_ws_pc_shape(int stages, DType input = DType::bf16);

}  // namespace tcgemm
