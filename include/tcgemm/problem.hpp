// The GEMM problem: D = alpha * A * B + beta * C, A logically MxK, B KxN, C and D MxN.
#pragma once

#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm {

struct MatrixDesc {
  DType dtype = DType::bf16;
  Layout layout = Layout::row;
  // Leading dimension in elements; 0 means "tight" (the row length for row-major storage,
  // the column length for column-major).
  int64_t ld = 0;
  // Byte alignment of the base pointer the caller will pass (a power of two). The analyzer uses
  // it for the alignment record; gemm() reads the real pointer instead.
  uint32_t pointer_alignment = 256;
};

struct GemmDesc {
  int64_t m = 0, n = 0, k = 0;
  MatrixDesc a{DType::bf16, Layout::row};
  MatrixDesc b{DType::bf16, Layout::column};
  MatrixDesc c{DType::bf16, Layout::row};
  MatrixDesc d{DType::bf16, Layout::row};
  DType accumulate = DType::f32;
  float alpha = 1.0f;
  float beta = 0.0f;
};

// Rows and columns of an operand as stored (A is MxK, B is KxN, C and D are MxN).
struct StoredExtent { int64_t rows, cols; };
StoredExtent extent_a(const GemmDesc& g);
StoredExtent extent_b(const GemmDesc& g);
StoredExtent extent_c(const GemmDesc& g);

// The tight leading dimension for an operand of that extent and layout.
constexpr int64_t tight_ld(StoredExtent e, Layout l) { return l == Layout::row ? e.cols : e.rows; }
// ld as given, or the tight one when 0.
int64_t effective_ld(const MatrixDesc& m, StoredExtent e);
// Elements an operand spans in memory, first to last: (outer - 1) * ld + inner.
int64_t stored_elements(const MatrixDesc& m, StoredExtent e);

// Largest dimension any path accepts. Index math is 64-bit throughout; this bounds a single
// operand at 2^31 elements per dimension, past which no GPU holds the data anyway.
inline constexpr int64_t kMaxDim = int64_t{1} << 31;

// The alignment of an address as MatrixDesc::pointer_alignment counts it: its largest power-of-two
// divisor, capped at 256 (and 256 for a null pointer, which is never dereferenced).
uint32_t address_alignment(const void* p);

// Checks sizes (>= 1, <= kMaxDim), leading dimensions (>= the stored row length), the dtype
// combination and pointer alignments (power of two). Messages name the offending field.
Status validate(const GemmDesc& g);

}  // namespace tcgemm
