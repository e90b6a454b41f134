// The row-class loader's second half (tensor_map.hpp, wgmma_tma_ws_kernel.cuh): TMA can only start a box at
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

// The realigning warps: the producer warpgroup's warps 1-3. NOTES: each was busy ~95% of the time at
// ~0.24 instructions a cycle (ncu, session 13 call 2) while the consumers waited 47% at their full
// barrier, yet 4 more warps (a fourth warpgroup) ran 22-29% slower (call 4), and waits that suspend
// instead of polling changed nothing (call 5).
inline constexpr int kRealignWarps = 3;

__device__ __forceinline__ uint32_t lds32(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  return v;
}

__device__ __forceinline__ void sts128(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// One lane's fixed view of one class it realigns: output chunk c (elements 8c..8c+7) of each of the
// class's rows is raw words 4c + x0/2 + k, k = 0..4, joined in pairs by a 16-bit funnel shift when x0
// is odd. inner: word k's offset in its 128-byte raw row (TMA lands the boxes unswizzled) plus the
// class's box offset; bit k of `wraps`: that word lies in the next raw box (its first x0 elements end
// this k-block's rows).
struct RealignLane {
  uint32_t inner[5];
  uint32_t wraps;
  uint32_t shift;  // 16 * (x0 & 1)
  uint32_t store;  // the class's row offset and swizzled chunk in the natural stage
};

__device__ __forceinline__ RealignLane realign_lane(int j, int x0, int rows, int c) {
  RealignLane l{};
  const int q = x0 >> 1;
#pragma unroll
  for (int k = 0; k < 5; ++k) {
    const int w = q + k, chunk = c + (w >> 2);  // w <= 7: at most one chunk past c
    l.inner[k] = static_cast<uint32_t>(j * rows * 128 + ((chunk & 7) << 4) + ((w & 3) << 2));
    l.wraps |= static_cast<uint32_t>(chunk >= 8) << k;
  }
  l.shift = 16u * static_cast<uint32_t>(x0 & 1);
  l.store = static_cast<uint32_t>(j * 128 + ((c ^ j) << 4));  // natural row 8i + j: swizzle chunk c ^ j
  return l;
}

// Warp step st of a k-block: A's steps first, each operand's two groups of four classes in turn.
// `view` picks the lane's RealignLane (A group 0, A group 1, B group 0, B group 1), `row` the row i
// within each of those classes' boxes.
struct RealignStep {
  bool is_a;
  int view, row;
};
template <int kARows, int kBRows>
__device__ __forceinline__ constexpr RealignStep realign_step(int st) {
  return st < 2 * kARows ? RealignStep{true, st / kARows, st % kARows}
                         : RealignStep{false, 2 + (st - 2 * kARows) / kBRows, (st - 2 * kARows) % kBRows};
}

// Realigning warp kRw (0..kRealignWarps - 1; the producer's warp 0 lands the boxes): for each of the CTA's
// k_tiles k-blocks, wait for raw boxes kt and kt + 1 and a free ring stage, write the stage, publish
// it (one arrival a warp) and hand raw box kt back.
// A warp step is 4 rows x 8 output chunks, one row of each of 4 classes (lane / 8 picks the class
// through `order`, lane % 8 the chunk), so each lane's shift, addresses and store offset are fixed
// for the whole kernel and a step is 5 4-byte loads, 4 funnel shifts and one 16-byte store. The
// order puts classes of 4 different x0 / 2 in a step where the ld allows it (odd ld's always do):
// the 4 rows then read 4 different words of their chunks, so the 32 lanes hit 32 banks (a 128-byte
// row covers every bank, so no swizzle is needed on the raw side). Steps are compile-time (kRw is a
// template argument), so each load and store is a register plus an immediate.
// NOTES (bench/NOTES.md "Misaligned K-major operands without the copy"): the session-12 loader (16-
// byte loads, the next chunk by shuffle, the shift as selects on a run-time x0) ran ~1.4-1.5 us a
// 128x64 k-block, instruction-bound at ~1300 SASS instructions a k-block a warp (ncu, run 132); this
// one ~0.85 us at ~420, and skipping its loads and stores altogether saved only 7% (session 13, call
// 6). Half the boxes saved 10-17% (call 6), a deeper raw ring (in place) ~5% (call 11), boxes of two
// k-blocks (half the operations, fewer k-blocks in flight) lost 13-21% (call 10): what bounds the
// k-block now is not located.
template <int kTileM, int kTileN, int kRing, int kRaw, int kRw>
__device__ __forceinline__ void realign_row_classes(const StageRing& ring, const StageRing& raw, const int32_t* a_x0,
                                                    const int32_t* b_x0, const int32_t* a_order,
                                                    const int32_t* b_order, int k_tiles, int lane) {
  constexpr int kARows = kTileM / kRowClasses, kBRows = kTileN / kRowClasses;
  constexpr int kSteps = 2 * kARows + 2 * kBRows;  // 2 groups of 4 classes an operand
  constexpr int kMine = (kSteps - kRw + kRealignWarps - 1) / kRealignWarps;  // steps kRw, kRw + kRealignWarps, ...
  constexpr int kBatch = 8;
  static_assert(kARows % 8 == 0 && kBRows % 8 == 0, "a class's box is whole 8-row swizzle atoms");
  const int c = lane % 8, sub = lane / 8;
  RealignLane view[4];  // A's classes order[sub], order[4 + sub]; then B's
#pragma unroll
  for (int t = 0; t < 4; ++t) {
    const bool is_a = t < 2;
    const int j = (is_a ? a_order : b_order)[4 * (t % 2) + sub];
    view[t] = realign_lane(j, (is_a ? a_x0 : b_x0)[j], is_a ? kARows : kBRows, c);
  }
  int s = 0, rs = 0;
  uint32_t round = 0, rphase = 0;
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int rs1 = rs + 1 == kRaw ? 0 : rs + 1;
    uint32_t at[4][5];  // this k-block's load bases: raw box rs, or rs1 for the wrapped words
#pragma unroll
    for (int t = 0; t < 4; ++t) {
      const uint32_t cur = t < 2 ? raw.a(rs) : raw.b(rs), next = t < 2 ? raw.a(rs1) : raw.b(rs1);
#pragma unroll
      for (int k = 0; k < 5; ++k) at[t][k] = ((view[t].wraps >> k) & 1 ? next : cur) + view[t].inner[k];
    }
    const uint32_t dst_a = ring.a(s), dst_b = ring.b(s);
    mbarrier_wait(raw.full(rs), rphase);
    mbarrier_wait(raw.full(rs1), rs + 1 == kRaw ? rphase ^ 1 : rphase);
    if (round > 0) mbarrier_wait(ring.empty(s), (round - 1) & 1);
#pragma unroll
    for (int b0 = 0; b0 < kMine; b0 += kBatch) {
      uint32_t v[kBatch][5];
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        if (b0 + u >= kMine) continue;
        const RealignStep p = realign_step<kARows, kBRows>(kRw + kRealignWarps * (b0 + u));
#pragma unroll
        for (int k = 0; k < 5; ++k) v[u][k] = lds32(at[p.view][k] + p.row * 128);  // raw row j * rows + i
      }
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        if (b0 + u >= kMine) continue;
        const RealignStep p = realign_step<kARows, kBRows>(kRw + kRealignWarps * (b0 + u));
        const uint32_t sh = view[p.view].shift;
        const uint4 out = make_uint4(__funnelshift_r(v[u][0], v[u][1], sh), __funnelshift_r(v[u][1], v[u][2], sh),
                                     __funnelshift_r(v[u][2], v[u][3], sh), __funnelshift_r(v[u][3], v[u][4], sh));
        sts128((p.is_a ? dst_a : dst_b) + view[p.view].store + p.row * 1024, out);
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

// The warp's steps are compile-time: one instance a realigning warp.
template <int kTileM, int kTileN, int kRing, int kRaw>
__device__ __forceinline__ void realign_row_classes_dispatch(int rw, const StageRing& ring, const StageRing& raw,
                                                             const int32_t* a_x0, const int32_t* b_x0,
                                                             const int32_t* a_order, const int32_t* b_order,
                                                             int k_tiles, int lane) {
  static_assert(kRealignWarps == 3, "one instance a realigning warp");
  if (rw == 0)
    realign_row_classes<kTileM, kTileN, kRing, kRaw, 0>(ring, raw, a_x0, b_x0, a_order, b_order, k_tiles, lane);
  else if (rw == 1)
    realign_row_classes<kTileM, kTileN, kRing, kRaw, 1>(ring, raw, a_x0, b_x0, a_order, b_order, k_tiles, lane);
  else
    realign_row_classes<kTileM, kTileN, kRing, kRaw, 2>(ring, raw, a_x0, b_x0, a_order, b_order, k_tiles, lane);
}

}  // namespace tcgemm::dev
