// Split-K's second pass: D = alpha * (sum of the f32 partial slabs, in a fixed order) + beta * C.
// Deterministic: the same inputs give bitwise the same D on every run (no atomics).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm {

struct SplitKReduceArgs {
  const float* partials = nullptr;  // `splits` slabs of M*N floats, slab z at partials + z*M*N
  int64_t slab_stride = 0;          // floats from one slab to the next when not M*N (padded slabs)
  int splits = 1;
  int64_t m = 0, n = 0;
  bool row_major = true;  // the slabs' layout (tight ld); D is read out along the same direction
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
