// Host entry points of the warp-specialized TMA + wgmma kernel (wgmma_tma_ws.cu), for the
// registry. Input is bf16 or f16; every other choice (layouts, tails, epilogue) is run time.
#pragma once

#include "runtime/registry.hpp"

namespace tcgemm {

struct Sm90WsShape {
  int tile_m, tile_n, tile_k, stages, threads, smem_bytes;
};

Status sm90_wgmma_ws_supports(const GemmDesc& g, DType input);
// allow_direct_store: full tiles of a row-major, 16-bit (input type) D with beta == 0 are stored
// straight from registers (the `_ds` kernels); otherwise the smem-staged epilogue runs.
Status sm90_wgmma_ws_launch(const GemmArgs& args, DType input, bool allow_direct_store = false);
const void* sm90_wgmma_ws_function(DType input, bool direct_store = false);  // the TN instance, for attributes
Sm90WsShape sm90_wgmma_ws_shape();

}  // namespace tcgemm
