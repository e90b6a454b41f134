// The CPU reference GEMM: D = alpha * scale_a * scale_b * (A x B) + beta * C, computed directly
// from the stored operands in every dtype and layout the library accepts. It is the independent
// answer the device kernels and cuBLASLt are checked against, so it favours being obviously
// right (plain loops, wide accumulation) over speed; threads only keep big checks bearable.
#pragma once

#include <cstdint>

#include "tcgemm/problem.hpp"

namespace tcgemm {

enum class Tf32Rounding : uint8_t {
  nearest_even,  // cvt.rn.tf32.f32
  nearest_away,  // cvt.rna.tf32.f32 (what sm_80 mma.sync kernels convert with)
  truncate,      // raw f32 bits handed to a tf32 MMA
};

struct ReferenceOptions {
  // Accumulate the dot products in double (the truth) or in float, summing k in order (closer to
  // what one thread of a device kernel sees, for studying accumulation error).
  bool fp64_accumulate = true;
  int threads = 0;  // 0 = std::thread::hardware_concurrency()
  // Per-tensor dequantization scales (TransformerEngine's scale_inv), applied to the products.
  // Meant for FP8 inputs; they apply to any dtype.
  float scale_a = 1.0f, scale_b = 1.0f;
  // How tf32 operands are rounded from their f32 storage before multiplying.
  Tf32Rounding tf32_rounding = Tf32Rounding::nearest_even;
};

// A, B, D must be non-null; C may be null only when beta == 0. Integer GEMMs (s8 x s8) accumulate
// exactly in 64 bits; the result is converted to D's dtype once, at the end, rounding to nearest
// and saturating for integer and FP8 outputs (NaN becomes 0 in an integer D).
Status reference_gemm(const GemmDesc& g, const void* A, const void* B, const void* C, void* D,
                      const ReferenceOptions& opt = {});

// Element i (an offset in elements) of a buffer of dtype t, widened to double. tf32 reads as f32.
double read_element(DType t, const void* p, int64_t i);
// Stores v into element i of a buffer of dtype t, rounding to nearest even (saturating for fp8
// and integer dtypes).
void write_element(DType t, void* p, int64_t i, double v);

}  // namespace tcgemm
