// Host entry points of the warp-specialized TMA + wgmma kernel (wgmma_tma_ws.cu), for the
// registry. Input is bf16 or f16; every other choice (layouts, tails, epilogue) is run time.
#pragma once

#include "runtime/registry.hpp"

namespace tcgemm {

struct Sm90WsShape {
  int tile_m, tile_n, tile_k, stages, threads, smem_bytes;
};

Status sm90_wgmma_ws_supports(const GemmDesc& g, DType input);
Status sm90_wgmma_ws_launch(const GemmArgs& args, DType input);
const void* sm90_wgmma_ws_function(DType input);  // the TN instance, for attributes
Sm90WsShape sm90_wgmma_ws_shape();

}  // namespace tcgemm
