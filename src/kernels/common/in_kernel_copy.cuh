// Device side of in_kernel_copy.hpp: a split's K range of each copied operand, shared over the
// split's CTAs, then the split's meeting point.
#pragma once

#include <cstdint>

#include "kernels/common/chunk_shift.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/in_kernel_copy.hpp"

namespace tcgemm::dev {

inline constexpr int kInCopySegment = 512;  // elements a warp step: 16 a lane
// A segment's landing slot in shared memory: its 65 aligned chunks, 16 bytes of slack.
inline constexpr int kInCopySlotBytes = 66 * 16;
// Segments a warp has in flight: two groups of kInCopyGroup, the next landing while one is shifted
// (8 slots a warp, 8.4 KB; 101 KB for a 12-warp CTA, inside the stages the GEMM fills afterwards).
inline constexpr int kInCopyGroup = 4;
inline constexpr int kInCopySlots = 2 * kInCopyGroup;
inline constexpr int kInCopyWarpBytes = kInCopySlots * kInCopySlotBytes;


// Columns [k_lo, k_hi) of every line of the copied operands (operand 0's lines, then operand 1's),
// in 512-element segments. Each warp of the `ctas` CTAs (this one is `cta`) keeps one segment
// column and strides over the lines, so the loop needs no 64-bit division a segment. Each lane
// cp.asyncs its 16-byte aligned chunks of a segment into the warp's slot (no registers held while
// they land, so two groups of four segments are in flight a warp), then takes its output chunks
// from the slot (chunk i and i + 1, funnel-shifted by the segment's start mod 16 bytes,
// chunk_shift.cuh) and stores them. Where the aligned chunks would leave the source matrix the
// segment is read with 2-byte loads instead. NOTES: session 15, calls 1-2: with the chunks held in
// registers, four units a warp decoded by two 64-bit divisions each, the copies of 333x777x4099 took
// 6.9 us in the grid (1.3 TB/s of reads) against the copies kernel's 6.2.
// k_lo and, but for the last split, k_hi are multiples of 64, so the splits' stores never share a
// 16-byte chunk; the last split's chunk past K lands in the copy's pad (never read: the TMA maps
// end at K). `slots`: this warp's kInCopyWarpBytes of shared memory (16-byte aligned).
__device__ __forceinline__ void copy_k_range(const InCopy c, int64_t k_lo, int64_t k_hi, int64_t cta, int64_t ctas,
                                             uint8_t* slots) {
  const int warps = static_cast<int>(blockDim.x / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int64_t warp = cta * warps + threadIdx.x / 32, all_warps = ctas * warps;
  const int64_t segs = (k_hi - k_lo + kInCopySegment - 1) / kInCopySegment;
  const int64_t lines0 = c.op[0].lines, lines = lines0 + (c.count > 1 ? c.op[1].lines : 0);
  // Warps a segment column: its lines are dealt phase, phase + phases, ...
  const int64_t phases = max(int64_t{1}, min(all_warps / segs, lines));
  const uint32_t slots_smem = static_cast<uint32_t>(__cvta_generic_to_shared(slots));
  for (int64_t stream = warp; stream < segs * phases; stream += all_warps) {
    const int64_t seg = stream % segs, phase = stream / segs;  // once a stream: warp-uniform
    const int64_t col0 = k_lo + seg * kInCopySegment;
    const int valid = static_cast<int>(min(static_cast<int64_t>(kInCopySegment), k_hi - col0));
    const int64_t count = (lines - phase + phases - 1) / phases;  // this stream's lines
    // Line j of the stream: its source and copy, and whether its aligned chunks stay inside the source.
    auto line_of = [&](int64_t j, const uint16_t*& in, uint16_t*& out, int& need) {
      const int64_t line = phase + j * phases;
      const bool second = line >= lines0;
      const int64_t l = second ? line - lines0 : line;
      in = (second ? c.op[1].src : c.op[0].src) + l * (second ? c.op[1].ld_src : c.op[0].ld_src) + col0;
      out = (second ? c.op[1].dst : c.op[0].dst) + l * (second ? c.op[1].ld_dst : c.op[0].ld_dst) + col0;
      const uintptr_t at = reinterpret_cast<uintptr_t>(in), first = at & ~uintptr_t{15};
      need = static_cast<int>((at & 15) / 2 + valid + 7) / 8;  // 65 at most
      return first >= reinterpret_cast<uintptr_t>(second ? c.op[1].src : c.op[0].src) &&
             first + static_cast<uintptr_t>(need) * 16 <= (second ? c.op[1].end : c.op[0].end);
    };
    auto issue = [&](int64_t j0) {  // lines j0 .. j0 + kInCopyGroup - 1 into their slots
#pragma unroll
      for (int i = 0; i < kInCopyGroup; ++i) {
        const int64_t j = j0 + i;
        if (j >= count) break;
        const uint16_t* in;
        uint16_t* out;
        int need;
        if (!line_of(j, in, out, need)) continue;
        const char* chunks = reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(in) & ~uintptr_t{15});
        const uint32_t slot = slots_smem + static_cast<uint32_t>((j % kInCopySlots) * kInCopySlotBytes);
        for (int q = lane; q < need; q += 32) cp_async_16(slot + 16 * q, chunks + 16 * q);
      }
      cp_async_commit();
    };
    issue(0);
    for (int64_t j0 = 0; j0 < count; j0 += kInCopyGroup) {
      issue(j0 + kInCopyGroup);  // an empty group past the stream's end: the wait below still means j0's
      cp_async_wait<1>();
      __syncwarp();  // every lane's chunks of group j0 have landed
#pragma unroll
      for (int i = 0; i < kInCopyGroup; ++i) {
        const int64_t j = j0 + i;
        if (j >= count) break;
        const uint16_t* in;
        uint16_t* out;
        int need;
        const bool fast = line_of(j, in, out, need);
        const uint4* slot = reinterpret_cast<const uint4*>(slots + (j % kInCopySlots) * kInCopySlotBytes);
        if (fast) {
          const int x = static_cast<int>(reinterpret_cast<uintptr_t>(in) & 15) / 2;
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int q = 32 * h + lane;
            if (8 * q < valid) reinterpret_cast<uint4*>(out)[q] = shift_chunk(slot[q], slot[q + 1], x);
          }
          continue;
        }
        // At the matrix's edges: lane-contiguous 2-byte loads, through the (unused) slot.
        uint16_t* bounce = reinterpret_cast<uint16_t*>(slots + (j % kInCopySlots) * kInCopySlotBytes);
#pragma unroll
        for (int e0 = 0; e0 < kInCopySegment; e0 += 32) {
          const int e = e0 + lane;
          bounce[e] = e < valid ? __ldg(in + e) : uint16_t{0};
        }
        __syncwarp();
#pragma unroll
        for (int h = 0; h < kInCopySegment / 256; ++h) {
          const int e = h * 256 + 8 * lane;
          if (e < valid) *reinterpret_cast<uint4*>(out + e) = *reinterpret_cast<const uint4*>(&bounce[e]);
        }
      }
      __syncwarp();  // the slots are read before the group after next lands in them
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncwarp();
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
