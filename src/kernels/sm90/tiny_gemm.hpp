// One launch for tiny problems, any layout and alignment (tiny_gemm.cu): the small side (M, or N
// with A/B swapped: 16 rows a CTA, up to 64 in blocks) on the CUDA cores, K split over the CTAs of
// a thread-block cluster and summed through distributed shared memory in rank order (bitwise reproducible, no workspace).
// Why: below a few MFLOP every tensor-core path of ours is latency: 2-3 dependent launches where an
// operand breaks TMA's 16-byte rule, a pipeline fill and a staged epilogue where it does not, and
// cuBLAS's GEMV-like kernels ran 1x617x633 in 8.4 us against our best 14.5 (bench/NOTES.md, run 162).
// Every load here is a plain 2-byte element load, so no ld or base address is refused.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/path_rules.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

struct TinyPlan {
  bool swapped = false;  // the kernel's rows are N (D^T = B^T A^T)
  int tile_m = 0;        // 1, 4, 8 or 16: the instance's rows
  bool k_major = false;  // the kernel's B is contiguous along K (lanes along K)
  int splits = 1;        // CTAs of a cluster, along K
  int64_t k_per_rank = 0;
  int64_t tiles = 0;     // 32-column tiles of the kernel's N
  int row_blocks = 1;    // blocks of tile_m rows (the grid's y): more than one past 16 rows
};

// The grid (rows, tiles, cluster size): tiny_grid (analysis/path_rules.hpp), which gemm()'s gate
// and explain read too.

// ok for bf16/f16 A and B (the kernel's dtype), f32 accumulation, min(M, N) <= 64 (kTinyMaxRows),
// element-aligned pointers, any ld's and layouts.
Status sm90_tiny_supports(const GemmDesc& g, DType input);
// The forced split-K count (set_forced_split_k, the profiler's --split_k_slices), capped at 8,
// overrides the cluster size.
TinyPlan plan_tiny(const GemmDesc& g);
Status sm90_tiny_launch(const GemmArgs& args, DType input);
const void* sm90_tiny_function(DType input);

// The by-name `_tiny` entries and the gated `_tiny_small` ones (register_tiny.cu).
void add_sm90_tiny_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
