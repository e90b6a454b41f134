// The ws kernel's TMA multicast clusters (wgmma_tma_ws.hpp, Sm90Multicast): how a split-K pass in
// clusters is sized, and the registry entries that run them (register_multicast.cu).
#pragma once

#include <vector>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// Splits for v's tiles in clusters of mc: the forced count when one is set, else as many as one
// round of resident clusters holds (clusters of 4 keep about 120 of 132 SMs), at most 64 and
// k_blocks / 2, then evened out as choose_splits does (ceil(k_blocks / splits) blocks a split).
int multicast_splits(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc);

void add_sm90_multicast_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
