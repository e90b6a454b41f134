// The device reference: one thread per output, FP32 (or FP64) accumulation of the same rounded
// inputs the kernels see. Slow and obviously right; used by tests and the profiler's verifier.
#pragma once

#include <cuda_runtime_api.h>

#include "tcgemm/problem.hpp"

namespace tcgemm {

// Writes alpha*A*B + beta*C as float, row-major M x N with leading dimension N, into `out`
// (which must hold M*N floats). Reads A, B, C exactly as the desc describes them (dtype, layout,
// ld). tf32 inputs are rounded to tf32 first, as the Tensor Cores do. C may be nullptr when
// beta == 0.
Status reference_gemm_device(const GemmDesc& desc, const void* A, const void* B, const void* C,
                             float* out, bool fp64_accumulate, cudaStream_t stream = nullptr);

// Reads D (desc.d's dtype, layout, ld) into float row-major M x N, for comparison.
Status convert_to_float_device(const GemmDesc& desc, const void* D, float* out,
                               cudaStream_t stream = nullptr);

}  // namespace tcgemm
