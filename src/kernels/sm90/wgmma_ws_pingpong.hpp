// Host entry points of the ping-pong persistent cluster kernel (wgmma_ws_pingpong.cu), for the
// registry: bf16/f16 with D of the input type, A row-major and B column-major (both K-major), D
// row-major, beta == 0, A/B/D meeting TMA's 16-byte rules (the persistent cluster kernel's
// contract, checked by the same rules).
#pragma once

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

Status sm90_wgmma_ws_pingpong_supports(const GemmDesc& g, DType input);
// stages: 4 (each consumer stages its whole 64x256 C tile, 32 KB, one store round) or 5 (8 KB of C
// a consumer, four rounds). max_clusters caps the persistent grid (0: as many 2-CTA clusters as
// can be resident at once).
Status sm90_wgmma_ws_pingpong_launch(const GemmArgs& args, DType input, int stages, int max_clusters = 0);
const void* sm90_wgmma_ws_pingpong_function(DType input, int stages);
// tile_m is one consumer warpgroup's tile (64); threads and shared memory are the CTA's.
Sm90WsShape sm90_wgmma_ws_pingpong_shape(int stages);

}  // namespace tcgemm
