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

}  // namespace tcgemm::dev
