// Cross-CTA hand-off of partial tiles (stream-K and serial split-K fix-up): a contributor stores its
// f32 partial to global memory and raises a flag; the tile's owner waits for the flag and reads the
// partial. Flags are 32-bit words in global memory, zeroed before the launch.
#pragma once

#include <cstdint>

namespace tcgemm::dev {

// NOTES: the writers' stores reach the flag through bar.sync (CTA scope) and this thread's
// release at GPU scope, the pattern CUTLASS's GenericBarrier uses; every writer also fences
// before the barrier (fix-up stores are rare, so the cost does not show).
__device__ __forceinline__ void flag_release(uint32_t* flag) {
  asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(flag) : "memory");
}

__device__ __forceinline__ uint32_t flag_load_acquire(const uint32_t* flag) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

// Spins until *flag != 0. The caller then bar.syncs its group, after which the whole group may
// read what the flag published.
__device__ __forceinline__ void flag_wait(const uint32_t* flag) {
  while (flag_load_acquire(flag) == 0) __nanosleep(64);
}

// A warpgroup's partial tile in register-fragment order: thread t's float4 number i at
// (i*128 + t), so a warp writes (and reads back) 512 contiguous bytes. kAccumulators floats a
// thread, a multiple of 4. Loads and stores go through L2 only (.cg): the data crosses SMs.
template <int kAccumulators>
__device__ __forceinline__ void store_partial(float4* slot, const float (&acc)[kAccumulators], int t) {
  static_assert(kAccumulators % 4 == 0, "partials move as float4");
#pragma unroll
  for (int i = 0; i < kAccumulators / 4; ++i)
    __stcg(slot + i * 128 + t, make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
}

template <int kAccumulators>
__device__ __forceinline__ void add_partial(float (&acc)[kAccumulators], const float4* slot, int t) {
  static_assert(kAccumulators % 4 == 0, "partials move as float4");
#pragma unroll
  for (int i = 0; i < kAccumulators / 4; ++i) {
    const float4 v = __ldcg(slot + i * 128 + t);
    acc[4 * i] += v.x;
    acc[4 * i + 1] += v.y;
    acc[4 * i + 2] += v.z;
    acc[4 * i + 3] += v.w;
  }
}

}  // namespace tcgemm::dev
