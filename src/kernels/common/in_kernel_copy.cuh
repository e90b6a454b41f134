// Device side of in_kernel_copy.hpp: a split's K range of each copied operand, shared over the
// split's CTAs, then the split's meeting point.
#pragma once

#include <cstdint>

#include "kernels/common/chunk_shift.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/in_kernel_copy.hpp"

namespace tcgemm::dev {

inline constexpr int kInCopySegment = 512;  // elements a warp step: 16 a lane
// kBatch: segments a warp loads before it stores any (1 KB each; 3-4 a warp, 36-48 KB a 12-warp
// CTA in flight). The kernel passes 4 where that spills nothing (ptxas -v: the 128x64 tile's
// instance spilled 12-20 bytes at 4).

// Columns [k_lo, k_hi) of every line of the copied operands (operand 0's lines, then operand 1's),
// in 512-element segments. Each warp of the `ctas` CTAs (this one is `cta`) keeps one segment
// column and strides over the lines, kInCopyBatch lines a step, so the loop needs no 64-bit
// division a segment. NOTES: session 15, call 2: dealing (line, segment) units round-robin, two
// 64-bit divisions a unit put ~200 dependent instructions before each load; the copies of
// 333x777x4099 then took 6.9 us in the grid (1.3 TB/s of reads) against the copies kernel's 6.2.
// Inside the source matrix a segment comes from the aligned 16-byte chunks it touches,
// funnel-shifted into place (chunk_shift.cuh); where they would leave the matrix, from 2-byte loads
// through this warp's 1 KB `bounce`. k_lo and, but for the last split, k_hi are multiples of 64, so
// the splits' stores never share a 16-byte chunk; the last split's chunk past K lands in the
// copy's pad (never read: the TMA maps end at K).
template <int kInCopyBatch>
__device__ __forceinline__ void copy_k_range(const InCopy c, int64_t k_lo, int64_t k_hi, int64_t cta, int64_t ctas,
                                             uint16_t* bounce) {
  const int warps = static_cast<int>(blockDim.x / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int64_t warp = cta * warps + threadIdx.x / 32, all_warps = ctas * warps;
  const int64_t segs = (k_hi - k_lo + kInCopySegment - 1) / kInCopySegment;
  const int64_t lines0 = c.op[0].lines, lines = lines0 + (c.count > 1 ? c.op[1].lines : 0);
  // Warps a segment column: its lines are dealt phase, phase + phases, ...
  const int64_t phases = max(int64_t{1}, min(all_warps / segs, lines));
  for (int64_t stream = warp; stream < segs * phases; stream += all_warps) {
    const int64_t seg = stream % segs, phase = stream / segs;  // once a stream: warp-uniform
    const int64_t col0 = k_lo + seg * kInCopySegment;
    const int valid = static_cast<int>(min(static_cast<int64_t>(kInCopySegment), k_hi - col0));
    for (int64_t l0 = phase; l0 < lines; l0 += kInCopyBatch * phases) {
      uint4 c0[kInCopyBatch], c1[kInCopyBatch], extra[kInCopyBatch];
      int shift[kInCopyBatch];  // the segment's start mod 16 bytes, in elements; -1: slow path
      // A line's source and copy, recomputed where used: fewer registers live across the loads.
      auto line_ptrs = [&](int64_t line, const uint16_t*& in, uint16_t*& out) {
        const bool second = line >= lines0;
        const int64_t l = second ? line - lines0 : line;
        in = (second ? c.op[1].src : c.op[0].src) + l * (second ? c.op[1].ld_src : c.op[0].ld_src) + col0;
        out = (second ? c.op[1].dst : c.op[0].dst) + l * (second ? c.op[1].ld_dst : c.op[0].ld_dst) + col0;
        return second;
      };
#pragma unroll
      for (int i = 0; i < kInCopyBatch; ++i) {
        const int64_t line = l0 + i * phases;
        const uint16_t* in;
        uint16_t* out;
        const bool second = line_ptrs(line, in, out);
        // The aligned chunks the segment's bytes touch (65 at most): a short line loads only those.
        const uintptr_t at = reinterpret_cast<uintptr_t>(in), first = at & ~uintptr_t{15};
        const int need = static_cast<int>((at & 15) / 2 + valid + 7) / 8;
        const bool fast = line < lines && first >= (second ? c.op[1].begin : c.op[0].begin) &&
                          first + static_cast<uintptr_t>(need) * 16 <= (second ? c.op[1].end : c.op[0].end);
        shift[i] = fast ? static_cast<int>(at & 15) / 2 : -1;
        c0[i] = c1[i] = extra[i] = make_uint4(0, 0, 0, 0);
        if (fast) {
          const uint4* chunks = reinterpret_cast<const uint4*>(first);
          if (lane < need) c0[i] = __ldg(chunks + lane);
          if (32 + lane < need) c1[i] = __ldg(chunks + 32 + lane);
          if (lane == 0 && need > 64) extra[i] = __ldg(chunks + 64);
        }
      }
#pragma unroll
      for (int i = 0; i < kInCopyBatch; ++i) {
        const int64_t line = l0 + i * phases;
        if (line >= lines) continue;
        const uint16_t* in;
        uint16_t* out;
        line_ptrs(line, in, out);
        if (shift[i] >= 0) {
          uint4 o0, o1;
          shift_segment(c0[i], c1[i], extra[i], shift[i], lane, o0, o1);
          if (8 * lane < valid) reinterpret_cast<uint4*>(out)[lane] = o0;
          if (8 * (32 + lane) < valid) reinterpret_cast<uint4*>(out)[32 + lane] = o1;
          continue;
        }
#pragma unroll
        for (int j = 0; j < kInCopySegment / 32; ++j) {
          const int e = j * 32 + lane;
          bounce[e] = e < valid ? __ldg(in + e) : uint16_t{0};
        }
        __syncwarp();
#pragma unroll
        for (int h = 0; h < kInCopySegment / 256; ++h) {
          const int e = h * 256 + 8 * lane;
          if (e < valid) *reinterpret_cast<uint4*>(out + e) = *reinterpret_cast<const uint4*>(&bounce[e]);
        }
        __syncwarp();
      }
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
