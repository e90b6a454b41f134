// Verification: compare a GEMM's D with a float reference on the device, and the input
// utilities verification needs (seeded random fill, NaN poison).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "tcgemm/problem.hpp"

namespace tcgemm {

struct Tolerance {
  double rel_norm = 1e-2;     // ||D - ref|| / ||ref||
  double elementwise = 5e-2;  // |d - r| <= elementwise * max(|d| + |r|, floor)
};

// By the inputs' and D's dtypes, whichever is looser: bf16 1e-2, f16 5e-3, tf32 2e-3, f32 1e-5,
// e4m3 6e-2, e5m2 1.2e-1 (e5m2 has 2 mantissa bits: rounding alone is ~7e-2 in norm).
// Elementwise: 5x the norm tolerance (a maximum over millions of elements sits in the tail),
// at least 1e-4 and at most 0.1.
Tolerance default_tolerance(const GemmDesc& desc);
// Comparing against another implementation's rounded output (cuBLAS) rather than an
// unrounded float reference: both sides carry rounding, so twice the budget.
Tolerance against_rounded_reference(Tolerance t);
// For the cuBLAS baseline row: cuBLASLt may split K and reduce the partials in D's dtype (seen on
// the H200 at 4097^3 bf16: splitK=4, rel_norm 2.6e-3 but near-zero elements off by 0.13 of the
// floor), so its elementwise budget is three times ours; the norm budget stays.
Tolerance for_baseline(Tolerance t);

struct VerifyResult {
  bool passed = false;
  double rel_norm = 0;       // ||D - ref|| / ||ref|| over elements where ref is finite
  double max_rel = 0;        // max |d - r| / max(|d| + |r|, floor); floor = rms(ref) / 10
  uint64_t failures = 0;     // elements over the elementwise tolerance (NaN/Inf included)
  uint64_t nan_count = 0;    // D is NaN or Inf where ref is finite (an unwritten poison stays NaN)
  std::string message;       // one line: what failed, or the numbers that passed
};

// d and ref are row-major M x N floats on the device (convert_to_float_device gives d).
// Synchronizes `stream`. A non-ok Status only for CUDA errors; a wrong D is a VerifyResult.
Result<VerifyResult> compare_device(const float* d, const float* ref, int64_t m, int64_t n,
                                    const Tolerance& tol, cudaStream_t stream = nullptr);

// Converts D (desc.d) to float into `scratch` (M*N floats) and compares with ref.
Result<VerifyResult> verify_gemm_output(const GemmDesc& desc, const void* D, const float* ref,
                                        float* scratch, const Tolerance& tol,
                                        cudaStream_t stream = nullptr);

// Fills `count` elements of `dtype` with values uniform in [lo, hi], rounded to the dtype
// (tf32 stored as f32 and rounded to tf32), from a counter-based hash of (seed, index), so the
// same seed gives the same data on any GPU. Fails (invalid_argument) when every element came
// out zero, which would hide unwritten outputs and wrong indexing. Synchronizes `stream`.
Status fill_random_device(void* data, std::size_t count, DType dtype, double lo, double hi,
                          uint64_t seed, cudaStream_t stream = nullptr);

// Sets every byte to 0xFF: NaN in f64, f32, f16, bf16, e4m3 and e5m2, so an element a kernel
// forgot to write fails verification.
Status poison_device(void* data, std::size_t bytes, cudaStream_t stream = nullptr);

}  // namespace tcgemm
