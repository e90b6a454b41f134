// Device side of in_kernel_copy.hpp: a split's K range of each copied operand, shared over the
// split's CTAs, then the split's meeting point.
#pragma once

#include <cstdint>

#include "kernels/common/chunk_shift.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/in_kernel_copy.hpp"

namespace tcgemm::dev {

inline constexpr int kInCopySegment = 512;  // elements a warp step: 16 a lane
// Segments a warp loads before it stores any: 4 x 1 KB in flight a warp, 48 KB a 12-warp CTA.
inline constexpr int kInCopyBatch = 4;

// Columns [k_lo, k_hi) of every line of the copied operands: units of (line, 512-element segment)
// dealt round-robin over the warps of `ctas` CTAs (this one is `cta`). Inside the source matrix a
// segment comes from the aligned 16-byte chunks it touches, funnel-shifted into place (chunk_shift.cuh);
// where that window would leave the matrix, from 2-byte loads through this warp's 1 KB `bounce`.
// k_lo and, but for the last split, k_hi are multiples of 64, so the splits' stores never share a
// 16-byte chunk; the last split's chunk past K lands in the copy's pad (never read: the TMA maps
// end at K).
// NOTES: session 15, calls 1-2 (runs 153-154): this loop copies at ~1.3 TB/s of reads (333x777x4099:
// 6.9 us from the PDL wait to the split's meeting, traced), slower than the copies kernel; the
// reading, not measured: each unit's two 64-bit divisions put ~200 dependent instructions before its
// loads. Branch exp/in-copy-streams holds the loop without them (one segment column a warp), not
// run on the device yet.
__device__ __forceinline__ void copy_k_range(const InCopy c, int64_t k_lo, int64_t k_hi, int64_t cta, int64_t ctas,
                                             uint16_t* bounce) {
  const int warps = static_cast<int>(blockDim.x / 32), warp = static_cast<int>(threadIdx.x / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int64_t segs = (k_hi - k_lo + kInCopySegment - 1) / kInCopySegment;
  const int64_t units0 = c.op[0].lines * segs;
  const int64_t units = units0 + (c.count > 1 ? c.op[1].lines * segs : 0);
  const int64_t stride = ctas * warps;
  for (int64_t u0 = cta * warps + warp; u0 < units; u0 += kInCopyBatch * stride) {
    uint4 c0[kInCopyBatch], c1[kInCopyBatch], extra[kInCopyBatch];
    const uint16_t* in[kInCopyBatch];
    uint16_t* out[kInCopyBatch];
    int valid[kInCopyBatch];
    bool fast[kInCopyBatch];
#pragma unroll
    for (int i = 0; i < kInCopyBatch; ++i) {
      const int64_t u = u0 + i * stride;  // warp-uniform, as everything below that depends on it
      valid[i] = 0;
      fast[i] = false;
      in[i] = nullptr;
      out[i] = nullptr;
      c0[i] = c1[i] = extra[i] = make_uint4(0, 0, 0, 0);
      if (u >= units) continue;
      const bool second = u >= units0;
      const int64_t local = second ? u - units0 : u;
      const int64_t line = local / segs, col0 = k_lo + (local % segs) * kInCopySegment;
      valid[i] = static_cast<int>(min(static_cast<int64_t>(kInCopySegment), k_hi - col0));
      in[i] = (second ? c.op[1].src : c.op[0].src) + line * (second ? c.op[1].ld_src : c.op[0].ld_src) + col0;
      out[i] = (second ? c.op[1].dst : c.op[0].dst) + line * (second ? c.op[1].ld_dst : c.op[0].ld_dst) + col0;
      // The aligned chunks the segment's bytes touch (65 at most): a short line loads only those.
      const uintptr_t at = reinterpret_cast<uintptr_t>(in[i]), first = at & ~uintptr_t{15};
      const int need = static_cast<int>((at & 15) / 2 + valid[i] + 7) / 8;
      fast[i] = first >= reinterpret_cast<uintptr_t>(second ? c.op[1].src : c.op[0].src) &&
                first + static_cast<uintptr_t>(need) * 16 <= (second ? c.op[1].end : c.op[0].end);
      if (fast[i]) {
        const uint4* chunks = reinterpret_cast<const uint4*>(first);
        if (lane < need) c0[i] = __ldg(chunks + lane);
        if (32 + lane < need) c1[i] = __ldg(chunks + 32 + lane);
        if (lane == 0 && need > 64) extra[i] = __ldg(chunks + 64);
      }
    }
#pragma unroll
    for (int i = 0; i < kInCopyBatch; ++i) {
      if (valid[i] <= 0) continue;
      if (fast[i]) {
        uint4 o0, o1;
        shift_segment(c0[i], c1[i], extra[i], static_cast<int>(reinterpret_cast<uintptr_t>(in[i]) & 15) / 2, lane, o0, o1);
        if (8 * lane < valid[i]) reinterpret_cast<uint4*>(out[i])[lane] = o0;
        if (8 * (32 + lane) < valid[i]) reinterpret_cast<uint4*>(out[i])[32 + lane] = o1;
        continue;
      }
#pragma unroll
      for (int j = 0; j < kInCopySegment / 32; ++j) {
        const int e = j * 32 + lane;
        bounce[e] = e < valid[i] ? __ldg(in[i] + e) : uint16_t{0};
      }
      __syncwarp();
#pragma unroll
      for (int h = 0; h < kInCopySegment / 256; ++h) {
        const int e = h * 256 + 8 * lane;
        if (e < valid[i]) *reinterpret_cast<uint4*>(out[i] + e) = *reinterpret_cast<const uint4*>(&bounce[e]);
      }
      __syncwarp();
    }
  }
}

// Every CTA of a split, after its share of the copies: none goes on until all `ctas` have
// published theirs. Thread 0 releases the CTA's stores at GPU scope (after bar.sync, the pattern of
// fixup.cuh), waits for the split's count, orders the TMA loads it issues next (async proxy) after
// what it acquired, and counts itself out; the last one out leaves the word at zero for the next
// launch on the stream (which reads it only after its PDL wait, i.e. after this grid).
__device__ __forceinline__ void in_copy_meet(uint32_t* counter, uint32_t ctas) {
  asm volatile("fence.proxy.async.global;" ::: "memory");  // this thread's copies, for TMA readers
  __syncthreads();
  if (threadIdx.x == 0) {
    flag_release(counter);
    while (flag_load_acquire(counter) < ctas) __nanosleep(32);
    asm volatile("fence.proxy.async.global;" ::: "memory");
    if (atomicAdd(counter, 1u) == 2u * ctas - 1u) atomicExch(counter, 0u);
  }
  __syncthreads();
}

}  // namespace tcgemm::dev
