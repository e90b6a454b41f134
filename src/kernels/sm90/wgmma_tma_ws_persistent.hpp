// Host entry points of the persistent warp-specialized TMA + wgmma kernel
// (wgmma_tma_ws_persistent.cu), for the registry. Same shape and constraints as wgmma_tma_ws.
#pragma once

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

Status sm90_wgmma_ws_persistent_supports(const GemmDesc& g, DType input);
Status sm90_wgmma_ws_persistent_launch(const GemmArgs& args, DType input, bool allow_direct_store = false);
const void* sm90_wgmma_ws_persistent_function(DType input, bool direct_store = false);  // the TN instance, for attributes
Sm90WsShape sm90_wgmma_ws_persistent_shape();

}  // namespace tcgemm
