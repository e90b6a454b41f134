// 16-byte chunks of a 16-bit line that starts at any element: loaded as the aligned 16-byte chunks
// that cover it, each output chunk taken from a chunk and its successor by 32-bit funnel shifts.
// The repack copies (repack.cu) and the GEMM's own copies (in_kernel_copy.cuh) share these.
#pragma once

#include <cstdint>

namespace tcgemm::dev {

// Output words i = 0..3 of a chunk: 16 bytes starting 2 * x bytes into the 32 bytes w (K = x / 2
// words in; odd x: a half-word more, by funnel shift).
template <int K>
__device__ __forceinline__ uint4 take_chunk(const uint32_t (&w)[8], bool odd) {
  if (!odd) return make_uint4(w[K], w[K + 1], w[K + 2], w[K + 3]);
  return make_uint4(__funnelshift_r(w[K], w[K + 1], 16), __funnelshift_r(w[K + 1], w[K + 2], 16),
                    __funnelshift_r(w[K + 2], w[K + 3], 16), __funnelshift_r(w[K + 3], w[K + 4], 16));
}

// The 16 bytes that start x elements (0..7) into `cur`, continuing into `next`.
__device__ __forceinline__ uint4 shift_chunk(uint4 cur, uint4 next, int x) {
  const uint32_t w[8] = {cur.x, cur.y, cur.z, cur.w, next.x, next.y, next.z, next.w};
  switch (x / 2) {
    case 0: return take_chunk<0>(w, x & 1);
    case 1: return take_chunk<1>(w, x & 1);
    case 2: return take_chunk<2>(w, x & 1);
    default: return take_chunk<3>(w, x & 1);
  }
}

// shift_chunk for an x that differs between lanes: word selects and a byte permute, no branch
// (the skinny kernel's columns each start at their own phase).
__device__ __forceinline__ uint4 shift_chunk_per_lane(uint4 cur, uint4 next, int x) {
  const uint32_t w[8] = {cur.x, cur.y, cur.z, cur.w, next.x, next.y, next.z, next.w};
  uint32_t u[6], v[5];
#pragma unroll
  for (int i = 0; i < 6; ++i) u[i] = (x & 4) ? w[i + 2] : w[i];
#pragma unroll
  for (int i = 0; i < 5; ++i) v[i] = (x & 2) ? u[i + 1] : u[i];
  const uint32_t sel = (x & 1) ? 0x5432u : 0x3210u;
  return make_uint4(__byte_perm(v[0], v[1], sel), __byte_perm(v[1], v[2], sel), __byte_perm(v[2], v[3], sel),
                    __byte_perm(v[3], v[4], sel));
}

__device__ __forceinline__ uint4 shfl_chunk(uint4 v, int from) {
  return make_uint4(__shfl_sync(~0u, v.x, from), __shfl_sync(~0u, v.y, from), __shfl_sync(~0u, v.z, from),
                    __shfl_sync(~0u, v.w, from));
}

// A warp's 512-element segment from its 65 aligned chunks: lane l loaded chunks l (c0) and 32 + l
// (c1), lane 0 also chunk 64 (extra); x is the segment's start mod 16 bytes, in elements
// (warp-uniform). Returns lane l's output chunks l and 32 + l.
__device__ __forceinline__ void shift_segment(uint4 c0, uint4 c1, uint4 extra, int x, int lane, uint4& out0,
                                              uint4& out1) {
  // The next chunk of each: lane + 1's, and for lane 31 lane 0's second (then its extra).
  const uint4 up0 = shfl_chunk(c0, (lane + 1) % 32), up1 = shfl_chunk(c1, (lane + 1) % 32);
  const uint4 wrap0 = shfl_chunk(c1, 0), wrap1 = shfl_chunk(extra, 0);
  const uint4 next0 = lane == 31 ? wrap0 : up0, next1 = lane == 31 ? wrap1 : up1;
  out0 = shift_chunk(c0, next0, x);
  out1 = shift_chunk(c1, next1, x);
}

}  // namespace tcgemm::dev
