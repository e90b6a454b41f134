// Split-K's second pass: D = alpha * (sum of the f32 partial slabs, in a fixed order) + beta * C.
// Deterministic: the same inputs give bitwise the same D on every run (no atomics).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm {

// The f32 slabs' line stride for an MxN D in `row_major` slabs: a row-major slab's rows padded to 4
// floats, so that every split tile stores float pairs straight from registers and the reduce reads
// float4s whatever N is. NOTES: with N = 777 the odd ld sent every split tile through the staged
// epilogue; 333x777x4099 on the copies at 3 splits of 128x64 ran 24.1 us (run 157), 21.6-22.3 padded
// (run 158; bench/NOTES.md).
// Column-major slabs keep M (they take the staged, column-coalesced epilogue anyway).
constexpr int64_t split_slab_ld(int64_t m, int64_t n, bool row_major) { return row_major ? (n + 3) / 4 * 4 : m; }
// The bytes of `splits` such slabs.
constexpr std::size_t split_slabs_bytes(int64_t m, int64_t n, bool row_major, int splits) {
  return static_cast<std::size_t>(splits) * static_cast<std::size_t>(row_major ? m : n) *
         static_cast<std::size_t>(split_slab_ld(m, n, row_major)) * sizeof(float);
}

struct SplitKReduceArgs {
  const float* partials = nullptr;  // `splits` slabs of M*N floats, slab z at partials + z*M*N
  int64_t slab_stride = 0;          // floats from one slab to the next when not M*N (padded slabs)
  int64_t slab_ld = 0;              // floats from one slab line to the next when not the line's length
  int splits = 1;
  int64_t m = 0, n = 0;
  bool row_major = true;  // the slabs' layout (lines of slab_ld); D is read out along the same direction
  float alpha = 1.0f, beta = 0.0f;
  const void* c = nullptr;  // read only when beta != 0
  DType c_dtype = DType::f32;
  int64_t c_row_stride = 0, c_col_stride = 0;  // element (r, c) at r*row_stride + c*col_stride
  void* d = nullptr;
  DType d_dtype = DType::f32;
  int64_t d_row_stride = 0, d_col_stride = 0;
};

// The C and D dtypes the reduce reads and writes: f32, f16 or bf16.
bool splitk_reduce_dtype(DType t);
Status splitk_reduce(const SplitKReduceArgs& args, cudaStream_t stream);

}  // namespace tcgemm
