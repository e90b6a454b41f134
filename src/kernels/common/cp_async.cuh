// cp.async of whole 16-byte chunks into shared memory (L2 only), committed and waited on in groups:
// the in-kernel copies (in_kernel_copy.cuh) and the skinny kernel's ring. The sm80 multistage
// kernel keeps its own zero-filling variant (a source size operand).
#pragma once

#include <cstdint>

namespace tcgemm::dev {

__device__ __forceinline__ void cp_async_16(uint32_t smem, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Until at most N of this thread's committed groups are in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

}  // namespace tcgemm::dev
