// Thread-block clusters (sm_90): rank, cluster-wide barrier, addressing and reading a peer CTA's
// shared memory, arriving on a peer's mbarrier, and TMA loads multicast to several CTAs.
#pragma once

#include <cuda.h>  // CUtensorMap (type only)

#include <cstdint>

namespace tcgemm::dev {

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// Every thread of every CTA in the cluster; non-.aligned, so divergent threads may call it.
// Publishes shared-memory data to the peers (the DSMEM sums) and keeps a CTA alive while peers
// can still read it. Its release compiles to MEMBAR.ALL.GPU + ERRBAR, a GPU-scope fence for every
// thread (the pc kernel's two cost its CTAs 1.2-1.3 us, runs 245-246): where only barrier inits
// need ordering, cluster_sync_after_init; where only arrivals target a CTA,
// StageRing::wait_all_released and no barrier at all.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// The barrier after a CTA's mbarrier inits, as PTX prescribes for them: the inits are ordered by
// fence.mbarrier_init (StageRing::init), so the arrival needs no release, whose default
// (cluster_sync) compiles to MEMBAR.ALL.GPU + ERRBAR, a wait of the whole CTA (bench/NOTES.md, run 245).
__device__ __forceinline__ void cluster_sync_after_init() {
  asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
}

// The same shared-memory offset in CTA `rank` of this cluster, as a shared::cluster address.
__device__ __forceinline__ uint32_t map_to_rank(uint32_t smem, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(smem), "r"(rank));
  return r;
}

// A float at a shared::cluster address (map_to_rank): a peer CTA's shared memory.
__device__ __forceinline__ float ld_cluster_f32(uint32_t cluster_addr) {
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(cluster_addr) : "memory");
  return v;
}

// Four floats at a 16-byte aligned shared::cluster address. No memory clobber, so that a run of them
// issues back to back: the caller orders them with its cluster barriers.
__device__ __forceinline__ float4 ld_cluster_f32x4(uint32_t cluster_addr) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(cluster_addr));
  return v;
}

// NOTES: default semantics (release at CTA scope), as CUTLASS's ClusterBarrier::arrive: what is
// released is this warpgroup's wgmma reads of a stage, complete once wgmma.wait_group returned.
// `.release.cluster` compiles to MEMBAR.ALL.GPU before every arrival (seen in the SASS).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t cluster_bar) {
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(cluster_bar) : "memory");
}

// TMA load written at the same offset `dst` into every CTA in `mask`, completing bytes on the
// barrier at offset `bar` in each of them.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                                      int32_t c0, int32_t c1, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "h"(mask)
      : "memory");
}

// The same with an L2 policy (tma.cuh's l2_policy_evict_first/last) on the lines it reads.
__device__ __forceinline__ void tma_load_2d_multicast_hint(uint32_t dst, const CUtensorMap* map, uint32_t bar,
                                                           int32_t c0, int32_t c1, uint16_t mask, uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
      " [%0], [%1, {%3, %4}], [%2], %5, %6;" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1), "h"(mask), "l"(policy)
      : "memory");
}

}  // namespace tcgemm::dev
