// Stores a warpgroup's wgmma accumulators straight from registers into a row-major 16-bit D:
// no shared memory, no barrier, so a warp-specialized kernel's epilogue is a few hundred
// instructions instead of a staged, per-element loop.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/common/wgmma.cuh"

namespace tcgemm::dev {

// D[row0 + r][col0 + c] = alpha * acc for the 64 x N block of one m64nNk16 accumulator, D of the
// wgmma input type. The caller guarantees the block lies inside D, ldd is even and D is 4-byte
// aligned (every store is one aligned 16-bit pair).
//
// m64nNk16 f32 fragment: thread (warp w, lane l) of the warpgroup holds, for each 8-column block
// j, rows 16w + l/4 (+8) and columns 8j + 2(l%4) (+1) as acc[4j + 2h + e]. A warp's store thus
// covers 8 rows x 16 contiguous bytes: half-sector writes that L2 merges before DRAM.
template <WgmmaInput In, int kAccumulators>
__device__ __forceinline__ void store_accumulators_row16(const float (&acc)[kAccumulators], void* d, int64_t ldd,
                                                         int64_t row0, int64_t col0, float alpha) {
  using Elem = std::conditional_t<In == WgmmaInput::bf16, __nv_bfloat16, __half>;
  using Pair = std::conditional_t<In == WgmmaInput::bf16, __nv_bfloat162, __half2>;
  const int lane = threadIdx.x % 32;
  const int warp_in_group = (threadIdx.x / 32) % 4;
  const int64_t row = row0 + warp_in_group * 16 + lane / 4;
  Pair* d0 = reinterpret_cast<Pair*>(static_cast<Elem*>(d) + row * ldd + col0 + 2 * (lane % 4));
  Pair* d1 = d0 + 4 * ldd;  // 8 rows down, counted in pairs
#pragma unroll
  for (int j = 0; j < kAccumulators / 4; ++j) {
    if constexpr (In == WgmmaInput::bf16) {
      d0[4 * j] = __floats2bfloat162_rn(alpha * acc[4 * j], alpha * acc[4 * j + 1]);
      d1[4 * j] = __floats2bfloat162_rn(alpha * acc[4 * j + 2], alpha * acc[4 * j + 3]);
    } else {
      d0[4 * j] = __floats2half2_rn(alpha * acc[4 * j], alpha * acc[4 * j + 1]);
      d1[4 * j] = __floats2half2_rn(alpha * acc[4 * j + 2], alpha * acc[4 * j + 3]);
    }
  }
}

// A row-major 16-bit D through shared memory: the warpgroup's 64 x kTileN accumulators (alpha
// applied, rounded to D's type) go to `tile` (row pitch kTileN + 8 elements), then the threads
// write along D's rows, consecutive threads at consecutive addresses. Edges are bounded per
// element (rows_left/cols_left count from row0/col0 and may exceed the block or be <= 0). `vec` is
// the widest store every start allows: 8 elements (ldd % 8 == 0, D 16-byte aligned), 2 (ldd even,
// D 4-byte aligned) or 1. The caller makes the tile's shared memory free
// (no wgmma still reading it) before the call; `barrier` is a named barrier id of this warpgroup.
// NOTES: the staged f32 epilogue this replaces is a rolled per-element loop; one CTA per SM hides
// nothing, and a one-wave grid waits for its slowest (edge) CTA: 3240x544x392 ran 13.8 us under
// ncu against cuBLAS's 7.3 (run 72). Stores straight from the fragment (store_accumulators_row16,
// bounded per element) took 11.7 us: they write 8 rows x 16 bytes (or 2-byte halves) a warp
// instruction, and were ~60% of the stall samples of a 1-k-block 426x2589x40 kernel (run 75).
template <WgmmaInput In, int kTileN, int kAccumulators>
__device__ __forceinline__ void store_accumulators_row16_staged(const float (&acc)[kAccumulators], void* tile, void* d,
                                                                int64_t ldd, int64_t row0, int64_t col0,
                                                                int64_t rows_left, int64_t cols_left, float alpha,
                                                                int vec, int barrier) {
  static_assert(kAccumulators == kTileN / 2, "m64nN: N/2 accumulators a thread");
  using Elem = std::conditional_t<In == WgmmaInput::bf16, __nv_bfloat16, __half>;
  using Pair = std::conditional_t<In == WgmmaInput::bf16, __nv_bfloat162, __half2>;
  constexpr int kPitch = kTileN + 8;  // elements; 16 bytes of pad put a fragment's 8 rows on distinct banks
  Elem* t = static_cast<Elem*>(tile);
  const int lane = threadIdx.x % 32;
  const int warp_in_group = (threadIdx.x / 32) % 4;
  {
    const int r = warp_in_group * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < kAccumulators / 4; ++j) {
      const int c = 8 * j + 2 * (lane % 4);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float x = alpha * acc[4 * j + 2 * h], y = alpha * acc[4 * j + 2 * h + 1];
        Pair v;
        if constexpr (In == WgmmaInput::bf16)
          v = __floats2bfloat162_rn(x, y);
        else
          v = __floats2half2_rn(x, y);
        *reinterpret_cast<Pair*>(&t[(r + 8 * h) * kPitch + c]) = v;
      }
    }
  }
  asm volatile("bar.sync %0, 128;" ::"r"(barrier) : "memory");
  const int tid = threadIdx.x % 128;
  Elem* const out = static_cast<Elem*>(d);
  // Consecutive threads take consecutive stores of a row at every width, so a warp writes one
  // contiguous run: 512 bytes with 16-byte stores, 128 with pairs, 64 with halves.
  if (vec == 8) {
    constexpr int kChunksPerRow = kTileN / 8;
#pragma unroll 4
    for (int i = tid; i < 64 * kChunksPerRow; i += 128) {
      const int r = i / kChunksPerRow, c = 8 * (i % kChunksPerRow);
      if (r >= rows_left || c >= cols_left) continue;
      const uint4 chunk = *reinterpret_cast<const uint4*>(&t[r * kPitch + c]);
      Elem* dst = out + (row0 + r) * ldd + col0 + c;
      if (c + 8 <= cols_left) {
        *reinterpret_cast<uint4*>(dst) = chunk;
      } else {
        const Elem* src = reinterpret_cast<const Elem*>(&chunk);
#pragma unroll
        for (int e = 0; e < 8; ++e)
          if (c + e < cols_left) dst[e] = src[e];
      }
    }
  } else if (vec == 2) {
    constexpr int kPairsPerRow = kTileN / 2;
#pragma unroll 4
    for (int i = tid; i < 64 * kPairsPerRow; i += 128) {
      const int r = i / kPairsPerRow, c = 2 * (i % kPairsPerRow);
      if (r >= rows_left || c >= cols_left) continue;
      Elem* dst = out + (row0 + r) * ldd + col0 + c;
      if (c + 1 < cols_left)
        *reinterpret_cast<uint32_t*>(dst) = *reinterpret_cast<const uint32_t*>(&t[r * kPitch + c]);
      else
        dst[0] = t[r * kPitch + c];
    }
  } else {
#pragma unroll 4
    for (int i = tid; i < 64 * kTileN; i += 128) {
      const int r = i / kTileN, c = i % kTileN;
      if (r < rows_left && c < cols_left) out[(row0 + r) * ldd + col0 + c] = t[r * kPitch + c];
    }
  }
}

// The same fragment walk for split-K's f32 slabs: raw sums (no alpha) as 8-byte float pairs. The
// caller guarantees the block lies inside the slab, ld is even and the slab is 8-byte aligned.
template <int kAccumulators>
__device__ __forceinline__ void store_accumulators_row_f32(const float (&acc)[kAccumulators], float* d, int64_t ld,
                                                           int64_t row0, int64_t col0) {
  const int lane = threadIdx.x % 32;
  const int warp_in_group = (threadIdx.x / 32) % 4;
  const int64_t row = row0 + warp_in_group * 16 + lane / 4;
  float2* d0 = reinterpret_cast<float2*>(d + row * ld + col0 + 2 * (lane % 4));
  float2* d1 = d0 + 4 * ld;  // 8 rows down, counted in pairs
#pragma unroll
  for (int j = 0; j < kAccumulators / 4; ++j) {
    d0[4 * j] = make_float2(acc[4 * j], acc[4 * j + 1]);
    d1[4 * j] = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
  }
}

// Edge tiles of a row-major f32 slab: the same walk with the rows and columns past the slab's
// extent left out (rows_left/cols_left count from row0/col0 and may exceed the block). Pairs go out
// as one 8-byte store where ld is even, else as two 4-byte ones.
template <int kAccumulators>
__device__ __forceinline__ void store_accumulators_row_f32_bounded(const float (&acc)[kAccumulators], float* d,
                                                                   int64_t ld, int64_t row0, int64_t col0,
                                                                   int64_t rows_left, int64_t cols_left) {
  const int lane = threadIdx.x % 32;
  const int warp_in_group = (threadIdx.x / 32) % 4;
  const int r = warp_in_group * 16 + lane / 4;
  const bool pairs = ld % 2 == 0;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    if (r + 8 * h >= rows_left) continue;
    float* row = d + (row0 + r + 8 * h) * ld + col0;
#pragma unroll
    for (int j = 0; j < kAccumulators / 4; ++j) {
      const int c = 8 * j + 2 * (lane % 4);
      const float x = acc[4 * j + 2 * h], y = acc[4 * j + 2 * h + 1];
      if (c + 1 < cols_left) {
        if (pairs) {
          *reinterpret_cast<float2*>(row + c) = make_float2(x, y);
        } else {
          row[c] = x;
          row[c + 1] = y;
        }
      } else if (c < cols_left) {
        row[c] = x;
      }
    }
  }
}

}  // namespace tcgemm::dev
