// Skinny problems streamed in one pass (skinny_gemm.cu): min(M, N) <= 16 (the kernel's rows,
// N with A/B swapped) against a large operand, both contiguous along K (A row-major, B
// column-major), read once in 16-byte cp.async copies whatever the ld or base address. A
// misaligned column is copied from its 16-byte-aligned start and realigned from shared memory
// (the lane's chunk and its neighbour's, a byte permute), so no copy pass and no TMA; mma.sync m16n8k16 sums,
// K split over a cluster's CTAs and added through distributed shared memory in rank order (bitwise
// reproducible, no workspace).
// Why: past the tiny kernel's gate such problems ran the copies first (2x2332x10604: 49.5 MB of
// weights copied before the GEMM read them again, 0.58x cuBLAS; 1.02x on this kernel, run 188;
// bench/NOTES.md, sessions 22-23).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/registry.hpp"

namespace tcgemm {

inline constexpr int64_t kSkinnyMaxRows = 16;
inline constexpr int64_t kSkinnyTileCols = 64;  // a CTA's columns: 4 warps x 2 groups of 8

struct SkinnyPlan {
  bool swapped = false;   // the kernel's rows are N (D^T = B^T A^T)
  bool rows16 = false;    // more than 8 rows: the MMAs' upper half is live
  bool realign_a = false, realign_b = false;  // some row/column starts off a 16-byte boundary
  int splits = 1;         // CTAs of a cluster, along K
  int64_t k_per_rank = 0; // a multiple of 32
  int64_t tiles = 0;      // 64-column tiles of the kernel's columns
};

// ok for bf16/f16 A and B, f32 accumulation, min(M, N) <= 16, both operands contiguous along K
// (A row-major, B column-major: a decode GEMM's layout), element-aligned pointers, any ld.
Status sm90_skinny_supports(const GemmDesc& g, DType input);
// The forced split-K count (the profiler's --split_k_slices), capped at 8, fixes the cluster size.
SkinnyPlan plan_skinny(const GemmDesc& g);
Status sm90_skinny_launch(const GemmArgs& args, DType input);
const void* sm90_skinny_function(DType input);

// The by-name `_skinny` entries and the gated `_skinny_stream` ones.
void add_sm90_skinny_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
