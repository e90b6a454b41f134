// Named barriers (bar.sync / bar.arrive on ids 1-15): a subset of a CTA's warps meeting without
// __syncthreads, e.g. one consumer warpgroup before its TMA store, or two warpgroups handing a
// turn back and forth. `threads` counts every thread that takes part (arriving and waiting),
// a multiple of 32.
#pragma once

namespace tcgemm::dev {

// Waits until `threads` threads have arrived on barrier `id`, counting this warp.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Counts this warp on barrier `id` and goes on: the signalling half of a producer/consumer pair
// of warp groups (the other half waits with named_barrier_sync on the same id and count).
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace tcgemm::dev
