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
                                       uint32_t box_inner, uint32_t box_outer, bool promote_l2 = true,
                                       bool swizzle_128b = true);

// A K-major operand seen as 3D, {64-element K chunk, lines, K / 64 chunks}, so that one box of
// {64, box_rows, box_chunks} carries box_chunks k-blocks of 64 (128-byte swizzle), landing in shared
// memory as box_chunks 2D boxes one after another: fewer TMA operations a k-block
// (bench/NOTES.md, session 49). line_length must be a multiple of 64 (a chunk past K would read
// the next line, not zeros); 16-bit types only.
Result<TensorMap2d> make_tensor_map_k_chunks(const char* operand, DType dtype, const void* base, uint64_t line_length,
                                             uint64_t lines, int64_t ld, uint32_t box_rows, uint32_t box_chunks);

// Row classes: a K-major operand whose ld (or base) breaks TMA's 16-byte rule, read by TMA anyway.
// Rows r, r + 8, r + 16, ... lie 8 * ld elements apart, and 8 * ld * 2 bytes is a multiple of 16 for
// any ld, so each of the 8 classes of rows (r mod 8) is a legal 2D tensor once its base is rounded
// down to 16 bytes; the rounding is undone by starting every box `x0` elements in. A box of R rows
// of class j then holds rows 8q + j, ..., 8(q + R - 1) + j: a tile of 8R rows arrives as 8 boxes,
// row-permuted, and the kernel un-permutes its output (wgmma_tma_ws_kernel.cuh).
inline constexpr int kRowClasses = 8;
struct RowClassLayout {
  uint64_t base[kRowClasses];  // class j's first row, rounded down to 16 bytes
  int32_t x0[kRowClasses];     // elements from base[j] to that row's first element (0..7)
  int64_t rows[kRowClasses];   // rows in class j: ceil((lines - j) / 8), 0 when lines <= j
  // The order the realign takes classes in (row_class_realign.cuh), a permutation: positions 0-3 and
  // 4-7 each hold classes of different x0 / 2 where the x0's allow it (always for an odd ld), so a warp
  // step's 4 rows read different banks.
  int32_t order[kRowClasses];
};
// Pure arithmetic (host-testable): `address` must be element-aligned.
RowClassLayout row_class_layout(uint64_t address, int64_t ld, int64_t lines, uint32_t element_bytes);

struct RowClassMaps {
  CUtensorMap map[kRowClasses];  // class j with lines_j >= 1; a class with no rows repeats class 0's map
  int32_t x0[kRowClasses];
  int32_t rows[kRowClasses];
  int32_t order[kRowClasses];
};
// Boxes of box_inner (<= 128 bytes) x box_rows, unswizzled (the realign's 4-byte loads need no
// swizzle to spread over the banks, and its addresses then need no XOR), zero fill past each class's
// rows and past line_length (K).
Result<RowClassMaps> make_row_class_maps(const char* operand, DType dtype, const void* base, uint64_t line_length,
                                         uint64_t lines, int64_t ld, uint32_t box_inner, uint32_t box_rows,
                                         bool promote_l2 = true);

}  // namespace tcgemm
