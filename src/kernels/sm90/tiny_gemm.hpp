// One launch for tiny problems, any layout and alignment (tiny_gemm.cu): the small side (M, or N
// with A/B swapped, at most 16) on the CUDA cores, K split over the CTAs of a thread-block cluster
// and summed through distributed shared memory in rank order (bitwise reproducible, no workspace).
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
};

// CTAs a cluster for `tiles` 32-column tiles and this K on `sms` SMs: the most of 1, 2, 4 and 8
// whose clusters all fit at once (a second round of clusters cost more than the split saved:
// run 170, 7x1000x1001 at 32 tiles ran 10.2 us in clusters of 2 and 15.6 in clusters of 8), with at
// least 32 k a rank.
int tiny_cluster_size(int64_t tiles, int64_t k, int sms);

// ok for bf16/f16 A and B (the kernel's dtype), f32 accumulation, min(M, N) <= 16, element-aligned
// pointers, any ld's and layouts.
Status sm90_tiny_supports(const GemmDesc& g, DType input);
// The forced split-K count (set_forced_split_k, the profiler's --split_k_slices), capped at 8,
// overrides the cluster size.
TinyPlan plan_tiny(const GemmDesc& g);
Status sm90_tiny_launch(const GemmArgs& args, DType input);
const void* sm90_tiny_function(DType input);

// The by-name `_tiny` entries and the gated `_tiny_small` ones (register_tiny.cu).
void add_sm90_tiny_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
