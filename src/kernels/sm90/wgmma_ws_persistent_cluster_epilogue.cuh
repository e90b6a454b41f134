// The persistent cluster kernel's epilogue helpers: packing to the 16-bit D types, the stores of D
// by the consumer threads (any ld: PcDStore::threads) and the transposed staging of a column-major D
// (the swapped problem, pc_swap.hpp).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/sm90/wgmma_ws_persistent_cluster_config.cuh"

namespace tcgemm::sm90_pc {

__device__ __forceinline__ void st_shared_b32(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ void st_shared_v2_f32(uint32_t addr, float x, float y) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(x), "f"(y) : "memory");
}

// Two floats as one 4-byte word of the 16-bit input type (lo in the low half), and back.
template <WgmmaInput In>
__device__ __forceinline__ uint32_t pack_pair(float lo, float hi) {
  if constexpr (In == WgmmaInput::bf16) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&v);
  } else {
    const __half2 v = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&v);
  }
}
template <WgmmaInput In>
__device__ __forceinline__ float2 unpack_pair(uint32_t bits) {
  if constexpr (In == WgmmaInput::bf16) return __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&bits));
  else return __half22float2(*reinterpret_cast<const __half2*>(&bits));
}

// PcDStore::threads: one consumer's 64 x kStoreCols chunk of C, from its swizzled boxes to D, by the
// consumer's 128 threads. A row of D at an odd ld starts anywhere inside a 16-byte chunk, so the
// chunk is cut along D's own 16-byte boundaries: each thread takes output chunk q of a row (kG + 1
// of them: the first and last partial), reads the two C-buffer chunks it straddles and shifts them
// by the row's offset (s elements) into one 16-byte store; a partial chunk (row ends, N) goes out
// by predicated element stores of the same shifted chunk.
__device__ __forceinline__ uint4 shift_chunks(const uint32_t (&x)[8], int s, bool half_words) {
  // Words s / elements-a-word .. +4 of x; with 16-bit elements and s odd, each output word takes
  // the high half of one and the low half of the next. Unrolled selects: a run-time index into x
  // would go to local memory.
  const int sw = half_words ? s / 2 : s;
  uint32_t y[5];
#pragma unroll
  for (int w = 0; w < 5; ++w) {
    uint32_t v = x[w];
#pragma unroll
    for (int k = 1; k < 4; ++k)
      if (sw == k) v = x[w + k < 8 ? w + k : 7];
    y[w] = v;
  }
  if (half_words && (s & 1)) {
#pragma unroll
    for (int w = 0; w < 4; ++w) y[w] = __byte_perm(y[w], y[w + 1], 0x5432);
  }
  return make_uint4(y[0], y[1], y[2], y[3]);
}

template <class C>
__device__ __forceinline__ void store_chunk_by_threads(const Params& p, uint32_t c_buffer, int32_t row0,
                                                       int32_t chunk_n0, int t) {
  constexpr int kC = C::kChunkCols;                   // elements per 16 bytes
  constexpr int kG = C::kStoreCols / kC;              // 16-byte chunks per row of the C chunk
  constexpr int kChunksPerBoxRow = C::kBoxCols / kC;  // 8
  const int cols = static_cast<int>(min(p.n - chunk_n0, static_cast<int64_t>(C::kChunkTileCols)));
  const int rows = static_cast<int>(min(p.m - row0, int64_t{64}));
  if (cols <= 0 || rows <= 0) return;  // a chunk wholly past N, or a slab past M
  const int64_t base_elem = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.d) / C::kDBytes);
  auto smem_chunk = [&](int r, int j) {
    return c_buffer + (j / kChunksPerBoxRow) * C::kBoxBytes + r * C::kSwizzleBytes +
           ((static_cast<uint32_t>(j % kChunksPerBoxRow) ^ static_cast<uint32_t>(r % 8)) * 16);
  };
  for (int i = t; i < rows * (kG + 1); i += 128) {
    const int r = i / (kG + 1), q = i % (kG + 1);
    const int64_t first = (row0 + r) * p.ldd + chunk_n0;  // D's element offset of this row's local column 0
    const int s = static_cast<int>((kC - (base_elem + first) % kC) % kC);  // first local column on a boundary
    const int ls = s + (q - 1) * kC;  // this output chunk's first local column (C chunks q-1 and q)
    const int lo = max(ls, 0), hi = min(ls + kC, cols);
    if (hi <= lo) continue;
    uint32_t x[8];
    const uint32_t a0 = smem_chunk(r, q - 1 < 0 ? 0 : q - 1), a1 = smem_chunk(r, q < kG ? q : kG - 1);
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]) : "r"(a0) : "memory");
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x[4]), "=r"(x[5]), "=r"(x[6]), "=r"(x[7]) : "r"(a1) : "memory");
    const uint4 v = shift_chunks(x, s, C::kDBytes == 2);
    uint8_t* out = static_cast<uint8_t*>(p.d) + (first + ls) * C::kDBytes;  // 16-byte aligned
    if (hi - lo == kC) {
      *reinterpret_cast<uint4*>(out) = v;
      continue;
    }
    // A partial chunk (a row's ends, N): elements [lo - ls, hi - ls) of v by predicated stores.
    // NOTES: no shared-memory loads in this loop; reading such elements one by one, the whole warp
    // waited them out on every row (+10% at 4096x4095x4096 against +6.6% now, bench/NOTES.md).
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < kC; ++j) {
      if (j < lo - ls || j >= hi - ls) continue;
      if constexpr (C::kDBytes == 4) {
        reinterpret_cast<uint32_t*>(out)[j] = w[j];
      } else {
        reinterpret_cast<uint16_t*>(out)[j] = static_cast<uint16_t>(j % 2 ? w[j / 2] >> 16 : w[j / 2] & 0xffffu);
      }
    }
  }
}

// The swapped problem's epilogue (p.d_trans): D is column-major, so the consumer's 64 x kTileN
// fragment is written transposed, as kTileN lines of 64 elements (one 128-byte swizzle row each),
// the box a TMA store then writes to D (the caller's row-major D: kTileN of its rows, 64 of its
// columns). A thread holds rows r = frag_row (+8) and column pairs (c, c+1); lane l ^ 4 holds row
// r ^ 1 of the same columns, so after two shuffles each thread writes two rows of one column as a
// 4-byte word: even rows take column c, odd rows column c + 1. Per store instruction a warp covers
// 8 lines x 16 bytes; the swizzle puts the 8 lines' chunks on distinct banks. kWithC: C's box was
// TMA-loaded into the buffer (the same transposed layout), read at the word each thread then writes.
template <class C, WgmmaInput In, bool kWithC>
__device__ __forceinline__ void stage_transposed(const float (&acc)[C::kAccumulators], float alpha, float beta,
                                                 uint32_t c_buffer, int frag_row, int lane) {
  static_assert(C::kDBytes == 2, "the transposed store packs 16-bit pairs");
  const bool odd = (lane / 4) % 2 != 0;
  const uint32_t col_in_pair = odd ? 1u : 0u;
#pragma unroll
  for (int j = 0; j < C::kTileN / 8; ++j) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const float x = alpha * acc[4 * j + 2 * h], y = alpha * acc[4 * j + 2 * h + 1];  // (r, c), (r, c+1)
      const float ox = __shfl_xor_sync(0xffffffffu, x, 4), oy = __shfl_xor_sync(0xffffffffu, y, 4);  // row r ^ 1
      // even r: (r, c) low, (r+1, c) high; odd r: (r-1, c+1) low, (r, c+1) high
      float lo = odd ? oy : x, hi = odd ? y : ox;
      const uint32_t c = static_cast<uint32_t>(8 * j + 2 * (lane % 4)) + col_in_pair;
      const uint32_t r = static_cast<uint32_t>(frag_row + 8 * h) - col_in_pair;
      const uint32_t addr = c_buffer + c * C::kSwizzleBytes + (((r / 8) ^ (c % 8)) * 16) + (r % 8) * 2;
      if constexpr (kWithC) {
        uint32_t bits;
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(bits) : "r"(addr) : "memory");
        const float2 cv = unpack_pair<In>(bits);
        lo = fmaf(beta, cv.x, lo);
        hi = fmaf(beta, cv.y, hi);
      }
      st_shared_b32(addr, pack_pair<In>(lo, hi));
    }
  }
}

}  // namespace tcgemm::sm90_pc
