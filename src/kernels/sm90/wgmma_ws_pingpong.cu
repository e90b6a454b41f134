// Ping-pong persistent cluster GEMM: the persistent cluster kernel (wgmma_ws_persistent_cluster_kernel.cuh:
// persistent grid of 2x1 clusters, B multicast in the CTA pair, one stage ring across tiles,
// TMA-store epilogue) with the other consumer schedule. There both consumer warpgroups cooperate
// on one 128x256 tile and finish it together, so the epilogue (fragment -> shared -> barrier ->
// TMA store) stalls the tensor pipe once per tile. Here each consumer warpgroup owns a whole
// 64x256 tile and the two take turns: warpgroup 1 issues all of tile i's k-blocks, hands the
// tensor cores to warpgroup 2 (tile i+1), and runs its epilogue while warpgroup 2 multiplies.
//
// NOTES:
//  - The order of turns: named barriers kOrderBar + c (256 threads: the waiting warpgroup c and
//    the arriving other one). Warpgroup c waits on its own barrier before its mainloop and,
//    right after issuing the last k-block (its wgmmas still in flight), arrives on the other's.
//    Warpgroup 2 arrives once up front so that warpgroup 1 goes first; the cluster's last tile
//    arrives nowhere, so every arrival has its wait and no barrier is left half-counted at exit.
//  - One ring, filled in the order of the turns: tile i's k-blocks, then tile i+1's, ... So a
//    consumer's ring position after its own tile skips the other's k_tiles stages, and a stage is
//    read by one warpgroup per CTA: empty barriers count 2 arrivals (that warpgroup in both CTAs).
//  - Shared memory (227 KB): a stage is 40 KB (A 64x64, B 256x64); each consumer stages its whole
//    64x256 16-bit tile (32 KB, one store round, its own buffer, so the two epilogues never wait
//    on each other). 4 stages + 64 KB of C = 224 KB; a 5th stage does not fit.
//  - Cluster and multicast as in the persistent cluster kernel: a cluster's work item is a
//    128x256 pair-tile (64 rows per CTA), each CTA multicasts one 128-row half of B to both;
//    both CTAs walk the same pair-tiles, so their consumers take the same turns and ring stages.
//    An odd tile-row count leaves a ghost CTA that loads its partner's A, multiplies, arrives
//    and stores nothing. TMA stores write whole 16-byte chunks, so the D map ends at N & ~7 and
//    the 1-7 tail columns go out from the C buffer by ordinary stores (see that kernel's NOTES).
//
// Reads top to bottom: config and static asserts; tile order; producer; consumers (turn, mainloop,
// epilogue); host launch and supports().
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/common/cluster.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/named_barrier.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "kernels/sm90/wgmma_ws_pingpong.hpp"

namespace tcgemm {
namespace {

using dev::WgmmaInput;

// --- config ----------------------------------------------------------------------------------
// Stages 4: each consumer stages its whole 64x256 16-bit tile (32 KB, one TMA store round).
// Stages 5: a fifth 40 KB stage fits only if each consumer stages one 64x64 box (8 KB) at a time,
// four store rounds a tile; the rounds wait on the TMA engine's reads, but the epilogue is off the
// tensor pipe's critical path here (it overlaps the other warpgroup's mainloop), so the deeper
// ring may be worth more (bench/NOTES.md).
template <int Stages>
struct Config {
  static constexpr int kTileM = 64;   // one consumer warpgroup's tile: one m64n256k16 accumulator
  static constexpr int kTileN = 256;
  static constexpr int kTileK = 64;   // one 128-byte swizzle row of 16-bit elements
  static constexpr int kMmaK = 16;
  static constexpr int kElementBytes = 2;
  static constexpr int kStages = Stages;
  static constexpr int kConsumers = 2;
  static constexpr int kThreads = 128 * (1 + kConsumers);  // warpgroup 0 is the producer
  static constexpr int kClusterM = 2;

  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;              // 1024
  static constexpr uint32_t kABytes = kTileM * kTileK * kElementBytes;   // 8 KB
  static constexpr uint32_t kBBytes = kTileN * kTileK * kElementBytes;   // 32 KB
  static constexpr uint32_t kBHalfBytes = kBBytes / 2;                   // 16 KB
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;             // 40 KB

  // C staging: 64-row x 128-byte boxes (64 columns), 128B-swizzled; kStoreCols a round.
  static constexpr int kBoxCols = kSwizzleBytes / kElementBytes;             // 64
  static constexpr uint32_t kBoxBytes = 64 * kSwizzleBytes;                  // 8 KB
  static constexpr int kStoreCols = Stages == 4 ? kTileN : kBoxCols;
  static constexpr uint32_t kConsumerCBytes = kStoreCols / kBoxCols * kBoxBytes;  // 32 or 8 KB
  static constexpr uint32_t kCBytes = kConsumers * kConsumerCBytes;
  static constexpr int kChunkCols = 16 / kElementBytes;  // TMA stores whole 16-byte chunks

  static constexpr uint32_t kBarrierBytes = 2 * kStages * 8;
  // Dynamic shared memory is only 16-byte aligned; 128B swizzle wants 1024-byte tiles.
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kCBytes + kBarrierBytes + kAtomBytes;

  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;
  static constexpr int kAccumulators = kTileN / 2;

  // Named barrier ids: 0 is __syncthreads; a consumer's epilogue barrier, then the turn barriers.
  static constexpr int kStoreBar = 2;  // + consumer, 128 threads
  static constexpr int kOrderBar = 4;  // + consumer, 256 threads
};

template <int S>
constexpr bool check_config() {
  using C = Config<S>;
  static_assert(S == 4 || S == 5, "4 stages + 64 KB of C, or 5 stages + 16 KB");
  static_assert(C::kTileK * C::kElementBytes == C::kSwizzleBytes, "BK fills one 128-byte swizzle row");
  static_assert(C::kABytes % C::kAtomBytes == 0 && C::kBHalfBytes % C::kAtomBytes == 0 &&
                    C::kBoxBytes % C::kAtomBytes == 0,
                "every stage, B half and C box starts on a 1024-byte swizzle atom");
  static_assert(C::kTileN % C::kStoreCols == 0 && C::kStoreCols % C::kBoxCols == 0, "C goes out in whole boxes");
  static_assert(C::kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
  static_assert(128 * C::kProducerRegisters + 128 * C::kConsumers * C::kConsumerRegisters <= 65536,
                "register budget over the 64K-register file");
  return true;
}
static_assert(check_config<4>() && check_config<5>());
using Geometry = Config<4>;  // tile and cluster: the same for every stage count
// Pair rows per raster group: 16 x 128 rows = the same 2048-row band of A as the persistent
// cluster kernel's default (8 pair rows of 256), so a wave reads the same A and B in L2.
constexpr int kRasterGroup = 16;

struct Params {
  int64_t m, n;
  int64_t n_tma;  // n rounded down to 8 columns: what the TMA store writes
  void* d;        // for the tail columns past n_tma
  int64_t ldd;
  int64_t tiles_m, tiles_n;
  int64_t pairs_m;     // ceil(tiles_m / 2)
  int64_t pair_tiles;  // pairs_m * tiles_n: a cluster's work items
  int k_tiles;
  float alpha;
};

// --- tile order --------------------------------------------------------------------------------
struct TileCoord {
  int32_t m0, n0;
  bool ghost;
};

// Pair-tile pt -> this CTA's tile: groups of kGroup pair rows sweep all tile columns.
__device__ __forceinline__ TileCoord tile_coord(int64_t pt, uint32_t rank, const Params& p) {
  const int64_t group_tiles = kRasterGroup * p.tiles_n;
  const int64_t first_pm = (pt / group_tiles) * kRasterGroup;
  const int64_t group_rows = min(p.pairs_m - first_pm, static_cast<int64_t>(kRasterGroup));
  const int64_t in_group = pt % group_tiles;
  const int64_t pair_m = first_pm + in_group % group_rows;
  const int64_t tile_n = in_group / group_rows;
  const bool ghost = Geometry::kClusterM * pair_m + rank >= p.tiles_m;
  const int64_t tile_m = Geometry::kClusterM * pair_m + (ghost ? 0 : rank);
  return {static_cast<int32_t>(tile_m * Geometry::kTileM), static_cast<int32_t>(tile_n * Geometry::kTileN), ghost};
}

// Moves a ring position on by n stages.
template <int kStages>
__device__ __forceinline__ void ring_advance(int& s, uint32_t& phase, int n) {
  const int to = s + n;
  phase ^= static_cast<uint32_t>(to / kStages) & 1u;
  s = to % kStages;
}

// --- the kernel ------------------------------------------------------------------------------
template <WgmmaInput In, int S>
__global__ void __launch_bounds__(Config<S>::kThreads, 1)
    wgmma_ws_pingpong_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                             const __grid_constant__ CUtensorMap map_d, const Params p) {
  using C = Config<S>;
  using Mma = dev::Wgmma<C::kTileN, In, 0, 0>;

  // [A stages][B stages][C: consumer 0, consumer 1][full][empty]
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (dev::smem_addr(smem_raw) + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const dev::StageRing ring(base, C::kStages, C::kABytes, C::kBBytes, C::kCBytes);

  const int warpgroup = threadIdx.x / 128;
  const int t = threadIdx.x % 128;

  if (threadIdx.x == 0) {
    dev::tma_prefetch_descriptor(&map_a);
    dev::tma_prefetch_descriptor(&map_b);
    dev::tma_prefetch_descriptor(&map_d);
    ring.init(C::kStages, C::kClusterM);  // the warpgroup whose turn it is, in both CTAs
  }
  dev::cluster_sync_after_init();

  const uint32_t rank = dev::cluster_ctarank();
  const int64_t cluster = blockIdx.x / C::kClusterM;
  const int64_t clusters = gridDim.x / C::kClusterM;

  if (warpgroup == 0) {
    // --- producer: one thread, every k-block of every tile in the order of the turns ----------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if (t == 0) {
      constexpr uint16_t kBothCtas = 0x3;
      int s = 0;
      uint32_t phase = 0;
      for (int64_t pt = cluster; pt < p.pair_tiles; pt += clusters) {
        const TileCoord tc = tile_coord(pt, rank, p);
        // A B half wholly past N is not loaded (its stale columns are never stored); both CTAs
        // see the same n0 and expect the same bytes.
        const bool b_upper_half = tc.n0 + C::kTileN / 2 < p.n;
        const uint32_t stage_bytes = C::kABytes + (b_upper_half ? 2 : 1) * C::kBHalfBytes;
        const int32_t b_row = tc.n0 + static_cast<int32_t>(rank) * (C::kTileN / 2);
        for (int kt = 0; kt < p.k_tiles; ++kt) {
          dev::mbarrier_wait(ring.empty(s), phase ^ 1);
          dev::mbarrier_arrive_expect_tx(ring.full(s), stage_bytes);
          const int32_t k0 = kt * C::kTileK;
          dev::tma_load_2d(ring.a(s), &map_a, ring.full(s), k0, tc.m0);
          if (rank == 0 || b_upper_half)
            dev::tma_load_2d_multicast(ring.b(s) + rank * C::kBHalfBytes, &map_b, ring.full(s), k0, b_row, kBothCtas);
          ring_advance<C::kStages>(s, phase, 1);
        }
      }
      ring.wait_all_released(C::kStages, s, phase);  // then the CTA may exit with no cluster barrier
    }
  } else {
    // --- consumers: warpgroup 1 takes the cluster's turns 0, 2, 4, ..., warpgroup 2 turns 1, 3, ...
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
    const int consumer = warpgroup - 1;
    const int lane = t % 32;
    const uint32_t peer_empty_bar = dev::map_to_rank(ring.empty_bar, rank ^ 1u);
    auto release = [&](int s) {
      if (t == 0) {
        dev::mbarrier_arrive(ring.empty(s));
        dev::mbarrier_arrive_cluster(peer_empty_bar + 8 * s);
      }
    };

    // This thread's place in each C box: fragment rows 16w + l/4 (+8), columns 2(l%4), +1 of each
    // 8-column block = 16-byte chunk jb of the box row; 128B swizzle XORs the chunk with row % 8
    // (= l/4 for both rows), so a warp's 4-byte stores hit 32 distinct banks.
    const uint32_t c_buffer = ring.gap_smem + consumer * C::kConsumerCBytes;
    const int frag_row = (t / 32) * 16 + lane / 4;
    const uint32_t c_thread = c_buffer + frag_row * C::kSwizzleBytes + (lane % 4) * 4;
    const uint32_t swz = static_cast<uint32_t>(lane / 4);

    const int64_t turns = (p.pair_tiles - cluster + clusters - 1) / clusters;  // the cluster's tiles
    int s = 0;
    uint32_t phase = 0;
    if (consumer == 1) {
      ring_advance<C::kStages>(s, phase, p.k_tiles);  // turn 0's stages belong to warpgroup 1
      if (turns > 0) dev::named_barrier_arrive(C::kOrderBar + 0, 256);
    }

    float acc[C::kAccumulators];
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;
    for (int64_t turn = consumer; turn < turns; turn += 2) {
      const TileCoord tc = tile_coord(cluster + turn * clusters, rank, p);

      dev::named_barrier_sync(C::kOrderBar + consumer, 256);  // the tensor cores are ours
      int prev = 0;
      for (int kt = 0; kt < p.k_tiles; ++kt) {
        dev::mbarrier_wait(ring.full(s), phase);
        const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s), 16, C::kAtomBytes);
        const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), 16, C::kAtomBytes);
        constexpr uint32_t kStep = C::kMmaK * C::kElementBytes;
        dev::mma_k_block<Mma, C::kTileK / C::kMmaK>(acc, desc_a, desc_b, kStep, kStep, kt > 0);
        dev::wgmma_wait_group<1>();  // the previous k-block has finished reading its stage
        if (kt > 0) release(prev);
        prev = s;
        ring_advance<C::kStages>(s, phase, 1);
      }
      // Every wgmma of this tile is issued: the other warpgroup may issue its own behind them.
      if (turn + 1 < turns) dev::named_barrier_arrive(C::kOrderBar + (consumer ^ 1), 256);
      dev::wgmma_wait_group<0>();
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
      release(prev);
      ring_advance<C::kStages>(s, phase, p.k_tiles);  // the other warpgroup's turn

      // --- epilogue: alpha*acc -> 16-bit -> swizzled C boxes -> TMA store, overlapping the
      // other warpgroup's mainloop ------------------------------------------------------------
      if (tc.ghost) continue;  // uniform across the CTA
#pragma unroll
      for (int round = 0; round < C::kTileN / C::kStoreCols; ++round) {
        if (t == 0) dev::bulk_wait_group_read<0>();  // this buffer's last store has been read out
        dev::named_barrier_sync(C::kStoreBar + consumer, 128);
#pragma unroll
        for (int jj = 0; jj < C::kStoreCols / 8; ++jj) {
          const int j = round * C::kStoreCols / 8 + jj;
          const uint32_t box = static_cast<uint32_t>(jj / (C::kBoxCols / 8));
          const uint32_t chunk16 = ((static_cast<uint32_t>(jj % (C::kBoxCols / 8))) ^ swz) * 16;
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const float x = p.alpha * acc[4 * j + 2 * h], y = p.alpha * acc[4 * j + 2 * h + 1];
            const uint32_t addr = c_thread + box * C::kBoxBytes + h * 8 * C::kSwizzleBytes + chunk16;
            uint32_t bits;
            if constexpr (In == WgmmaInput::bf16) {
              const __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
              bits = *reinterpret_cast<const uint32_t*>(&v);
            } else {
              const __half2 v = __floats2half2_rn(x, y);
              bits = *reinterpret_cast<const uint32_t*>(&v);
            }
            asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(bits) : "memory");
          }
        }
        dev::fence_proxy_async_shared();  // generic-proxy writes -> visible to the TMA engine
        dev::named_barrier_sync(C::kStoreBar + consumer, 128);
        const int32_t n0 = tc.n0 + round * C::kStoreCols;
        if (t == 0 && tc.m0 < p.m) {
#pragma unroll
          for (int b = 0; b < C::kStoreCols / C::kBoxCols; ++b) {
            const int32_t col = n0 + b * C::kBoxCols;
            if (col < p.n_tma) dev::tma_store_2d(&map_d, c_buffer + b * C::kBoxBytes, col, tc.m0);
          }
          dev::bulk_commit_group();
        }
        if (p.n_tma < p.n && p.n_tma >= n0 && p.n_tma < n0 + C::kStoreCols) {  // uniform
          // The 1-7 columns past the last whole 16-byte chunk, 64 rows.
          const int tail = static_cast<int>(p.n - p.n_tma);
          const int local0 = static_cast<int>(p.n_tma - n0);
          for (int i = t; i < 64 * C::kChunkCols; i += 128) {
            const int r = i / C::kChunkCols, c = i % C::kChunkCols;
            if (c >= tail || tc.m0 + r >= p.m) continue;
            const int local = local0 + c;
            const uint32_t byte = static_cast<uint32_t>(local % C::kBoxCols) * C::kElementBytes;
            const uint32_t addr = c_buffer + (local / C::kBoxCols) * C::kBoxBytes + r * C::kSwizzleBytes +
                                  (((byte / 16) ^ (r % 8)) * 16) + byte % 16;
            uint16_t bits;
            asm volatile("ld.shared.u16 %0, [%1];" : "=h"(bits) : "r"(addr) : "memory");
            static_cast<uint16_t*>(p.d)[(tc.m0 + r) * p.ldd + p.n_tma + c] = bits;
          }
        }
      }
    }
    if (t == 0) dev::bulk_wait_group<0>();  // shared memory stays until the stores have read it
  }
}

// --- host side -------------------------------------------------------------------------------
template <WgmmaInput In, int S>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_ws_pingpong_kernel<In, S>);
}

template <WgmmaInput In, int S>
Status launch_impl(const GemmArgs& args, int max_clusters) {
  using C = Config<S>;
  const GemmDesc& g = args.desc;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  Result<TensorMap2d> map_a = make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, C::kTileK, C::kTileM);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b = make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, C::kTileK, C::kTileN / 2);
  if (!map_b.ok()) return map_b.status();
  // Inner extent N rounded down to 8 columns (16-byte store granularity); where that is 0 no TMA
  // store is issued and the map only has to be valid (ldd >= 8 by the 16-byte ld rule).
  const int64_t n_tma = g.n / C::kChunkCols * C::kChunkCols;
  Result<TensorMap2d> map_d = make_tensor_map_2d("D", g.d.dtype, args.d, std::max<int64_t>(n_tma, C::kChunkCols), g.m,
                                                 ldd, C::kBoxCols, C::kTileM);
  if (!map_d.ok()) return map_d.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.n_tma = n_tma;
  p.d = args.d;
  p.ldd = ldd;
  set_pair_grid(p, pair_grid(g, C::kTileM, C::kTileN, C::kTileK));
  p.alpha = g.alpha;
  if (p.pair_tiles <= 0) return Status::success();

  const void* fn = kernel_function<In, S>();
  if (Status s = allow_dynamic_smem(fn, static_cast<int>(C::kSmemBytes)); !s.ok()) return s;
  Result<int> resident = resident_clusters(fn, C::kClusterM, C::kThreads, static_cast<int>(C::kSmemBytes));
  if (!resident.ok()) return resident.status();
  int64_t clusters = resident.value();
  if (max_clusters > 0) clusters = std::min<int64_t>(clusters, max_clusters);
  clusters = std::min<int64_t>(clusters, p.pair_tiles);

  void* kernel_args[] = {const_cast<CUtensorMap*>(&map_a.value().map), const_cast<CUtensorMap*>(&map_b.value().map),
                         const_cast<CUtensorMap*>(&map_d.value().map), &p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(C::kClusterM * clusters));
  cfg.blockDim = dim3(C::kThreads);
  cfg.dynamicSmemBytes = C::kSmemBytes;
  cfg.stream = args.stream;
  cudaLaunchAttribute attr = cluster_dim_attribute(C::kClusterM);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  if (cudaError_t e = cudaLaunchKernelExC(&cfg, fn, kernel_args); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 ping-pong launch failed: ") + cudaGetErrorString(e));
  return Status::success();
}

}  // namespace

Status sm90_wgmma_ws_pingpong_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16)
    return Status::unsupported("the ping-pong kernel takes bf16 or f16 inputs");
  // The persistent cluster kernel's contract (TN, row-major D of the input type, TMA's 16-byte
  // rules on A, B and D), but this epilogue does not read C.
  if (g.beta != 0.0f) return Status::unsupported("the ping-pong kernel's TMA-store epilogue does not read C (beta must be 0)");
  return sm90_wgmma_ws_pc_supports(g, input);
}

Status sm90_wgmma_ws_pingpong_launch(const GemmArgs& args, DType input, int stages, int max_clusters) {
  if (input != DType::bf16 && input != DType::f16)
    return Status(StatusCode::internal, "ping-pong kernel: input must be bf16 or f16");
  if (stages != 4 && stages != 5) return Status(StatusCode::internal, "ping-pong kernel: stages must be 4 or 5");
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr)
    return Status::invalid("A, B and D must be non-null");
  if (input == DType::bf16)
    return stages == 4 ? launch_impl<WgmmaInput::bf16, 4>(args, max_clusters)
                       : launch_impl<WgmmaInput::bf16, 5>(args, max_clusters);
  return stages == 4 ? launch_impl<WgmmaInput::f16, 4>(args, max_clusters)
                     : launch_impl<WgmmaInput::f16, 5>(args, max_clusters);
}

const void* sm90_wgmma_ws_pingpong_function(DType input, int stages) {
  if (input == DType::bf16)
    return stages == 4 ? kernel_function<WgmmaInput::bf16, 4>() : kernel_function<WgmmaInput::bf16, 5>();
  return stages == 4 ? kernel_function<WgmmaInput::f16, 4>() : kernel_function<WgmmaInput::f16, 5>();
}

Sm90WsShape sm90_wgmma_ws_pingpong_shape(int stages) {
  using C = Geometry;
  return {C::kTileM, C::kTileN, C::kTileK, stages, C::kThreads,
          static_cast<int>(stages == 4 ? Config<4>::kSmemBytes : Config<5>::kSmemBytes)};
}

}  // namespace tcgemm
