// The TMA pipeline's ring of stages in shared memory, as every warp-specialized sm90 kernel lays
// it out: [A tile per stage][B tile per stage][whatever the kernel keeps between][full barrier per
// stage][empty barrier per stage]. All addresses are 32-bit shared-window addresses.
#pragma once

#include <cstdint>

#include "kernels/common/mbarrier.cuh"

namespace tcgemm::dev {

struct StageRing {
  uint32_t a_smem, b_smem, gap_smem, full_bar, empty_bar;
  uint32_t a_bytes, b_bytes;

  // base: the 1024-byte-aligned start (128B swizzle atoms); gap_bytes: the kernel's own buffer
  // between the B tiles and the barriers (epilogue staging, C tiles), 8-byte multiple.
  __device__ __forceinline__ StageRing(uint32_t base, int stages, uint32_t a_tile_bytes, uint32_t b_tile_bytes,
                                       uint32_t gap_bytes)
      : a_smem(base),
        b_smem(base + stages * a_tile_bytes),
        gap_smem(b_smem + stages * b_tile_bytes),
        full_bar(gap_smem + gap_bytes),
        empty_bar(full_bar + stages * 8),
        a_bytes(a_tile_bytes),
        b_bytes(b_tile_bytes) {}

  __device__ __forceinline__ uint32_t a(int s) const { return a_smem + s * a_bytes; }
  __device__ __forceinline__ uint32_t b(int s) const { return b_smem + s * b_bytes; }
  __device__ __forceinline__ uint32_t full(int s) const { return full_bar + 8 * s; }
  __device__ __forceinline__ uint32_t empty(int s) const { return empty_bar + 8 * s; }
  // One thread, before the CTA (or cluster) barrier that publishes them: `full` completes on the
  // producer's arrive.expect_tx (or `full_arrivals` loading threads' arrivals), `empty` after
  // `empty_arrivals` consumer arrivals.
  __device__ __forceinline__ void init(int stages, uint32_t empty_arrivals, uint32_t full_arrivals = 1) const {
    for (int s = 0; s < stages; ++s) {
      mbarrier_init(full(s), full_arrivals);
      mbarrier_init(empty(s), empty_arrivals);
    }
    mbarrier_init_fence();
  }
  // The producer's tail, from its next stage s and phase: each stage's last use released (parity
  // phase ^ 1, as before a refill; a stage never filled passes at once). In a cluster whose
  // consumers arrive on each other's empty barriers, every arrival aimed at this CTA has then
  // landed, and so has every multicast into it (its consumers waited for those): the CTA may exit
  // without a cluster barrier, whose release fence (MEMBAR.ALL.GPU) held every CTA's end
  // (bench/NOTES.md, run 245).
  __device__ __forceinline__ void wait_all_released(int stages, int s, uint32_t phase) const {
    for (int i = 0; i < stages; ++i) {
      mbarrier_wait(empty(s), phase ^ 1);
      if (++s == stages) {
        s = 0;
        phase ^= 1;
      }
    }
  }
};

}  // namespace tcgemm::dev
