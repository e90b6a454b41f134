// What the kernels that load 16-bit operands element by element (the tiny and skinny kernels)
// require of their pointers: A and B on their 2-byte elements, D (and C where beta reads it) on
// theirs; and how many elements an operand spans from its base, for their offset limits.
#pragma once

#include <cstdint>

#include "tcgemm/problem.hpp"
#include "tcgemm/types.hpp"

namespace tcgemm {

inline int64_t stored_span(const MatrixDesc& x, StoredExtent e) {
  const int64_t ld = effective_ld(x, e);
  return x.layout == Layout::row ? (e.rows - 1) * ld + e.cols : (e.cols - 1) * ld + e.rows;
}

inline Status check_element_pointers(const GemmDesc& g) {
  if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0)
    return Status(StatusCode::misaligned, "A and B must be aligned to their 2-byte elements");
  if (g.d.pointer_alignment % dtype_bytes(g.d.dtype) != 0)
    return Status(StatusCode::misaligned, "D must be aligned to its elements");
  if (g.beta != 0.0f && g.c.pointer_alignment % dtype_bytes(g.c.dtype) != 0)
    return Status(StatusCode::misaligned, "C must be aligned to its elements");
  return Status::success();
}

}  // namespace tcgemm
