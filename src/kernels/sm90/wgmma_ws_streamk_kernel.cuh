// Stream-K and serial split-K on a persistent warp-specialized TMA + wgmma kernel (built from the
// persistent variant of wgmma_tma_ws.cu, since retired in favour of wgmma_ws_persistent_cluster.cu):
// same 128x256x64 tile, 4 stages, one producer warp and two
// consumer warpgroups, one CTA per SM. What changes is the unit of work: a CTA's range of MAC
// iterations (tile x k-block) may start and end inside a tile, and partial tiles are finished by
// a deterministic fix-up through a global workspace.
//
// Why: 4224^3 is 33 x 17 = 561 tiles = 4.25 waves on 132 SMs; the non-persistent and persistent
// kernels both pay a 5th wave for a quarter of the work (measured 0.80x cuBLAS). Here the 4 full
// waves run whole tiles (data-parallel) and the remaining 33 tiles' iterations are shared evenly
// by all 132 CTAs (4 pieces a tile), so every SM ends at about the same time. Measured (bench/
// NOTES.md, run 7b): -6 to -9% time against the persistent kernel in a short burst, but equal
// (0.83x cuBLAS) in the sustained, power-limited bench.
//
// Schedule (plan_streamk on the host, walk_next() below, the same for producer and consumers):
//  - stream-K: CTA c owns iterations [c*q + min(c, r), ...) of the I = sk_tiles * k_blocks split
//    iterations (q, r = I / G, I % G), then data-parallel tiles sk_tiles + c, + G, ... A CTA
//    walks its split range BACKWARDS, tile by tile, so its first unit is the head of its last
//    tile (the part it does not finish: a contributor) and its last unit the tail of its first
//    tile (the part that holds the tile's last k-block: the owner). Owners therefore wait only for
//    units that other CTAs ran first, and contributors never wait: no chains, no deadlock with
//    all CTAs resident.
//  - serial split-K (also stream-K's plan when there is no full wave: aligned pieces keep the
//    CTAs that share operand panels at the same k, see plan_streamk): units u = tile * S + split,
//    CTA c takes u = c, c + G, ...; split S-1 (the last k-blocks) owns the tile and waits for
//    splits 0..S-2, which have lower unit numbers and never wait; by induction on u every wait
//    ends once all CTAs have been scheduled. With one unit per CTA the fix-up is a reduce-scatter
//    instead (every split writes, waits for all, and finishes 1/S of the tile).
// Fix-up: a contributor stores its raw f32 accumulators to its slot (128 KB, in register-fragment
// order so that 32 consecutive threads write 512 contiguous bytes) and raises its slot's flag
// (one per consumer warpgroup, so the two halves of the tile never wait for each other). The
// owner adds the partials to its own accumulators in increasing k order, always the same order,
// so D is bitwise reproducible for a given SM count; then runs the usual epilogue.
// Flags are zeroed by a cudaMemsetAsync before each launch (the workspace is the caller's).
//
// Reads top to bottom: config and static asserts; parameters and schedule; kernel (shared memory,
// producer, consumer, fix-up, epilogue). Its instances, plan, supports() and launch are in
// wgmma_ws_streamk.cu, the one file that includes this.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/named_barrier.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/common/wgmma_store.cuh"

namespace tcgemm::sm90_sk {

using dev::WgmmaInput;

// --- config ----------------------------------------------------------------------------------
struct Config {
  static constexpr int kTileM = 128;
  static constexpr int kTileN = 256;
  static constexpr int kTileK = 64;  // one 128-byte swizzle row of a 16-bit type
  static constexpr int kStages = 4;
  static constexpr int kConsumers = 2;            // warpgroups, 64 rows of the tile each
  static constexpr int kThreads = 128 * (1 + kConsumers);  // warpgroup 0 is the producer
  static constexpr int kElementBytes = 2;
  static constexpr int kMmaK = 16;
  static constexpr int kGroupM = 8;  // tile rows per raster group (L2 reuse of B)

  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;                     // 1024
  static constexpr uint32_t kABytes = kTileM * kTileK * kElementBytes;           // 16 KB
  static constexpr uint32_t kBBytes = kTileN * kTileK * kElementBytes;           // 32 KB
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;                     // 48 KB

  // Epilogue staging, private to each consumer: 64 rows x kEpilogueCols f32 at a time, rows padded
  // by 4 floats so a fragment store's 8 rows start in different banks.
  static constexpr int kEpilogueCols = 32;
  static constexpr int kEpiloguePitch = kEpilogueCols + 4;
  static constexpr uint32_t kEpilogueBytes = kConsumers * 64 * kEpiloguePitch * 4;  // 18 KB

  static constexpr uint32_t kBarrierBytes = 2 * kStages * 8;                     // full + empty
  // NOTES: dynamic shared memory is only guaranteed 16-byte aligned; 128B swizzle wants every
  // tile on a 1024-byte boundary, so we over-allocate one atom and align by hand.
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kEpilogueBytes + kBarrierBytes + kAtomBytes;

  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;
  static constexpr int kAccumulators = kTileN / 2;  // m64nN: N/2 floats per thread
};

static_assert(Config::kTileK * Config::kElementBytes == Config::kSwizzleBytes,
              "BK must fill exactly one 128-byte swizzle row");
static_assert(Config::kTileM == 64 * Config::kConsumers, "each consumer warpgroup owns 64 rows (m64)");
static_assert(Config::kTileN % 64 == 0 && Config::kTileN <= 256, "wgmma N and the TMA box are <= 256");
static_assert(Config::kABytes % Config::kAtomBytes == 0 && Config::kBBytes % Config::kAtomBytes == 0,
              "every stage must start on a 1024-byte swizzle atom");
static_assert(Config::kTileN % Config::kEpilogueCols == 0 && Config::kEpilogueCols % 8 == 0,
              "epilogue chunks are whole 8-column fragment blocks");
static_assert(Config::kEpilogueBytes % 8 == 0, "barriers after the staging need 8-byte alignment");
static_assert(Config::kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
static_assert(Config::kProducerRegisters % 8 == 0 && Config::kConsumerRegisters % 8 == 0 &&
                  Config::kProducerRegisters >= 24 && Config::kConsumerRegisters <= 256,
              "setmaxnreg takes multiples of 8 in [24, 256]");
static_assert(128 * Config::kProducerRegisters + 128 * Config::kConsumers * Config::kConsumerRegisters <=
                  65536,
              "register budget over the 64K-register file");

static_assert(Config::kAccumulators % 4 == 0, "partials move as float4");

// --- kernel parameters and schedule -------------------------------------------------------------
struct Epilogue {
  void* d;
  const void* c;  // read only when beta != 0
  int64_t d_row_stride, d_col_stride;  // element (r, c) at r*row_stride + c*col_stride
  int64_t c_row_stride, c_col_stride;
  float alpha, beta;
  DType d_dtype, c_dtype;
};

struct Params {
  int64_t m, n, k;
  int32_t tiles_m, tiles_n;
  // NOTES: the schedule is 32-bit (supports() keeps tiles * k_blocks < 2^31): a 64-bit division
  // is a called subroutine on the GPU whose register save lands in local memory (STL/LDL).
  int32_t tiles, k_blocks;
  int32_t serial;        // 0: stream-K, 1: serial split-K
  int32_t sk_tiles;      // stream-K: tiles [0, sk_tiles) are split in iterations
  int32_t sk_iters;      // sk_tiles * k_blocks
  // CTA c's split range starts at c*q + min(c, r) (q, r = sk_iters / grid, % grid): the first r
  // CTAs take q + 1 iterations, the others q.
  int32_t sk_q, sk_r;
  int32_t splits;        // serial
  int32_t k_per_split;   // serial
  int32_t distributed;   // serial, one unit per CTA: every split reduces 1/S of its tile
  uint32_t* flags;       // 2 per slot (one per consumer warpgroup)
  float* partials;       // kTileM * kTileN floats per slot
  Epilogue epilogue;
};

enum Role : int32_t { kWhole = 0, kContribute = 1, kOwn = 2, kReduceSlice = 3 };

struct Unit {
  int32_t tile;
  int32_t kb_begin, kb_end;  // k-blocks [kb_begin, kb_end) of the tile
  int32_t role;
  int32_t slot;              // kContribute: the slot written; kOwn: the first contributor's slot
  int32_t contributors;      // kOwn: slots [slot, slot + contributors), in increasing k order
  int32_t split;             // kReduceSlice: this unit writes slot + split and reduces slice
                             // `split` of `contributors` (all splits' slots, in k order)
};

// Where a CTA stands in its list of units. stream-K: `next` walks the split range down, then the
// data-parallel tiles up; serial: `next` is the unit number.
struct Cursor {
  int32_t next;
  int32_t phase;
};

__device__ __forceinline__ int32_t split_range_begin(int32_t cta, const Params& p) {
  return cta * p.sk_q + min(cta, p.sk_r);
}

__device__ __forceinline__ Cursor walk_start(const Params& p) {
  const int32_t cta = static_cast<int32_t>(blockIdx.x);
  if (p.serial) return {cta, 1};
  return {split_range_begin(cta + 1, p), 0};
}

// The CTA whose split range holds iteration `it` (every range is non-empty: q >= 1).
__device__ __forceinline__ int32_t cta_of_iteration(int32_t it, const Params& p) {
  const int32_t long_part = p.sk_r * (p.sk_q + 1);
  return it < long_part ? it / (p.sk_q + 1) : p.sk_r + (it - long_part) / p.sk_q;
}

__device__ __forceinline__ bool walk_next(const Params& p, Cursor& cur, Unit& u) {
  const int32_t grid = static_cast<int32_t>(gridDim.x), cta = static_cast<int32_t>(blockIdx.x);
  if (p.serial) {
    if (cur.next >= p.tiles * p.splits) return false;
    const int32_t unit = cur.next;
    cur.next += grid;
    u.tile = unit / p.splits;
    const int32_t split = unit - u.tile * p.splits;
    u.kb_begin = split * p.k_per_split;
    u.kb_end = min(p.k_blocks, (split + 1) * p.k_per_split);
    u.slot = u.tile * (p.splits - 1);
    if (p.splits == 1) {
      u.role = kWhole;
    } else if (p.distributed) {
      u.role = kReduceSlice;
      u.slot = u.tile * p.splits;
      u.contributors = p.splits;
      u.split = split;
    } else if (split < p.splits - 1) {
      u.role = kContribute;
      u.slot += split;
    } else {
      u.role = kOwn;
      u.contributors = p.splits - 1;
    }
    return true;
  }
  if (cur.phase == 0) {
    const int32_t begin = split_range_begin(cta, p);
    if (cur.next > begin) {
      const int32_t end = cur.next;
      u.tile = (end - 1) / p.k_blocks;
      const int32_t tile_first = u.tile * p.k_blocks;
      const int32_t first = max(begin, tile_first);
      u.kb_begin = first - tile_first;
      u.kb_end = end - tile_first;
      cur.next = first;
      if (u.kb_end < p.k_blocks) {
        u.role = kContribute;
        u.slot = cta;
      } else if (u.kb_begin > 0) {
        u.role = kOwn;
        u.slot = cta_of_iteration(tile_first, p);
        u.contributors = cta - u.slot;
      } else {
        u.role = kWhole;
      }
      return true;
    }
    cur.phase = 1;
    cur.next = p.sk_tiles + cta;
  }
  if (cur.next >= p.tiles) return false;
  u.tile = cur.next;
  cur.next += grid;
  u.kb_begin = 0;
  u.kb_end = p.k_blocks;
  u.role = kWhole;
  return true;
}

// --- epilogue helpers ------------------------------------------------------------------------
using dev::load_epilogue;
using dev::store_epilogue;

// alpha*v (+ beta*C) to D(gr, gc), in D's dtype.
__device__ __forceinline__ void epilogue_element(const Epilogue& ep, int64_t gr, int64_t gc, float v) {
  v *= ep.alpha;
  if (ep.beta != 0.0f) v += ep.beta * load_epilogue(ep.c, gr * ep.c_row_stride + gc * ep.c_col_stride, ep.c_dtype);
  store_epilogue(ep.d, gr * ep.d_row_stride + gc * ep.d_col_stride, ep.d_dtype, v);
}

struct TileCoord {
  int32_t m0, n0;
};

// The grouped raster of the other ws kernels: kGroupM tile rows sweep all tile columns.
__device__ __forceinline__ TileCoord tile_coord(int32_t tile, const Params& p) {
  const int32_t group_tiles = Config::kGroupM * p.tiles_n;
  const int32_t group = tile / group_tiles;
  const int32_t first_m = group * Config::kGroupM;
  const int32_t group_rows = min(p.tiles_m - first_m, Config::kGroupM);
  const int32_t in_group = tile - group * group_tiles;
  const int32_t tile_n = in_group / group_rows;
  const int32_t tile_m = first_m + in_group - tile_n * group_rows;
  return {tile_m * Config::kTileM, tile_n * Config::kTileN};
}

// --- the kernel ------------------------------------------------------------------------------
// K-major A and B only (the TN layout; instance count kept low). kDirectStore: full tiles of a
// row-major 16-bit D (beta == 0, checked on the host) are stored straight from registers.
template <WgmmaInput In, bool kDirectStore>
__global__ void __launch_bounds__(Config::kThreads, 1)
    wgmma_ws_streamk_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                            const Params p) {
  using C = Config;
  using Mma = dev::Wgmma<C::kTileN, In, 0, 0>;

  // Shared memory, carved in one place: [A stages][B stages][epilogue staging][full][empty].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const dev::StageRing ring(base, C::kStages, C::kABytes, C::kBBytes, C::kEpilogueBytes);
  const uint32_t epi_smem = ring.gap_smem;

  const int warpgroup = threadIdx.x / 128;
  const int lane = threadIdx.x % 32;

  if (threadIdx.x == 0) {
    dev::tma_prefetch_descriptor(&map_a);
    dev::tma_prefetch_descriptor(&map_b);
    ring.init(C::kStages, C::kConsumers * 4);  // one empty arrival per consumer warp
  }
  __syncthreads();

  // NOTES: `it` counts k-blocks across every unit this CTA runs, in the producer and in the
  // consumers alike, so stage = it % kStages and phase = it / kStages carry over from unit to unit.
  if (warpgroup == 0) {
    // --- producer: one thread issues every TMA load --------------------------------------------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if (threadIdx.x == 0) {
      uint64_t it = 0;
      Cursor cur = walk_start(p);
      Unit u;
      while (walk_next(p, cur, u)) {
        const TileCoord tc = tile_coord(u.tile, p);
        for (int kt = u.kb_begin; kt < u.kb_end; ++kt, ++it) {
          const int s = static_cast<int>(it % C::kStages);
          if (it >= static_cast<uint64_t>(C::kStages)) dev::mbarrier_wait(ring.empty(s), ((it / C::kStages) - 1) & 1);
          dev::mbarrier_arrive_expect_tx(ring.full(s), C::kStageBytes);
          const int32_t k0 = kt * C::kTileK;
          dev::tma_load_2d(ring.a(s), &map_a, ring.full(s), k0, tc.m0);  // box 64(K) x 128(M)
          dev::tma_load_2d(ring.b(s), &map_b, ring.full(s), k0, tc.n0);  // box 64(K) x 256(N)
        }
      }
    }
    return;
  }

  // --- consumers: warpgroup 1 takes rows 0-63 of the tile, warpgroup 2 rows 64-127 --------------
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
  const int consumer = warpgroup - 1;
  constexpr uint32_t kLbo = 16, kSbo = C::kAtomBytes;
  constexpr uint32_t kStepK = C::kMmaK * C::kElementBytes;
  const uint32_t a_offset = consumer * 64 * C::kSwizzleBytes;

  float* staged = reinterpret_cast<float*>(smem_raw + (epi_smem - raw)) + consumer * 64 * C::kEpiloguePitch;
  const int warp_in_group = (threadIdx.x / 32) % 4;
  const int t = threadIdx.x % 128;
  const Epilogue& ep = p.epilogue;
  const bool d_row_major = ep.d_col_stride == 1;
  const int barrier_id = 2 + consumer;  // this warpgroup's 128 threads

  // A slot holds the tile's two 64-row halves; thread t's float4 number i sits at (i*128 + t).
  constexpr int64_t kSlotFloats = int64_t{C::kTileM} * C::kTileN;
  constexpr int64_t kHalfFloats = kSlotFloats / C::kConsumers;
  auto half_of = [&](int32_t slot) { return p.partials + slot * kSlotFloats + consumer * kHalfFloats; };
  auto flag_of = [&](int32_t slot) { return p.flags + int64_t{slot} * C::kConsumers + consumer; };

  float acc[C::kAccumulators];
#pragma unroll
  for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;
  uint64_t it = 0;
  Cursor cur = walk_start(p);
  Unit u;
  while (walk_next(p, cur, u)) {
    const TileCoord tc = tile_coord(u.tile, p);
    const int32_t m0 = tc.m0, n0 = tc.n0;

    for (int kt = u.kb_begin; kt < u.kb_end; ++kt, ++it) {
      const int s = static_cast<int>(it % C::kStages);
      dev::mbarrier_wait(ring.full(s), (it / C::kStages) & 1);
      const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s) + a_offset, kLbo, kSbo);
      const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), kLbo, kSbo);
      dev::mma_k_block<Mma, C::kTileK / C::kMmaK>(acc, desc_a, desc_b, kStepK, kStepK, kt > u.kb_begin);
      dev::wgmma_wait_group<1>();
      if (kt > u.kb_begin && lane == 0) dev::mbarrier_arrive(ring.empty((it - 1) % C::kStages));
    }
    dev::wgmma_wait_group<0>();
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
    // Units are never empty; the last stage goes back before the fix-up and epilogue, so the
    // producer refills it meanwhile.
    if (lane == 0) dev::mbarrier_arrive(ring.empty((it - 1) % C::kStages));

    // --- fix-up ----------------------------------------------------------------------------------
    if (u.role == kContribute || u.role == kReduceSlice) {
      const int32_t mine = u.role == kContribute ? u.slot : u.slot + u.split;
      dev::store_partial(reinterpret_cast<float4*>(half_of(mine)), acc, t);
      __threadfence();
      dev::named_barrier_sync(barrier_id, 128);
      if (t == 0) dev::flag_release(flag_of(mine));
    }
    if (u.role == kContribute) continue;
    if (u.role == kReduceSlice) {
      // NOTES: reduce-scatter instead of one owner: each of the S splits sums 1/S of the tile over
      // all S slots (its own included), in k order, and stores that slice; an owner would read
      // S-1 whole partials alone (7 x 128 KB at 8 splits, ~16 us, device run 7). Only with one
      // unit per CTA (every split of a tile running at once), so that waiting cannot deadlock.
      if (t == 0)
        for (int32_t j = 0; j < u.contributors; ++j) dev::flag_wait(flag_of(u.slot + j));
      dev::named_barrier_sync(barrier_id, 128);
      constexpr int kHalf4 = C::kAccumulators / 4 * 128;  // float4s in one consumer's half
      const int begin = u.split * kHalf4 / u.contributors, end = (u.split + 1) * kHalf4 / u.contributors;
      const float4* first = reinterpret_cast<const float4*>(half_of(u.slot));
      constexpr int64_t kSlot4 = kSlotFloats / 4;
      for (int base4 = begin; base4 < end; base4 += 4 * 128) {
        float4 v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int idx = base4 + q * 128 + t;
          v[q] = idx < end ? __ldcg(first + idx) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        for (int32_t j = 1; j < u.contributors; ++j) {
          float4 w[4];
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            const int idx = base4 + q * 128 + t;
            w[q] = idx < end ? __ldcg(first + j * kSlot4 + idx) : make_float4(0.f, 0.f, 0.f, 0.f);
          }
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            v[q].x += w[q].x;
            v[q].y += w[q].y;
            v[q].z += w[q].z;
            v[q].w += w[q].w;
          }
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int idx = base4 + q * 128 + t;
          if (idx >= end) continue;
          // float4 i of thread tt holds acc[4i..4i+3]: rows r0, r0 + 8 and columns c0, c0 + 1.
          const int i = idx / 128, tt = idx % 128;
          const int64_t r0 = static_cast<int64_t>(m0) + consumer * 64 + 16 * (tt / 32) + (tt % 32) / 4;
          const int64_t c0 = static_cast<int64_t>(n0) + 8 * i + 2 * (tt % 4);
          const float vals[4] = {v[q].x, v[q].y, v[q].z, v[q].w};
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int64_t gr = r0 + 8 * (e / 2), gc = c0 + (e % 2);
            if (gr < p.m && gc < p.n) epilogue_element(ep, gr, gc, vals[e]);
          }
        }
      }
      continue;
    }
    if (u.role == kOwn) {
      if (t == 0)
        for (int32_t j = 0; j < u.contributors; ++j) dev::flag_wait(flag_of(u.slot + j));
      dev::named_barrier_sync(barrier_id, 128);
      // NOTES: always the same order (increasing k), so the f32 sums round the same way each run.
      for (int32_t j = 0; j < u.contributors; ++j)
        dev::add_partial(acc, reinterpret_cast<const float4*>(half_of(u.slot + j)), t);
    }

    if constexpr (kDirectStore) {
      if (m0 + C::kTileM <= p.m && n0 + C::kTileN <= p.n) {  // uniform across the CTA
        dev::store_accumulators_row16<In>(acc, ep.d, ep.d_row_stride, static_cast<int64_t>(m0) + consumer * 64, n0,
                                          ep.alpha);
        continue;
      }
    }

    // --- epilogue: registers -> own shared chunk (f32) -> alpha*acc + beta*C -> global ------------
    const int64_t row_base = static_cast<int64_t>(m0) + consumer * 64;
    const int rows = static_cast<int>(min(static_cast<int64_t>(64), p.m - row_base));
    const int cols = static_cast<int>(min(static_cast<int64_t>(C::kTileN), p.n - n0));
#pragma unroll
    for (int chunk = 0; chunk < C::kTileN / C::kEpilogueCols; ++chunk) {
      const int chunk_col = chunk * C::kEpilogueCols;
      dev::named_barrier_sync(barrier_id, 128);  // the previous chunk (or tile) has been read
      {
        // m64nNk16 f32 fragment: thread (warp w, lane l) holds, for each 8-column block j, rows
        // 16w + l/4 (+8) and columns 8j + 2(l%4) (+1) as acc[4j + 2h + e].
        const int row = warp_in_group * 16 + lane / 4;
        const int col = 2 * (lane % 4);
#pragma unroll
        for (int jj = 0; jj < C::kEpilogueCols / 8; ++jj)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int j = chunk_col / 8 + jj;
            *reinterpret_cast<float2*>(&staged[(row + 8 * h) * C::kEpiloguePitch + col + 8 * jj]) =
                make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
          }
      }
      dev::named_barrier_sync(barrier_id, 128);
      if (chunk_col >= cols) continue;  // uniform across the warpgroup
      for (int i = t; i < 64 * C::kEpilogueCols; i += 128) {
        const int r = d_row_major ? i / C::kEpilogueCols : i % 64;
        const int c = d_row_major ? i % C::kEpilogueCols : i / 64;
        if (r >= rows || chunk_col + c >= cols) continue;
        const int64_t gr = row_base + r, gc = static_cast<int64_t>(n0) + chunk_col + c;
        float v = ep.alpha * staged[r * C::kEpiloguePitch + c];
        if (ep.beta != 0.0f) v += ep.beta * load_epilogue(ep.c, gr * ep.c_row_stride + gc * ep.c_col_stride, ep.c_dtype);
        store_epilogue(ep.d, gr * ep.d_row_stride + gc * ep.d_col_stride, ep.d_dtype, v);
      }
    }
  }
}

}  // namespace tcgemm::sm90_sk
