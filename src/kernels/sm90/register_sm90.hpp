// The sm90 registry's pieces (register_sm90.cu builds the table): the families' entry builders in
// files of their own, and the split-K plan checks that the ws, repack and persistent cluster
// entries share.
#pragma once

#include <vector>

#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/types.hpp"

namespace tcgemm {

// Whether a planned split-K entry runs this plan: declines a plan no tile supports, the 128x256
// tile unsplit (`who` serves that: the plain kernel, the repack path), and, unless a split count
// is forced, a plan of more than one round of CTAs (the persistent kernels serve it).
Status sm90_planned_fits(const SplitKPlan& p, const char* who);

// The split-K plan for the repacked problem (the copies' aligned ld's).
SplitKPlan sm90_repacked_plan(const GemmDesc& g, DType input, WsLoads loads = WsLoads::tma);

// Swap A/B onto the narrow tiles, the unswapped one-consumer tiles and the swap-steal tiles
// (register_swap.cu).
void add_sm90_swap_kernels(std::vector<KernelEntry>& table);

// The persistent cluster kernel's entries (its tiles, split-K, repack, stream-K) and the ping-pong
// kernel's (register_pc.cu).
void add_sm90_pc_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
