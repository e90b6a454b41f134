// The row-class loader's second half (tensor_map.hpp, wgmma_tma_ws.cu): TMA can only start a box at
// a 16-byte aligned global address, so each class's k-block box lands x0 (0..7) elements early. Three
// warps shift every row back into place, from the raw ring into the natural 128B-swizzled K-major
// stage that wgmma reads, and un-permute the rows (raw row j*R + i of a class-major box is tile row
// 8i + j).
#pragma once

#include <cstdint>

#include "kernels/common/mbarrier.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"

namespace tcgemm::dev {

__device__ __forceinline__ uint4 lds128(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  return v;
}

__device__ __forceinline__ void sts128(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// The 8 16-bit elements starting x0 (0..7) elements into the 16 bytes lo then hi (little-endian:
// element 2w is word w's low half). Selects, not an indexed array, so nothing goes to local memory.
__device__ __forceinline__ uint4 shift_elements(uint4 lo, uint4 hi, int x0) {
  const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const int q = x0 >> 1;
  const uint32_t bits = static_cast<uint32_t>(x0 & 1) * 16;
  uint32_t o[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const uint32_t a = q == 0 ? w[k] : q == 1 ? w[k + 1] : q == 2 ? w[k + 2] : w[k + 3];
    const uint32_t b = q == 0 ? w[k + 1] : q == 1 ? w[k + 2] : q == 2 ? w[k + 3] : w[k + 4];
    o[k] = __funnelshift_r(a, b, bits);
  }
  return make_uint4(o[0], o[1], o[2], o[3]);
}

// Warps `rw` = 0..2 (the producer warpgroup's warps 1-3; warp 0 lands the boxes): for each of the
// CTA's k_tiles k-blocks, wait for raw boxes kt and kt + 1 and a free ring stage, write the stage,
// publish it (one arrival a warp) and hand raw box kt back. Work is (row, 16-byte chunk) pairs, 32 to
// a warp step: 4 rows of one class, so x0 is warp-uniform, a lane's right neighbour holds the next
// chunk of its row (a shuffle, not a second load) and both the raw reads and the stage writes cover
// 4 rows x 128 bytes without bank conflicts. Steps go rw, rw + 3, ... in batches of 8 whose loads
// are all issued before any is used.
// NOTES (session 12, calls 2-9; bench/NOTES.md "Misaligned K-major operands without the copy"): one
// step at a time with x0 read through a generic pointer into parameter space took ~3.7 us a 128x64
// k-block; this version ~1.5 us. Slower: four warps of two classes each with warp 0 also landing the
// boxes (~2.2-2.4 us), and whole classes a warp with the shift specialized on x0 by a switch (30-70%
// slower). No faster: boxes of two k-blocks (8 a k-block, not 16), a raw ring 7 k-blocks deep, one
// map for every class. ncu (run 132): instruction-bound, ~1300 SASS instructions a k-block a warp.
template <int kTileM, int kTileN, int kRing, int kRaw>
__device__ __forceinline__ void realign_row_classes(const StageRing& ring, const StageRing& raw, const int32_t* a_x0,
                                                    const int32_t* b_x0, int k_tiles, int rw, int lane) {
  constexpr int kARows = kTileM / kRowClasses, kBRows = kTileN / kRowClasses;
  constexpr int kASteps = kTileM / 4, kSteps = kASteps + kTileN / 4;  // 4 rows a step
  constexpr int kPerWarp = (kSteps + 2) / 3;
  constexpr int kBatch = 8;
  static_assert(kARows % 8 == 0 && kBRows % 8 == 0, "a class's box is whole 8-row swizzle atoms");
  // Lane l holds class (l % 8)'s offsets; a step takes its class's by shuffle.
  const int my_ax = a_x0[lane % kRowClasses], my_bx = b_x0[lane % kRowClasses];
  const int c = lane % 8, sub = lane / 8;  // chunk, and row within the step's 4
  int s = 0, rs = 0;
  uint32_t round = 0, rphase = 0;
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int rs1 = rs + 1 == kRaw ? 0 : rs + 1;
    mbarrier_wait(raw.full(rs), rphase);
    mbarrier_wait(raw.full(rs1), rs + 1 == kRaw ? rphase ^ 1 : rphase);
    if (round > 0) mbarrier_wait(ring.empty(s), (round - 1) & 1);
#pragma unroll
    for (int b0 = 0; b0 < kPerWarp; b0 += kBatch) {
      uint4 lo[kBatch], next[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int step = rw + 3 * (b0 + u);
        if (b0 + u >= kPerWarp || step >= kSteps) continue;
        const bool is_a = step < kASteps;
        const int row = 4 * (is_a ? step : step - kASteps) + sub;  // class-major: cls * rows + i
        const uint32_t at = (is_a ? raw.a(rs) : raw.b(rs)) + row * 128;
        lo[u] = lds128(at + ((c ^ (row & 7)) << 4));
        if (c == 7) next[u] = lds128((is_a ? raw.a(rs1) : raw.b(rs1)) + row * 128 + ((row & 7) << 4));
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const int step = rw + 3 * (b0 + u);
        if (b0 + u >= kPerWarp || step >= kSteps) continue;
        const bool is_a = step < kASteps;
        const int rows = is_a ? kARows : kBRows;
        const int row = 4 * (is_a ? step : step - kASteps) + sub;
        const int cls = row / rows, i = row % rows;
        uint4 hi;
        hi.x = __shfl_down_sync(0xffffffffu, lo[u].x, 1);
        hi.y = __shfl_down_sync(0xffffffffu, lo[u].y, 1);
        hi.z = __shfl_down_sync(0xffffffffu, lo[u].z, 1);
        hi.w = __shfl_down_sync(0xffffffffu, lo[u].w, 1);
        if (c == 7) hi = next[u];
        const int x0 = __shfl_sync(0xffffffffu, is_a ? my_ax : my_bx, cls);
        const int r = 8 * i + cls;  // r % 8 == cls
        sts128((is_a ? ring.a(s) : ring.b(s)) + r * 128 + ((c ^ cls) << 4), shift_elements(lo[u], hi, x0));
      }
    }
    fence_proxy_async_shared();  // these generic stores, before wgmma (async proxy) reads them
    __syncwarp();
    if (lane == 0) {
      mbarrier_arrive(ring.full(s));
      mbarrier_arrive(raw.empty(rs));
    }
    if (++s == kRing) {
      s = 0;
      ++round;
    }
    rs = rs1;
    if (rs == 0) rphase ^= 1;
  }
}

}  // namespace tcgemm::dev
