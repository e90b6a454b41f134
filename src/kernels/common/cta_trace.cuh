// Per-CTA timeline stamps for diagnosis (sm90_wgmma_ws_set_trace): one layout shared by every
// kernel that writes them, so one test reads them all. Words a CTA: [0] entry, [1] after the PDL
// wait, [2] SM id, [3] first full stage, [4] last full stage, [5] last MMA done, [6] a kernel's own
// extra stamp (swap_steal.cu: its first part stored; the ws kernel's in-kernel copies: its split's
// copies all done; the ws kernel's split-K slabs: consumer 0's stores visible; the persistent
// cluster kernel: consumer 0's last store read out); globaltimer nanoseconds. [7] (the ws kernel): SM cycles (clock64) from the
// first full stage to the last MMA, so [7] / ([5] - [3]) is the clock the mainloop ran at.
#pragma once

#include <cstdint>

namespace tcgemm::dev {

inline constexpr uint32_t kTraceWords = 8;
inline constexpr uint32_t kTraceCtas = 4096;

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ uint32_t sm_id() {
  uint32_t s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// This CTA's words in `trace` (nullptr when tracing is off or the CTA is past the buffer).
__device__ __forceinline__ uint64_t* trace_slot(uint64_t* trace, uint32_t cta) {
  return trace != nullptr && cta < kTraceCtas ? trace + static_cast<uint64_t>(cta) * kTraceWords : nullptr;
}

}  // namespace tcgemm::dev
