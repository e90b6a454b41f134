// Host entry points of the persistent, 2-CTA-cluster, TMA-store warp-specialized wgmma kernel
// (wgmma_ws_persistent_cluster.cu), for the registry. bf16/f16, A row-major and B column-major
// (both K-major), D row-major of the input type, beta == 0, A/B/D meeting TMA's 16-byte rules.
#pragma once

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

Status sm90_wgmma_ws_pc_supports(const GemmDesc& g, DType input);
// stages: 3 (one 64 KB C tile) or 4 (C staged in two 32 KB halves). max_clusters caps the
// persistent grid (0: as many 2-CTA clusters as can be resident at once).
Status sm90_wgmma_ws_pc_launch(const GemmArgs& args, DType input, int stages, int max_clusters = 0);
const void* sm90_wgmma_ws_pc_function(DType input, int stages);
Sm90WsShape sm90_wgmma_ws_pc_shape(int stages);

}  // namespace tcgemm
