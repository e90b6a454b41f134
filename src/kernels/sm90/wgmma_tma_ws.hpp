// Host entry points of the warp-specialized TMA + wgmma kernel (wgmma_tma_ws.cu), for the
// registry. Input is bf16 or f16 (any A/B layout) or tf32 (f32 storage; A row-major and B
// column-major only); every other choice (layouts, tails, epilogue) is run time.
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
// Split-K's first pass (split_k.cu runs it, then the reduce): gridDim.z = splits, split z multiplies
// k-blocks [z*k_blocks_per_split, (z+1)*k_blocks_per_split) (the last one clipped to K) and stores
// its raw f32 sum, no alpha/beta, to partials + z*M*N (in D's layout, tight ld: N for row-major
// D, M for column-major). The splits must tile the
// k-blocks with none empty. args.d/args.c are not touched.
Status sm90_wgmma_ws_launch_partials(const GemmArgs& args, DType input, int k_blocks_per_split, int splits,
                                     float* partials);
const void* sm90_wgmma_ws_function(DType input, bool direct_store = false);  // the TN instance, for attributes
// (tf32 has no direct-store instance: its D is f32; direct_store is ignored for it).
// tile_k is 64 for the 16-bit inputs, 32 for tf32 (one 128-byte row either way).
Sm90WsShape sm90_wgmma_ws_shape(DType input = DType::bf16);

}  // namespace tcgemm
