// The ws kernel's TMA multicast clusters (wgmma_tma_ws.hpp, Sm90Multicast): how a split-K pass in
// clusters is sized, and the registry entries that run them (register_multicast.cu).
#pragma once

#include <vector>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// Splits for v's tiles in clusters of mc: choose_splits (split_k.hpp) over the CTAs one round of
// resident clusters holds instead of the SM count (clusters of 4 keep about 120 of 132 SMs).
int multicast_splits(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc);

void add_sm90_multicast_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
