// Split-K for the warp-specialized wgmma kernel: small M*N with long K (256x256x65536 is 2 output
// tiles on 132 SMs). Each split multiplies a range of whole 64-wide k-blocks into an f32 slab of
// the workspace; a reduce pass sums the slabs in a fixed order (bitwise deterministic) and applies
// alpha, beta*C and D's dtype.
#pragma once

#include <cstddef>

#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// Test/profiler only: every split-K kernel uses this split count (clipped to what K allows) instead
// of choosing one; 0 restores the automatic choice. Process-wide, not for concurrent use.
void set_forced_split_k(int splits);
int forced_split_k();

// The split count the split-K kernels will use for g on a GPU with sm_count SMs (the forced count
// when one is set): clamp(floor(SMs / tiles), 1, min(64, k_blocks / 2)), then reduced so that every
// split gets at least one k-block and the splits use ceil(k_blocks / splits) blocks each.
int choose_splits(const GemmDesc& g, int sm_count);
// ceil(k_blocks / splits): the k-blocks of every split but the last.
int split_k_blocks_per_split(const GemmDesc& g, int splits);

// SMs of the current device (132 when there is none, the H200's count, so that host-only callers
// get a stable answer).
int current_sm_count();

Status sm90_wgmma_ws_splitk_supports(const GemmDesc& g, DType input);
// splits * M * N * 4 bytes; 0 when one split is chosen (the plain kernel runs, writing D directly).
std::size_t sm90_wgmma_ws_splitk_workspace(const GemmDesc& g);
// The GEMM pass then the reduce, both on args.stream. Needs args.workspace (16-byte aligned for
// vector loads; any alignment works) of at least sm90_wgmma_ws_splitk_workspace() bytes.
Status sm90_wgmma_ws_splitk_launch(const GemmArgs& args, DType input);
// The two passes for a given tile variant and split (splits >= 2, every split non-empty): the
// building block the swap-A/B path shares. Checks the workspace (splits*M*N*4 bytes, 16-aligned).
Status sm90_wgmma_ws_run_split_k(const GemmArgs& args, DType input, Sm90WsVariant v, int splits,
                                 int k_blocks_per_split);

}  // namespace tcgemm
