// The staged epilogue's stores (the ws kernel, kernels/sm90/wgmma_tma_ws_kernel.cuh): a consumer's
// f32 block, staged in shared memory, out to global along D's contiguous dimension, with C read
// where beta != 0. `Ep` is the kernel's epilogue parameters: d/c pointers and dtypes, row and
// column strides, alpha, beta, and the d_quads/c_quads alignment flags the host has checked.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "tcgemm/types.hpp"

namespace tcgemm::dev {

// Four elements of C at (row, col..col+3), zeros past `nv`; one 16-byte (f32) or 8-byte load where
// c_quads (ldc % 4 == 0, C aligned to 4 elements) and the quad is whole.
template <class Ep>
__device__ __forceinline__ void load_c_quad(const Ep& ep, int64_t at, int nv, float (&c)[4]) {
  if (nv == 4 && ep.c_quads) {
    if (ep.c_dtype == DType::f32) {
      const float4 x = *reinterpret_cast<const float4*>(static_cast<const float*>(ep.c) + at);
      c[0] = x.x, c[1] = x.y, c[2] = x.z, c[3] = x.w;
    } else {
      const uint2 x = *reinterpret_cast<const uint2*>(static_cast<const uint16_t*>(ep.c) + at);
      const uint32_t w[2] = {x.x, x.y};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const uint16_t h = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
        c[e] = ep.c_dtype == DType::bf16 ? __bfloat162float(__ushort_as_bfloat16(h)) : __half2float(__ushort_as_half(h));
      }
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) c[e] = e < nv ? load_epilogue(ep.c, at + e, ep.c_dtype) : 0.0f;
}

// Row-major D (and C, when beta != 0) from the staged f32 block: consecutive threads take
// consecutive 4-element quads of a row, so a warp writes 512 (f32) or 256 contiguous bytes.
// NOTES: the per-element loop below it (kept for a column-major D or C) issues ~45K instructions a
// 128x256 tile, a 2-byte or 4-byte store each (run 3's ncu at 4096^3); every D that is not the
// cluster kernel's (f32 D, beta != 0, another layout) paid that with one CTA per SM. Run 82, 4096^3
// bf16: beta = 1 434 -> 280 us (cuBLAS 210-216), an f32 D 253 -> 235 us (cuBLAS 214-222).
template <int kTileN, int kPitch, class Ep>
__device__ __forceinline__ void store_staged_rows(const float* staged, void* d, const Ep& ep, int64_t row_base,
                                                  int64_t n0, int rows, int cols) {
  constexpr int kQuads = kTileN / 4;
  constexpr int kIters = 64 * kQuads / 128;  // a thread's quads
  // NOTES: C's loads go out kBatch quads at a time before any is used; one quad, one load at a
  // time (run 82) waited out each load's latency: 4096^3 bf16 with an f32 C, beta = 1, 275.5 ->
  // 233.1 us (run 85).
  constexpr int kBatch = kIters < 8 ? kIters : 8;
  static_assert(kIters % kBatch == 0, "whole batches a thread");
  const int t = threadIdx.x % 128;
#pragma unroll 1
  for (int b0 = 0; b0 < kIters; b0 += kBatch) {
    float cv[kBatch][4];
    if (ep.beta != 0.0f) {
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        const int i = t + 128 * (b0 + j);
        const int r = i / kQuads, c = 4 * (i % kQuads);
        const int nv = r < rows && c < cols ? min(4, cols - c) : 0;
        load_c_quad(ep, (row_base + r) * ep.c_row_stride + n0 + c, nv, cv[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int i = t + 128 * (b0 + j);
      const int r = i / kQuads, c = 4 * (i % kQuads);
      if (r >= rows || c >= cols) continue;
      const float4 s = *reinterpret_cast<const float4*>(&staged[r * kPitch + c]);
      float v[4] = {ep.alpha * s.x, ep.alpha * s.y, ep.alpha * s.z, ep.alpha * s.w};
      const int nv = min(4, cols - c);
      if (ep.beta != 0.0f)
        for (int e = 0; e < 4; ++e) v[e] += ep.beta * cv[j][e];
      const int64_t at = (row_base + r) * ep.d_row_stride + n0 + c;
      if (nv == 4 && ep.d_quads) {
        if (ep.d_dtype == DType::f32) {
          *reinterpret_cast<float4*>(static_cast<float*>(d) + at) = make_float4(v[0], v[1], v[2], v[3]);
        } else if (ep.d_dtype == DType::bf16) {
          const __nv_bfloat162 lo = __floats2bfloat162_rn(v[0], v[1]), hi = __floats2bfloat162_rn(v[2], v[3]);
          *reinterpret_cast<uint2*>(static_cast<__nv_bfloat16*>(d) + at) =
              make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
        } else {
          const __half2 lo = __floats2half2_rn(v[0], v[1]), hi = __floats2half2_rn(v[2], v[3]);
          *reinterpret_cast<uint2*>(static_cast<__half*>(d) + at) =
              make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
        }
      } else {
        for (int e = 0; e < nv; ++e) store_epilogue(d, at + e, ep.d_dtype, v[e]);
      }
    }
  }
}

// The staged epilogue with a column-major 16-bit D, beta == 0, ldd % 8 == 0 and D 16-byte aligned
// (the swapped problems' D^T, kernels/sm90/swap_ab.hpp): 8 consecutive rows of a column go out as
// one 16-byte store, 8 threads a column's 64 rows, instead of one 2-byte store an element.
template <int kTileN, int kPitch, class Ep>
__device__ __forceinline__ void store_staged_cols16(const float* staged, void* d, const Ep& ep, int64_t row_base,
                                                    int64_t n0, int rows, int cols) {
  constexpr int kVecs = 8 * kTileN;
  const int t = threadIdx.x % 128;
  const bool bf16 = ep.d_dtype == DType::bf16;
#pragma unroll
  for (int i0 = 0; i0 < kVecs; i0 += 128) {
    const int i = i0 + t;
    const int c = i / 8, r0 = 8 * (i % 8);
    if (c >= cols || r0 >= rows) continue;
    float v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = ep.alpha * staged[(r0 + e) * kPitch + c];
    const int64_t at = row_base + r0 + (n0 + c) * ep.d_col_stride;
    if (r0 + 8 <= rows) {
      uint32_t w[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (bf16) {
          const __nv_bfloat162 x = __floats2bfloat162_rn(v[2 * q], v[2 * q + 1]);
          w[q] = *reinterpret_cast<const uint32_t*>(&x);
        } else {
          const __half2 x = __floats2half2_rn(v[2 * q], v[2 * q + 1]);
          w[q] = *reinterpret_cast<const uint32_t*>(&x);
        }
      }
      *reinterpret_cast<uint4*>(static_cast<uint16_t*>(d) + at) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e)  // unrolled: v stays in registers
        if (e < rows - r0) store_epilogue(d, at + e, ep.d_dtype, v[e]);
    }
  }
}

}  // namespace tcgemm::dev
