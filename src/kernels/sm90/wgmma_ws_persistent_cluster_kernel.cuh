// Persistent, clustered, TMA-store warp-specialized wgmma GEMM: the pieces of wgmma_tma_ws_kernel.cuh
// (128x256x64 tile, one producer and two m64n256k16 consumer warpgroups; tf32: 128x256x32 on
// m64n256k8, the same bytes), the persistent kernel (the ring of stages continues across tiles)
// and the cluster kernel (2 CTAs along M share B by TMA multicast) in one kernel, with an
// epilogue that stores through shared memory by TMA. PcTile::m192n192 is the same kernel with
// three m64n192k16 consumer warpgroups on a 192x192 tile (bf16/f16): the same 48 KB a stage, a
// tile that divides 4224 where 128x256 pads (bench/NOTES.md, "A 192x192 tile").
// PcTile::m128n144/160/176/192 (bf16/f16, 4 stages) are the grid-fitting widths: 128 rows and the N that
// makes the pair grid fill the clusters (bench/NOTES.md, "Grid-fitting tile widths"); they also
// store a column-major D, for the swapped problem of pc_swap.hpp (stage_transposed).
// PcTile::m192n160/m192n176 (bf16/f16, 3 stages) are the 192-row fitting widths: three m64n160k16 or
// m64n176k16 consumers, each one's whole tile row in its C buffer (as the 128-row fitting widths),
// the last 32 or 48 columns a partial box stored by the threads; pair grids that fill whole rounds
// or pad N less where 192x192 leaves SMs idle (4224^3: 4 rounds of 264 pair-tiles of 192x176
// against 3.67 of 242; 6144x640: 4 columns of 160 against 4 of 192).
//
// Why (bench/NOTES.md, "Hopper at peak"): the best kernel so far (`_ws_ds`) keeps the tensor pipe
// ~77% busy at 4096^3. The public reference design at ~107% of cuBLAS on H100 (pranjalssh/fast.cu
// matmul_11/12) differs from ours in exactly these points: persistent *and* clustered (our cluster
// kernel is one cold CTA per tile, two cluster barriers per tile), a TMA-store epilogue that
// overlaps the next tile's mainloop instead of 64 STG per thread, one empty-barrier arrival per
// consumer warpgroup instead of per warp, and a grid of 64 clusters.
//
// NOTES:
//  - Shared memory (227 KB): a stage is 48 KB (A 128x64 + B 256x64). kStages = 3 keeps a whole
//    128x256 16-bit C tile (64 KB), one TMA store round per tile whose smem reads overlap the
//    next mainloop; kStages = 4 (one more k-block of lookahead) leaves room for 32 KB of C only,
//    so each consumer stores its 64x256 slab in two 64x128 halves, the second waiting until TMA
//    has read the first (~16 KB, a few hundred cycles). Both are instantiated; the bench decides.
//  - tf32 (f32 A/B, f32 D): a stage holds the same 48 KB (BK = 32 f32), but the f32 C tile is
//    128 KB, which fits beside no number of 48 KB stages >= 3 (3 x 48 + 128 = 272 KB). The C
//    buffer keeps its 64 or 32 KB, so the slab goes out in halves (3 stages: 64x128 f32 = 32 KB
//    a consumer, one wait per tile, the 16-bit 4-stage pattern) or quarters (4 stages: 64x64,
//    three waits). 2 stages + a whole tile (96 + 128 KB) would fit, but one k-block of lookahead
//    stalls the mainloop, which is what pays; so the same two stage counts as for 16-bit.
//  - Each CTA multicasts one 128-row half of B into both CTAs, so a stage in CTA r is written by
//    both producers: a producer refills a stage only when the consumers of *both* CTAs released
//    it. Empty barriers count 2 CTAs x 2 consumer warpgroups; one thread per warpgroup arrives
//    locally and on the peer (mapa + mbarrier.arrive.shared::cluster) once wgmma.wait_group says
//    the warpgroup's reads of the stage are done. Full barriers expect A plus both B halves; the
//    peer's half may land before this CTA's arrive.expect_tx (the tx count goes negative until
//    then), never before this CTA's consumers freed the stage.
//  - Both CTAs of a cluster walk the same pair-tiles with the same k-block count, so the running
//    stage/phase counters of both agree; they are never reset (barriers initialised once).
//  - Cluster barriers: one, after the inits, arriving .relaxed (fence.mbarrier_init orders the
//    inits). None at the end: the producer waits for every stage's last release by both CTAs'
//    consumers (StageRing::wait_all_released), after which nothing from the peer targets this CTA.
//    The default .release barrier at both ends cost every CTA a MEMBAR.ALL.GPU (runs 245-246:
//    tall suite 0.828x -> 0.895x without them).
//  - Odd tiles_m: the second CTA of the last pair row is a ghost. It loads no A and issues no
//    MMAs (power the busy SMs use under the cap), but multicasts its B half, waits for and
//    releases each stage like any CTA, and stores nothing.
//  - TMA stores write whole 16-byte chunks of a row (measured here, and triton-lang/triton#11583):
//    a box clipped at an N that is not a multiple of 8 (16-bit; 4 for f32) still overwrites D up
//    to the next 16-byte boundary, i.e. whatever lies in the ld padding. So the D map ends at
//    n_tma = N rounded down to 16 bytes and the 1-7 (f32: 1-3) columns past it are read back from
//    the C buffer and stored element by element.
//  - PcDStore::threads (D's ld or base breaks TMA's rule, e.g. 4097^3): no D map; each consumer
//    copies its C chunks to D itself, in 16-byte stores cut along D's own 16-byte boundaries
//    (store_chunk_by_threads). No aligned temporary and no copy-out pass (~67 MB of traffic at
//    4097^3; bench/NOTES.md, "D stored by the threads"). Deferring the copy into the next
//    mainloop's wgmma waits measured no faster, so the consumers' stall is not what it costs.
//  - The C buffer uses TMA's 128B swizzle (boxes of 64 rows x 128 bytes, 8 KB: 64 16-bit or 32
//    f32 columns): a warp's 4-byte fragment stores then hit 32 distinct banks; f32's 8-byte
//    stores (256 bytes a warp) take the minimum two wavefronts, rows r and r^1 sharing banks. st.shared (generic proxy) -> fence.proxy.async
//    -> named barrier -> one thread's TMA store + commit; before the buffer is written again that
//    thread waits cp.async.bulk.wait_group.read 0, then the warpgroup's named barrier.
//  - beta != 0: the same thread first TMA-loads C's boxes (map_c, C row-major in D's type) into
//    the buffer on a per-consumer mbarrier; each thread reads C at the address it then writes D
//    to. kF32D: bf16/f16 inputs storing f32 boxes (the tf32 layout). Split-K (PcSlabs): work
//    items (pair-tile, split), each split's sums stored to its own f32 slab rows.
//
//  - Stream-K (kStreamK, bench/NOTES.md "Stream-K on the persistent cluster kernel"): 4224^3 is
//    289 pair-tiles = 4.38 rounds on 66 clusters, so the 5th round runs 38% full. The pair-tiles
//    past the last full round are shared along K, an equal count of k-blocks per cluster, and
//    the partial tiles meet in a workspace (walk_next, the fix-up after the mainloop). Same
//    mainloop, producer and epilogue as the plain kernel; only the unit of work differs.
//
// Reads top to bottom: shared-memory layout; producer; consumer; stream-K fix-up; epilogue. The
// config, static asserts and Params are in wgmma_ws_persistent_cluster_config.cuh, the tile order
// and the walk over work units in ..._schedule.cuh, the epilogue's helpers (stores by the threads,
// the transposed staging) in ..._epilogue.cuh. Its instances, launch and supports() are in
// wgmma_ws_persistent_cluster.cu, the one file that includes this.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/common/cluster.cuh"
#include "kernels/common/cta_trace.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/named_barrier.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster_config.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster_epilogue.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster_schedule.cuh"

namespace tcgemm::sm90_pc {

// --- the kernel ------------------------------------------------------------------------------
template <WgmmaInput In, int S, bool kStreamK, PcTile T, bool kF32D>
__global__ void __launch_bounds__(Config<In, S, T, kF32D>::kThreads, 1)
    wgmma_ws_persistent_cluster_kernel(const __grid_constant__ CUtensorMap map_a,
                                       const __grid_constant__ CUtensorMap map_b,
                                       const __grid_constant__ CUtensorMap map_d,
                                       const __grid_constant__ CUtensorMap map_c, const Params p) {
  using C = Config<In, S, T, kF32D>;
  static_assert(!kStreamK || T == PcTile::m128n256, "stream-K's workspace slots hold 128x256 tiles");
  using Mma = dev::Wgmma<C::kTileN, In, 0, 0>;  // K-major A and B

  // Shared memory, carved in one place: [A stages][B stages][C buffers][full][empty].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const dev::StageRing ring(base, C::kStages, C::kABytes, C::kBBytes, C::kCBytes);
  const uint32_t c_smem = ring.gap_smem;
  const uint32_t c_load_bar = ring.empty_bar + 8 * C::kStages;  // + 8 * consumer

  const int warpgroup = threadIdx.x / 128;
  const int t = threadIdx.x % 128;
  uint64_t* const trace = dev::trace_slot(p.trace, blockIdx.x);
  const uint64_t t_entry = trace != nullptr ? dev::global_ns() : 0;

  if (threadIdx.x == 0) {
    dev::tma_prefetch_descriptor(&map_a);
    dev::tma_prefetch_descriptor(&map_b);
    dev::tma_prefetch_descriptor(&map_d);
    if (p.beta != 0.0f) dev::tma_prefetch_descriptor(&map_c);
    for (int i = 0; i < C::kConsumers; ++i) dev::mbarrier_init(c_load_bar + 8 * i, 1);
    ring.init(C::kStages, C::kClusterM * C::kConsumers);  // one empty arrival per consumer warpgroup, both CTAs
  }
  dev::cluster_sync_after_init();  // the peer's barriers are initialised before anything targets them
  // Programmatic dependent launch (common/pdl.cuh): only the prologue above overlaps the previous
  // kernel; every global access (TMA loads, flags, stores) follows the wait.
  dev::pdl_wait();
  dev::pdl_launch_dependents();
  if (trace != nullptr && threadIdx.x == 0) {
    trace[0] = t_entry;
    trace[1] = dev::global_ns();
    trace[2] = dev::sm_id();
  }

  const uint32_t rank = dev::cluster_ctarank();
  const uint32_t peer = rank ^ 1u;
  const int64_t cluster = blockIdx.x / C::kClusterM;

  if (warpgroup == 0) {
    // --- producer: one thread issues every TMA load, running ahead across tiles ----------------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if (t == 0) {
      constexpr uint16_t kBothCtas = 0x3;
      int s = 0;
      uint32_t phase = 0;
      Walk w = walk_start(p, cluster);
      Unit u;
      while (walk_next<kStreamK>(p, w, u)) {
        const TileCoord tc = tile_coord<C>(u.pt, rank, p);
        // A B half wholly past N is not loaded: its stale shared memory only feeds columns that
        // the (clipped) TMA store never writes. Both CTAs see the same n0, so count the same bytes.
        const bool b_upper_half = tc.n0 + C::kTileN / 2 < p.n;
        // A ghost CTA (a tile row past M) loads no A and multiplies nothing (see the consumers); it
        // still multicasts its B half to its partner and takes the partner's.
        const uint32_t stage_bytes = (tc.ghost ? 0u : C::kABytes) + (b_upper_half ? 2 : 1) * C::kBHalfBytes;
        const int32_t b_row = tc.n0 + static_cast<int32_t>(rank) * (C::kTileN / 2);
        for (int kt = u.kb_begin; kt < u.kb_end; ++kt) {
          // Parity phase ^ 1: the stage's previous use released by both CTAs' consumers (on a
          // fresh barrier, the first round passes at once).
          dev::mbarrier_wait(ring.empty(s), phase ^ 1);
          dev::mbarrier_arrive_expect_tx(ring.full(s), stage_bytes);
          const int32_t k0 = kt * C::kTileK;
          if (!tc.ghost) dev::tma_load_2d(ring.a(s), &map_a, ring.full(s), k0, tc.m0);  // box kTileK(K) x 128(M)
          if (rank == 0 || b_upper_half)  // box kTileK(K) x 128(N), to both CTAs
            dev::tma_load_2d_multicast(ring.b(s) + rank * C::kBHalfBytes, &map_b, ring.full(s), k0, b_row, kBothCtas);
          if (++s == C::kStages) {
            s = 0;
            phase ^= 1;
          }
        }
      }
      ring.wait_all_released(C::kStages, s, phase);  // then the CTA may exit with no cluster barrier
    }
  } else {
    // --- consumers: warpgroup 1 takes rows 0-63 of the tile, warpgroup 2 rows 64-127 (3: 128-191)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
    const int consumer = warpgroup - 1;
    const int lane = t % 32;
    const int warp_in_group = t / 32;
    const uint32_t a_offset = consumer * 64 * C::kSwizzleBytes;
    const uint32_t peer_empty_bar = dev::map_to_rank(ring.empty_bar, peer);
    auto release = [&](int s) {
      if (t == 0) {
        dev::mbarrier_arrive(ring.empty(s));
        dev::mbarrier_arrive_cluster(peer_empty_bar + 8 * s);
      }
    };

    // This thread's place in each C box (see the epilogue): fragment rows 16w + l/4 (+8) and
    // columns 2(l%4), +1 of each 8-column block, i.e. bytes lane_bytes.. of the block's 8*kDBytes
    // (16 bytes = one chunk for 16-bit D; 32 bytes = two chunks for f32, the thread's pair in
    // chunk (l%4)/2). 128B swizzle XORs the 16-byte chunk index with the row mod 8, which is l/4
    // for both rows; the thread's own chunk bit is folded into the same XOR.
    const uint32_t c_buffer = c_smem + consumer * C::kConsumerCBytes;
    const int frag_row = warp_in_group * 16 + lane / 4;
    const uint32_t lane_bytes = static_cast<uint32_t>(lane % 4) * 2 * C::kDBytes;
    const uint32_t c_thread = c_buffer + frag_row * C::kSwizzleBytes + lane_bytes % 16;
    const uint32_t swz = static_cast<uint32_t>(lane / 4) ^ (lane_bytes / 16);

    float acc[C::kAccumulators];
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;
    const uint32_t c_bar = c_load_bar + 8 * consumer;
    uint32_t c_phase = 0;
    int s = 0;
    uint32_t phase = 0;
    uint64_t t_first = 0, c_first = 0;
    Walk w = walk_start(p, cluster);
    Unit u;
    while (walk_next<kStreamK>(p, w, u)) {
      const TileCoord tc = tile_coord<C>(u.pt, rank, p);
      int prev = 0;
      for (int kt = u.kb_begin; kt < u.kb_end; ++kt) {
        dev::mbarrier_wait(ring.full(s), phase);
        if (trace != nullptr && threadIdx.x == 128) {
          if (t_first == 0) {
            t_first = dev::global_ns();
            c_first = clock64();
          }
          if (kt == u.kb_end - 1) trace[4] = dev::global_ns();
        }
        // NOTES: a ghost CTA's MMAs would only burn power the busy SMs need under the cap
        // (320x8192x8192: a quarter of the CTAs are ghosts); it waits for each stage (its
        // partner's B half lands in it) and releases it as usual.
        if (!tc.ghost) {
          const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s) + a_offset, 16, C::kAtomBytes);
          const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), 16, C::kAtomBytes);
          constexpr uint32_t kStep = C::kMmaK * C::kElementBytes;
          dev::mma_k_block<Mma, C::kTileK / C::kMmaK>(acc, desc_a, desc_b, kStep, kStep, kt > u.kb_begin);
        } else {
          // Thread 0 releases a stage for its whole warpgroup. With MMAs, the collective wgmma it
          // waited for proves every warp passed that stage's full wait; a ghost has none, so a
          // lagging warp could see the stage refilled and its barrier two phases on, and wait
          // forever (NOTES, session 42: run 250's memcheck stall, at a ghost's full wait).
          dev::named_barrier_sync(2 + consumer, 128);
        }
        // Keep this k-block's MMAs in flight; the previous one has finished reading its stage.
        dev::wgmma_wait_group<1>();
        if (kt > u.kb_begin) release(prev);
        prev = s;
        if (++s == C::kStages) {
          s = 0;
          phase ^= 1;
        }
      }
      dev::wgmma_wait_group<0>();
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
      if (trace != nullptr && threadIdx.x == 128) {
        trace[3] = t_first;
        trace[5] = dev::global_ns();
        trace[7] = clock64() - c_first;
      }
      // Released before the epilogue, so both producers refill it while the epilogue runs.
      release(prev);

      // --- stream-K fix-up (see walk_next): partial tiles meet in the workspace, in k order -------
      if constexpr (kStreamK) {
        // A sharing cluster contributes at most once, so its CTA slot is fixed; the owner's CTA of
        // the same rank holds the same tile rows, and a ghost's partner is a ghost too.
        auto partial_of = [&](int64_t c) {
          return reinterpret_cast<float4*>(p.partials + (c * C::kClusterM + rank) * (C::kTileM * C::kTileN) +
                                           consumer * (64 * C::kTileN));
        };
        auto flag_of = [&](int64_t c) { return p.flags + (c * C::kClusterM + rank) * C::kConsumers + consumer; };
        if (u.kb_end < p.k_tiles) {
          if (!tc.ghost) {
            dev::store_partial(partial_of(cluster), acc, t);
            __threadfence();
            dev::named_barrier_sync(2 + consumer, 128);
            if (t == 0) dev::flag_release(flag_of(cluster));
          }
          continue;
        }
        if (u.kb_begin > 0 && !tc.ghost) {
          const int64_t first_contributor = sk_cluster_of(p, u.pt * p.k_tiles);
          if (t == 0)
            for (int64_t c = first_contributor; c < cluster; ++c) dev::flag_wait(flag_of(c));
          dev::named_barrier_sync(2 + consumer, 128);
          // NOTES: always the same order (increasing k), so the f32 sums round the same way each run.
          for (int64_t c = first_contributor; c < cluster; ++c) dev::add_partial(acc, partial_of(c), t);
        }
      }

      // --- epilogue: alpha*acc (+ beta*C) -> D type -> swizzled C boxes in shared -> TMA store ---
      if (tc.ghost) continue;  // uniform across the CTA
      const int32_t row0 = tc.m0 + consumer * 64;
      if constexpr (C::kFit) {
        if (p.d_trans) {  // uniform; M % 8 == 0, so no 16-byte chunk overhangs D's lines
          if (row0 >= p.m) continue;  // this consumer's rows lie past M (uniform across it)
          if (t == 0) dev::bulk_wait_group_read<0>();
          dev::named_barrier_sync(2 + consumer, 128);
          if (p.beta != 0.0f) {  // uniform
            // C^T's box into the buffer (the barrier above ordered the last store's reads first);
            // out-of-bounds elements arrive as zeros and count toward the bytes.
            if (t == 0) {
              dev::mbarrier_arrive_expect_tx(c_bar, C::kTileN * C::kSwizzleBytes);
              dev::tma_load_2d(c_buffer, &map_c, c_bar, row0, tc.n0);
            }
            dev::mbarrier_wait(c_bar, c_phase);
            c_phase ^= 1;
            stage_transposed<C, In, true>(acc, p.alpha, p.beta, c_buffer, frag_row, lane);
          } else {
            stage_transposed<C, In, false>(acc, p.alpha, 0.0f, c_buffer, frag_row, lane);
          }
          dev::fence_proxy_async_shared();
          dev::named_barrier_sync(2 + consumer, 128);
          if (t == 0) {
            dev::tma_store_2d(&map_d, c_buffer, row0, tc.n0);  // box 64 (M, contiguous) x kTileN (N)
            dev::bulk_commit_group();
          }
          continue;
        }
      }
      constexpr int kBlocksPerBox = C::kBoxCols / 8;
      constexpr int kBoxesPerChunk = C::kStoreCols / C::kBoxCols;
      // Writes this chunk's D values over the buffer, at the addresses where C's were loaded.
      auto stage_chunk = [&](int chunk, auto with_c) {
#pragma unroll
        for (int jj = 0; jj < C::kChunkTileCols / 8; ++jj) {
          // m64nNk16 f32 fragment: for each 8-column block j, rows 16w + l/4 (+8 for h = 1) and
          // columns 8j + 2(l%4) (+1) are acc[4j + 2h + e]; block jb of a box starts at byte
          // 8*kDBytes*jb of its 128-byte row, i.e. 16-byte chunk jb*kDBytes/2.
          const int j = chunk * C::kStoreCols / 8 + jj;
          const uint32_t box = static_cast<uint32_t>(jj / kBlocksPerBox);
          const uint32_t chunk16 = ((static_cast<uint32_t>(jj % kBlocksPerBox) * C::kDBytes / 2) ^ swz) * 16;
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            float x = p.alpha * acc[4 * j + 2 * h], y = p.alpha * acc[4 * j + 2 * h + 1];
            const uint32_t addr = c_thread + box * C::kBoxBytes + h * 8 * C::kSwizzleBytes + chunk16;
            if constexpr (decltype(with_c)::value) {
              float cx, cy;
              if constexpr (C::kDBytes == 4) {
                asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(cx), "=f"(cy) : "r"(addr) : "memory");
              } else {
                uint32_t bits;
                asm volatile("ld.shared.b32 %0, [%1];" : "=r"(bits) : "r"(addr) : "memory");
                const float2 f = unpack_pair<In>(bits);
                cx = f.x, cy = f.y;
              }
              x = fmaf(p.beta, cx, x);
              y = fmaf(p.beta, cy, y);
            }
            if constexpr (C::kDBytes == 4) {
              st_shared_v2_f32(addr, x, y);
            } else {
              st_shared_b32(addr, pack_pair<In>(x, y));
            }
          }
        }
      };
#pragma unroll
      for (int chunk = 0; chunk < C::kChunks; ++chunk) {
        // The previous store from this buffer (last chunk or last tile) has been read out.
        if (t == 0) dev::bulk_wait_group_read<0>();
        dev::named_barrier_sync(2 + consumer, 128);
        if (p.beta != 0.0f) {  // uniform
          // C's boxes of this chunk (those starting inside N; rows past M and columns past N come
          // in as zeros) into the buffer; the barrier above ordered every earlier read of it
          // (TMA store, tail and storer-warp loads) before this write. NOTES: loaded here, not
          // during the mainloop: a prefetch there (once the previous store had read the buffer
          // out) measured no gain, 221.7 against 221.4 us at 4096^3 (run 85).
          if (t == 0) {
            const int64_t chunk_n0 = tc.n0 + chunk * C::kStoreCols;
            const int boxes = row0 >= p.m || chunk_n0 >= p.n ? 0
                              : static_cast<int>(min(static_cast<int64_t>(kBoxesPerChunk),
                                                     (p.n - chunk_n0 + C::kBoxCols - 1) / C::kBoxCols));
            dev::mbarrier_arrive_expect_tx(c_bar, static_cast<uint32_t>(boxes) * C::kBoxBytes);
            for (int b = 0; b < boxes; ++b)
              dev::tma_load_2d(c_buffer + b * C::kBoxBytes, &map_c, c_bar,
                               static_cast<int32_t>(chunk_n0 + b * C::kBoxCols), row0);
          }
          dev::mbarrier_wait(c_bar, c_phase);
          c_phase ^= 1;
          stage_chunk(chunk, std::true_type{});
        } else {
          stage_chunk(chunk, std::false_type{});
        }
        if (p.d_by_threads) {  // uniform
          dev::named_barrier_sync(2 + consumer, 128);
          store_chunk_by_threads<C>(p, c_buffer, row0, tc.n0 + chunk * C::kStoreCols, t);
          continue;  // the next chunk's (or tile's) barrier orders these reads before the rewrite
        }
        // The generic-proxy writes above must be visible to the TMA engine (async proxy).
        dev::fence_proxy_async_shared();
        dev::named_barrier_sync(2 + consumer, 128);
        const int32_t chunk_n0 = tc.n0 + chunk * C::kStoreCols;
        if (t == 0 && row0 < p.m) {
#pragma unroll
          for (int b = 0; b < C::kStoreCols / C::kBoxCols; ++b) {
            const int32_t col = chunk_n0 + b * C::kBoxCols;
            if (b < C::kFullBoxes && col < p.n_tma)  // a fitting width's partial box: below
              dev::tma_store_2d(&map_d, c_buffer + b * C::kBoxBytes, col,
                                row0 + u.split * static_cast<int32_t>(p.slab_rows));
          }
          dev::bulk_commit_group();
        }
        if constexpr (C::kRowBuffer && C::kTileN % C::kBoxCols != 0) {
          // The partial last box (16 or 48 of its 64 columns are this tile's; a TMA store would
          // write the next tile's): 16-byte chunks by the threads, up to n_tma (the tail below
          // takes the rest). Rows start 16-byte aligned: ldd % 8 == 0, N0 a multiple of 16.
          constexpr int kPartChunks = (C::kTileN % C::kBoxCols) / 8;
          const int64_t box_n0 = chunk_n0 + C::kFullBoxes * C::kBoxCols;
          for (int i = t; i < 64 * kPartChunks; i += 128) {
            const int r = i / kPartChunks, q = i % kPartChunks;
            const int64_t col = box_n0 + q * 8;
            if (row0 + r >= p.m || col + 8 > p.n_tma) continue;
            const uint32_t addr = c_buffer + C::kFullBoxes * C::kBoxBytes + r * C::kSwizzleBytes +
                                  ((static_cast<uint32_t>(q) ^ static_cast<uint32_t>(r % 8)) * 16);
            uint4 v;
            asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr)
                         : "memory");
            *reinterpret_cast<uint4*>(static_cast<uint16_t*>(p.d) + (row0 + r) * p.ldd + col) = v;
          }
        }
        if (p.n_tma < p.n && p.n_tma >= chunk_n0 && p.n_tma < chunk_n0 + C::kChunkTileCols) {  // uniform
          // The tail lies in one 16-byte chunk of this chunk's columns: 64 rows x up to
          // kChunkCols - 1 columns.
          const int tail = static_cast<int>(p.n - p.n_tma);
          const int local0 = static_cast<int>(p.n_tma - chunk_n0);
          for (int i = t; i < 64 * C::kChunkCols; i += 128) {
            const int r = i / C::kChunkCols, c = i % C::kChunkCols;
            if (c >= tail || row0 + r >= p.m) continue;
            const int local = local0 + c;
            const uint32_t byte = static_cast<uint32_t>(local % C::kBoxCols) * C::kDBytes;
            const uint32_t addr = c_buffer + (local / C::kBoxCols) * C::kBoxBytes + r * C::kSwizzleBytes +
                                  (((byte / 16) ^ (r % 8)) * 16) + byte % 16;
            const int64_t at = (row0 + r) * p.ldd + p.n_tma + c;
            if constexpr (C::kDBytes == 4) {
              uint32_t bits;
              asm volatile("ld.shared.u32 %0, [%1];" : "=r"(bits) : "r"(addr) : "memory");
              static_cast<uint32_t*>(p.d)[at] = bits;
            } else {
              uint16_t bits;
              asm volatile("ld.shared.u16 %0, [%1];" : "=h"(bits) : "r"(addr) : "memory");
              static_cast<uint16_t*>(p.d)[at] = bits;
            }
          }
        }
      }
    }
    // Shared memory must stay until every store has read it out (and D is written).
    if (t == 0) dev::bulk_wait_group<0>();
    if (trace != nullptr && threadIdx.x == 128) trace[6] = dev::global_ns();
  }
}

}  // namespace tcgemm::sm90_pc
