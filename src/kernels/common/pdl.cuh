// Programmatic dependent launch (sm_90): a kernel launched with programmatic stream
// serialization may be scheduled while the kernel before it in the stream is still draining; it
// runs its prologue (barrier init, descriptor prefetch) and then waits here until that grid has
// completed and its writes are visible. Every global read or write comes after the wait, so the
// overlap is only launch latency and prologue, never data. Pre-sm_90 builds compile to nothing.
#pragma once

namespace tcgemm::dev {

__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next PDL-launched grid be scheduled as SMs free up (it still waits in pdl_wait for
// this grid to finish). Called early: the dependent's CTAs only occupy SMs this grid leaves idle.
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

}  // namespace tcgemm::dev
