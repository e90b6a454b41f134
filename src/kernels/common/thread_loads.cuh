// A pipeline stage filled by plain loads instead of TMA: for operands TMA cannot address (a leading
// dimension or base pointer off its 16-byte rule), without a copy pass in front of the GEMM.
#pragma once

#include <cstdint>

namespace tcgemm::dev {

// Out[j] = bytes [mis, mis + 16*kChunks) of the 16-byte words w[0..kChunks], mis = 4*kQ + kSh/8.
template <int kChunks, int kQ>
__device__ __forceinline__ void shift_words(const uint4 (&w)[kChunks + 1], uint32_t sh, uint4 (&out)[kChunks]) {
  uint32_t u[4 * (kChunks + 1)];
#pragma unroll
  for (int i = 0; i <= kChunks; ++i) {
    u[4 * i] = w[i].x;
    u[4 * i + 1] = w[i].y;
    u[4 * i + 2] = w[i].z;
    u[4 * i + 3] = w[i].w;
  }
#pragma unroll
  for (int j = 0; j < kChunks; ++j) {
    uint32_t o[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int s = 4 * j + e + kQ;
      o[e] = s + 1 < 4 * (kChunks + 1) ? __funnelshift_r(u[s], u[s + 1], sh) : u[s];
    }
    out[j] = make_uint4(o[0], o[1], o[2], o[3]);
  }
}

// One stage's tile of kRows rows x 64 16-bit k-elements, K-major with the 128-byte swizzle (the
// layout a TMA box of the same shape leaves, which the wgmma descriptors read): element (r, k) at
// byte r*128 + ((k/8) ^ (r%8))*16 + (k%8)*2. Elements past r_max rows or k_max k's are zeros.
//
// The source's lines (its strided dimension: the tile's rows for a K-major operand, its k's for an
// MN-major one) go one or two to a thread; a thread reads its run of kChunks 8-element chunks as
// kChunks + 1 aligned 16-byte loads and funnel-shifts them into place. A run that crosses the
// matrix's edge (a tail, or the aligned words reaching outside [lo, hi), the bytes the matrix spans)
// is read element by element.
// NOTES: run 77 loaded every element with its own 2-byte load, run 78 each 8-element chunk as two
// 16-byte loads shifted by a run-time amount; both ran 1000x1000x1001 in ~95-103 us against 14 us
// through the copies and TMA. Under ncu (run 79) memory moved 42 GB/s: the four producer warps,
// one a scheduler, issued ~600 instructions a stage each (divisions by a run-time line length,
// 64-bit address math, select chains) at ~30 cycles between a warp's issues. Here the shift is a compile-time case of
// the line's alignment and the chunks of a line share their words: 40.4 us (run 80), still ~10 GB/s
// a SM, so gemm() keeps this path to problems of a few k-blocks (register_sm90.cu).
template <bool kKContig, int kRows>
__device__ __forceinline__ void thread_load_tile_impl(uint8_t* tile, const uint16_t* src, int64_t ld, int64_t r0,
                                                      int64_t r_max, int64_t k0, int64_t k_max, uintptr_t lo,
                                                      uintptr_t hi) {
  constexpr int kLines = kKContig ? kRows : 64;
  constexpr int kLength = kKContig ? 64 : kRows;  // elements of a line in the tile
  constexpr int kThreadsPerLine = 128 / kLines;
  static_assert(kThreadsPerLine == 1 || kThreadsPerLine == 2, "64- or 128-row tiles");
  constexpr int kChunks = kLength / 8 / kThreadsPerLine;
  const int tid = threadIdx.x % 128;
  const int line = tid / kThreadsPerLine;
  const int c0 = (tid % kThreadsPerLine) * kChunks * 8;
  const int64_t gl = (kKContig ? r0 : k0) + line, gc = (kKContig ? k0 : r0) + c0;
  const int64_t l_max = kKContig ? r_max : k_max, c_max = kKContig ? k_max : r_max;
  const uint16_t* p = src + gl * ld + gc;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p) & ~uintptr_t{15};
  uint4 out[kChunks];
  if (gl < l_max && gc + 8 * kChunks <= c_max && a >= lo && a + 16 * (kChunks + 1) <= hi) {
    const uint4* w16 = reinterpret_cast<const uint4*>(a);
    uint4 w[kChunks + 1];
#pragma unroll
    for (int i = 0; i <= kChunks; ++i) w[i] = w16[i];
    const uint32_t mis = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p) & 15);
    const uint32_t sh = (mis & 3) * 8;
    switch (mis >> 2) {
      case 0: shift_words<kChunks, 0>(w, sh, out); break;
      case 1: shift_words<kChunks, 1>(w, sh, out); break;
      case 2: shift_words<kChunks, 2>(w, sh, out); break;
      default: shift_words<kChunks, 3>(w, sh, out); break;
    }
  } else {
#pragma unroll
    for (int i = 0; i < kChunks; ++i) {
      uint32_t e[8];
#pragma unroll
      for (int j = 0; j < 8; ++j) e[j] = gl < l_max && gc + 8 * i + j < c_max ? p[8 * i + j] : 0u;
      out[i] = make_uint4(e[0] | e[1] << 16, e[2] | e[3] << 16, e[4] | e[5] << 16, e[6] | e[7] << 16);
    }
  }
#pragma unroll
  for (int i = 0; i < kChunks; ++i) {
    const int c = c0 + 8 * i;
    if constexpr (kKContig) {  // row `line`, k's c..c+7: one swizzled 16-byte chunk
      *reinterpret_cast<uint4*>(tile + line * 128 + (((c >> 3) ^ (line & 7)) << 4)) = out[i];
    } else {  // k `line`, rows c..c+7: one element in each of 8 rows (a warp's 32 k's: 4 chunks)
      const uint32_t w[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int r = c + j;
        *reinterpret_cast<uint16_t*>(tile + r * 128 + (((line >> 3) ^ (r & 7)) << 4) + (line & 7) * 2) =
            static_cast<uint16_t>(w[j / 2] >> (16 * (j % 2)));
      }
    }
  }
}

template <int kRows>
__device__ __forceinline__ void thread_load_tile(uint8_t* tile, const uint16_t* src, int64_t ld, bool k_contiguous,
                                                 int64_t r0, int64_t r_max, int64_t k0, int64_t k_max,
                                                 uintptr_t lo, uintptr_t hi) {
  if (k_contiguous)
    thread_load_tile_impl<true, kRows>(tile, src, ld, r0, r_max, k0, k_max, lo, hi);
  else
    thread_load_tile_impl<false, kRows>(tile, src, ld, r0, r_max, k0, k_max, lo, hi);
}

}  // namespace tcgemm::dev
