// Host-side TMA descriptors (CUtensorMap) for 2D 16-bit and 32-bit (f32/tf32) operands, built with the driver's
// cuTensorMapEncodeTiled reached through cudaGetDriverEntryPointByVersion, so nothing links libcuda.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums (types only)

#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm {

// What TMA demands of an operand before any map is built: a 16-byte aligned base and a leading
// dimension whose byte stride is a multiple of 16. `operand` is "A" or "B" and names the field in
// the message, e.g. "A: lda*2 bytes = 8194 is not a multiple of 16 (TMA stride rule); use the
// repack path".
Status check_tma_operand(const char* operand, DType dtype, uint64_t base_alignment, int64_t ld);

// A 2D map over a matrix of `lines` lines of `line_length` contiguous elements, `ld` elements
// apart; boxes of box_inner x box_outer elements, 128-byte swizzle (box_inner * element bytes
// must be <= 128), out-of-bounds elements read as zero, 256-byte L2 promotion unless
// `promote_l2` is false (the 64-row decode tiles stream faster without it: bench/NOTES.md, run 55).
struct TensorMap2d {
  CUtensorMap map;
};
Result<TensorMap2d> make_tensor_map_2d(const char* operand, DType dtype, const void* base,
                                       uint64_t line_length, uint64_t lines, int64_t ld,
                                       uint32_t box_inner, uint32_t box_outer, bool promote_l2 = true);

}  // namespace tcgemm
