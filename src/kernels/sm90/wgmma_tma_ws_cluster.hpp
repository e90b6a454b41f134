// Host entry points of the 2-CTA-cluster, B-multicast variant of the warp-specialized TMA + wgmma
// kernel (wgmma_tma_ws_cluster.cu), for the registry. Same constraints as wgmma_tma_ws; full tiles
// of a row-major 16-bit D with beta == 0 take the register-store epilogue.
#pragma once

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

Status sm90_wgmma_ws_cluster_supports(const GemmDesc& g, DType input);
Status sm90_wgmma_ws_cluster_launch(const GemmArgs& args, DType input);
const void* sm90_wgmma_ws_cluster_function(DType input);  // the TN instance, for attributes
Sm90WsShape sm90_wgmma_ws_cluster_shape();

}  // namespace tcgemm
