// Parallel split-K on the persistent cluster kernel: the _f32d instance sums each split's
// k-blocks into an f32 slab by TMA store (B multicast across the CTA pair, as for every tile of
// that kernel), then the fixed-order reduce (common/splitk_reduce.hpp) applies alpha, beta*C and
// D's type and layout. Bitwise deterministic. For small M*N with long K where the ws kernel's
// split-K ran 0.93-0.95x cuBLAS (512x1024x32768, bench/NOTES.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/registry.hpp"

namespace tcgemm {

struct PcSplitKPlan {
  int splits = 1;
  int k_blocks_per_split = 0;
  int64_t slab_rows = 0;          // M rounded up to the 64-row store box
  int64_t clusters = 0;           // pair-tiles x splits
  std::size_t workspace_bytes = 0;  // splits x slab_rows x N f32
};
// The split count: the forced one when set (set_forced_split_k), else split-K's planner's when it
// picks the 128x256 tile split (the same CTAs, now in pairs), else as many splits as fill the
// clusters (at least 2, at most 64 and half the k-blocks); then every split non-empty.
PcSplitKPlan plan_pc_split_k(const GemmDesc& g, DType input, int sm_count);
// "128x256 pairs, 8 K slices of 64 k-blocks, 64 clusters, 16.8 MB of f32 slabs".
std::string describe(const PcSplitKPlan& p);

// TN bf16/f16 with A and B meeting TMA's rules, N % 4 == 0 (the f32 slabs' TMA store), at least
// two k-blocks; C and D any layout in f32, f16 or bf16 (the reduce writes them).
Status sm90_pc_splitk_supports(const GemmDesc& g, DType input);
std::size_t sm90_pc_splitk_workspace(const GemmDesc& g, DType input);
Status sm90_pc_splitk_launch(const GemmArgs& args, DType input);

}  // namespace tcgemm
