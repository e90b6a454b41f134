// The first Hopper kernel: TMA loads into a ring of shared-memory stages, two consumer warpgroups
// multiplying with wgmma m64n256k16, one producer warp feeding them (warp specialization).
// Non-persistent: one CTA per 128x256 output tile, launched in a grouped (L2-friendly) order.
// Split-K (split_k.cu) reuses it unchanged but for blockIdx.z = the split: a range of k-blocks,
// and an epilogue aimed at that split's f32 slab (alpha 1, beta 0); gridDim.z = 1 is the plain GEMM.
// With Params::fold the splits of a tile then reduce their slabs into D themselves (slab_fold.cuh).
//
// Reads top to bottom: config and static asserts; parameters; shared-memory layout; tile order;
// producer; consumer; epilogue. Its instances, launch and supports() are in wgmma_tma_ws.cu, the
// one file that includes this.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/common/cluster.cuh"
#include "kernels/common/cta_trace.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/in_kernel_copy.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/named_barrier.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/common/row_class_realign.cuh"
#include "kernels/common/slab_fold.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/staged_epilogue.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/thread_loads.cuh"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/common/wgmma_store.cuh"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm::sm90_ws {

using dev::WgmmaInput;
using dev::load_epilogue;
using dev::store_epilogue;

// --- config ----------------------------------------------------------------------------------
// Templated on the input only through the element size: BK is one 128-byte swizzle row (64
// 16-bit or 32 tf32 elements) and the wgmma K is 32 bytes, so a stage holds the same bytes and
// every descriptor offset is the same for bf16, f16 and tf32.
//
// The tile's N is a template parameter: 256 is the large-problem kernel; 128, 64, 32 and 16 serve
// the swap-A/B path for small M (swap_ab.cu), where the narrow side is the problem's M, and the
// tile/stage sweep. The stage count fills the 227 KB a CTA may use unless a sweep point names one.
// Consumers: 2 warpgroups (128-row tile), or 1 (64 rows) for the narrowest swap tiles, where a
// decode shape's N = 8192 then makes 128 CTAs without splitting K, and for a 64x64 tile that halves
// the bytes each SM takes in per output element against 128x64 where one round has SMs to spare, or 4 (256 rows) for the
// 64-wide swap tile, where N = 28672 makes 112 CTAs, one round (cuBLAS's choice there, run 48).
// StageKBlocks = 2: a stage holds two k-blocks, one barrier round trip for both (bench/NOTES.md,
// session 50: TMA alone paid ~140-260 cycles a stage beyond its bytes, run 275).
template <int TileN, int Consumers = 2, int StageKBlocks = 1>
constexpr int max_stages() {
  constexpr int stage = StageKBlocks * (64 * Consumers * 128 + TileN * 128);  // A and B bytes of its k-blocks
  constexpr int budget = 227 * 1024 - 1024 - 2 * 16 * 8;      // alignment slack, barriers
  return budget / stage < 16 ? budget / stage : 16;
}

template <WgmmaInput In, int TileN = 256, int Stages = 4, int Consumers = 2, int StageKBlocks = 1>
struct Config {
  static constexpr int kElementBytes = dev::kWgmmaElementBytes<In>;
  static constexpr int kTileM = 64 * Consumers;
  static constexpr int kTileN = TileN;
  static constexpr int kTileK = 128 / kElementBytes;  // one 128-byte swizzle row
  static constexpr int kStages = Stages;
  static constexpr int kStageKBlocks = StageKBlocks;  // k-blocks a stage (one barrier round trip)
  static constexpr int kConsumers = Consumers;  // warpgroups, 64 rows of the tile each
  static constexpr int kThreads = 128 * (1 + kConsumers);  // warpgroup 0 is the producer
  static constexpr int kMmaK = dev::kWgmmaK<In>;
  static constexpr int kGroupM = 8;  // tile rows per raster group (L2 reuse of B)

  // 128B swizzle atoms: 8 rows x 128 bytes. A K-major operand has one 128-byte row per M/N index;
  // an MN-major one (16-bit inputs only) is loaded as 64-element-wide column blocks of kTileK rows.
  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;                     // 1024
  static constexpr uint32_t kMnBlock = kSwizzleBytes / kElementBytes;            // 64 (16-bit)
  static constexpr uint32_t kMnBlockBytes = kTileK * kSwizzleBytes;              // 8192 (16-bit)
  static constexpr uint32_t kABytes = kTileM * kTileK * kElementBytes;           // 16 KB
  static constexpr uint32_t kBBytes = kTileN * kTileK * kElementBytes;           // 32 KB
  static constexpr uint32_t kStageABytes = kStageKBlocks * kABytes;             // a stage's A, k-block after k-block
  static constexpr uint32_t kStageBBytes = kStageKBlocks * kBBytes;
  static constexpr uint32_t kStageBytes = kStageABytes + kStageBBytes;           // 48 KB
  static constexpr uint32_t kBarrierBytes = 2 * kStages * 8;                     // full + empty
  // NOTES: dynamic shared memory is only guaranteed 16-byte aligned; 128B swizzle wants every
  // tile on a 1024-byte boundary, so we over-allocate one atom and align by hand.
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kBarrierBytes + kAtomBytes;

  // setmaxnreg (two consumers only): the producer needs a handful of registers, each consumer
  // holds 128 f32 accumulators. 40*128 + 232*256 = 64512 = 168*384, the launch allocation at 384
  // threads. One consumer (<= 32 accumulators, 256 threads at <= 255 registers) or four (32 each,
  // 640 threads at <= 102 registers) fit the launch allocation as they are.
  static constexpr bool kMovesRegisters = kConsumers == 2;
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;
  static constexpr int kAccumulators = kTileN / 2;  // m64nN: N/2 floats per thread
  // Epilogue staging: each consumer's 64 x kTileN f32 block, rows padded by 8 floats so the
  // fragment's 8 rows per store land in different banks.
  static constexpr int kEpiloguePitch = kTileN + 8;

  static_assert(kTileK * kElementBytes == kSwizzleBytes,
                "BK must fill exactly one 128-byte swizzle row");
  static_assert(kTileM == 64 * kConsumers, "each consumer warpgroup owns 64 rows (m64)");
  static_assert(kTileN % 16 == 0 && kTileN <= 256, "wgmma N and the TMA box are <= 256");
  static_assert(kTileM % kMnBlock == 0, "MN-major A tiles are loaded in 64-element column blocks");
  static_assert(kStages >= 2 && kStages <= 16, "a ring of 2 to 16 stages");
  static_assert(kStageKBlocks == 1 || kStageKBlocks == 2, "a stage of one or two k-blocks");
  static_assert(kABytes % kAtomBytes == 0 && kBBytes % kAtomBytes == 0,
                "every stage must start on a 1024-byte swizzle atom");
  static_assert(kConsumers * 64 * kEpiloguePitch * 4 <= kStages * kStageBytes,
                "the epilogue staging must fit in the pipeline buffers");  // f32; the 16-bit one is half
  static_assert(kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
  static_assert(kProducerRegisters % 8 == 0 && kConsumerRegisters % 8 == 0 &&
                    kProducerRegisters >= 24 && kConsumerRegisters <= 256,
                "setmaxnreg takes multiples of 8 in [24, 256]");
  static_assert(!kMovesRegisters || 128 * kProducerRegisters + 128 * kConsumers * kConsumerRegisters <= 65536,
                "register budget over the 64K-register file");
  static_assert(kConsumers == 1 || kConsumers == 2 || (kConsumers == 4 && kTileN <= 64),
                "four consumers only with narrow tiles (their accumulators fit 102 registers)");
};

// What every input shares (grid, block, shared memory): the host side reads it here.
template <int TileN, int Stages, int Consumers, int StageKBlocks = 1>
using Shared = Config<WgmmaInput::bf16, TileN, Stages, Consumers, StageKBlocks>;
static_assert(Config<WgmmaInput::tf32>::kSmemBytes == Config<WgmmaInput::bf16>::kSmemBytes &&
              Config<WgmmaInput::tf32>::kStageBytes == Config<WgmmaInput::bf16>::kStageBytes,
              "tf32 stages hold the same bytes");

// --- kernel parameters -----------------------------------------------------------------------
struct Epilogue {
  void* d;
  const void* c;  // read only when beta != 0
  int64_t d_row_stride, d_col_stride;  // element (r, c) at r*row_stride + c*col_stride
  int64_t c_row_stride, c_col_stride;
  float alpha, beta;
  DType d_dtype, c_dtype;
  // Split-K: split z writes its tile to d + z * d_split_bytes (0 without split-K, where z = 0).
  int64_t d_split_bytes;
  // Split-K into row-major f32 slabs with an even ld: every tile stores float pairs straight from
  // registers (edge tiles bounded), never through the staged epilogue.
  bool f32_slab;
  // A row-major D of the input's 16-bit type with beta == 0: every tile goes through shared memory
  // as 16-bit values and out in d_vec-element stores along D's rows (8: ldd % 8 == 0 and D 16-byte
  // aligned; 2: ldd even, D 4-byte aligned; else 1), edge tiles bounded.
  bool direct_store;
  int32_t d_vec;
  // The staged epilogue with a row-major D: 4 consecutive elements go out as one 16-byte (f32) or
  // 8-byte (16-bit) store where ldd % 4 == 0 and D is aligned to 4 elements (not for split slabs).
  bool d_quads;
  // The same for C (beta != 0): ldc % 4 == 0 and C aligned to 4 elements.
  bool c_quads;
};

// Thread loads (the `_ldg` variants): A and B read by the producer warpgroup itself (aligned 16-byte
// words shifted into place, element by element at the matrix's edges), any alignment and layout.
struct ThreadLoads {
  const uint16_t* a;
  const uint16_t* b;
  int64_t lda, ldb;
  uintptr_t a_end, b_end;  // one past the last byte each matrix spans: no 16-byte load crosses it
  bool a_k_contiguous, b_k_contiguous;  // A row-major, B column-major
};

// The TMA descriptors, in parameter space (__grid_constant__): one map per operand, or, row classes
// (tensor_map.hpp), eight per operand with each class's start offset and row count.
template <bool kByClass>
struct Maps {
  CUtensorMap a, b;
};
template <>
struct Maps<true> {
  CUtensorMap a[kRowClasses], b[kRowClasses];
  int32_t a_x0[kRowClasses], b_x0[kRowClasses];
  int32_t a_rows[kRowClasses], b_rows[kRowClasses];
  int32_t a_order[kRowClasses], b_order[kRowClasses];
};

struct Params {
  int64_t m, n, k;
  ThreadLoads loads;
  int64_t tiles_m, tiles_n;
  // Split-K: blockIdx.z covers k-blocks [z * k_blocks_per_split, (z + 1) * k_blocks_per_split),
  // clipped to the last one; without split-K it is every k-block and gridDim.z = 1.
  int32_t k_blocks_per_split;
  Epilogue epilogue;
  // Diagnosis (sm90_wgmma_ws_set_trace): per-CTA stamps (common/cta_trace.cuh); nullptr: off.
  uint64_t* trace;
  // kInCopy: the operands this grid copies before it loads them (in_kernel_copy.hpp).
  InCopy copy;
  // Split-K inside a cluster (1 = off): the gridDim.z = cluster_splits CTAs of a tile form one
  // cluster; rank 0 adds the other ranks' f32 sums from their shared memory and runs the epilogue.
  int32_t cluster_splits;
  // The tail split (tail_splits > 1, clusters of tail_splits along x, gridDim.z = 1): CTAs below
  // tail_first run whole tiles unsplit; the rest run tiles tail_first.. each in tail_splits splits of
  // tail_k_blocks_per_split, one cluster a tile, summed as above.
  int64_t tail_first;
  int32_t tail_splits, tail_k_blocks_per_split;
  // TMA multicast (1 x 1 = off; K-major TMA tiles, no cluster sums): clusters of mc_m x mc_n CTAs
  // along x run mc_m x mc_n neighbouring tiles of one split; the CTAs of a tile row share A, each
  // loading 1/mc_n of its rows into all of them, those of a tile column share B (1/mc_m each).
  // tiles_m % mc_m == 0 and tiles_n % mc_n == 0 (the host checks).
  int32_t mc_m, mc_n;
  // L2 eviction policies on the TMA loads (0 = none; TCGEMM_DIAG_L2_HINT picks others; the MN-major
  // box loads since run 214, the multicast ones of the 128x128 and 128x256 tiles since run 222).
  // 1: the operand more tiles share (A when tiles_n >= tiles_m) evict_last, the other evict_first;
  // 2: both evict_first; 3: as 1, on the one-consumer (64-row) tiles only, 1-4% faster there
  // where 1 cost 128x8192x28672's split-K tile 4% (bench/NOTES.md, runs 210-212); 4 (the
  // default): as 1 on the one-consumer tiles, as 2 on the others (run 212: 2-5% on split-K).
  int32_t l2_hint;
  // Split-K's reduce in this grid (slab_fold.cuh), with f32 slabs only: the tile's `splits` CTAs
  // meet at counters[blockIdx.x] and write `out` (the caller's D, C, alpha, beta); slab z is
  // slab_floats floats past slab z-1. counters nullptr: off (splitk_reduce runs after the grid).
  struct Fold {
    uint32_t* counters;
    int32_t splits;
    int64_t slab_floats;
    Epilogue out;
  } fold;
};

// --- the kernel ------------------------------------------------------------------------------
// kAMnMajor: A is column-major (M contiguous); kBMnMajor: B is row-major (N contiguous).
// kDirectStore: the host has checked that D is row-major, of the input's 16-bit type, 4-byte
// aligned with an even ldd, and that beta == 0; full tiles then store straight from registers.
// kThreadLoads: the producer warpgroup fills each stage with plain loads (thread_loads.cuh) instead
// of TMA, any alignment and layout, always K-major in shared memory; the maps are not read.
// kRowClassLoads: A and B K-major with an ld or base TMA cannot take directly: TMA lands each row
// class's boxes (tensor_map.hpp) in a raw ring and the producer's warps 1-3 shift them into natural
// stages (row_class_realign.cuh); the stages then hold what the TMA path's would.
// kInCopy: K-major A and B, TMA loads from the aligned copies that the CTAs of each split first
// write themselves from the caller's operands (in_kernel_copy.cuh), one round of CTAs.
// kMc: the multicast instances (Params::mc_m, mc_n), K-major A and B by TMA; every other instance
// compiles none of it, so gemm()'s kernels stay as they were measured.
// StageKBlocks = 2: stages of two k-blocks (Config), K-major A and B by TMA without multicast.
template <WgmmaInput In, int TileN, int Stages, int Consumers, bool kAMnMajor, bool kBMnMajor, bool kDirectStore,
          bool kThreadLoads = false, bool kRowClassLoads = false, bool kInCopy = false, bool kMc = false,
          int StageKBlocks = 1>
__global__ void __launch_bounds__(Config<In, TileN, Stages, Consumers, StageKBlocks>::kThreads, 1)
    wgmma_tma_ws_kernel(const __grid_constant__ Maps<kRowClassLoads> maps, const Params p) {
  using C = Config<In, TileN, Stages, Consumers, StageKBlocks>;
  constexpr int kKb = C::kStageKBlocks;
  static_assert(kKb == 1 || (!kAMnMajor && !kBMnMajor && !kThreadLoads && !kRowClassLoads && !kInCopy && !kMc),
                "two-k-block stages: K-major A and B by TMA, no multicast");
  static_assert(!kBMnMajor || TileN % 64 == 0, "an MN-major B tile is whole 64-element column blocks");
  using Mma = dev::Wgmma<C::kTileN, In, kAMnMajor ? 1 : 0, kBMnMajor ? 1 : 0>;

  // Shared memory, carved in one place: [A stages][B stages][full barriers][empty barriers].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  // Row classes split the stages: kRing natural K-major stages that wgmma reads, then kRaw stages of
  // the class boxes as TMA lands them (their barriers after the ring's).
  constexpr int kRing = kRowClassLoads ? C::kStages / 2 : C::kStages;
  constexpr int kRaw = C::kStages - kRing;
  const dev::StageRing ring(base, kRing, C::kStageABytes, C::kStageBBytes, kRaw * C::kStageBytes);
  const dev::StageRing boxes(base + kRing * C::kStageBytes, kRaw, C::kABytes, C::kBBytes, 2 * kRing * 8);

  const int warpgroup = threadIdx.x / 128;
  const int lane = threadIdx.x % 32;
  const uint64_t t_entry = dev::global_ns();
  uint64_t* const trace = dev::trace_slot(p.trace, blockIdx.x + gridDim.x * blockIdx.z);

  static_assert(!kThreadLoads || (!kAMnMajor && !kBMnMajor && In != WgmmaInput::tf32),
                "thread loads store 16-bit stages K-major");
  static_assert(!kRowClassLoads || (!kThreadLoads && !kAMnMajor && !kBMnMajor && !kDirectStore && C::kConsumers == 2 &&
                                 (C::kTileN == 64 || C::kTileN == 128)),
                "row classes: K-major A and B, boxes of whole 8-row swizzle atoms (tile N 64 or 128)");
  // Rows a row-class box holds (tile / 8).
  constexpr int kARows = C::kTileM / kRowClasses, kBRows = C::kTileN / kRowClasses;
  // Split-K in a cluster (Params::cluster_splits, tail_splits) is compiled only for the TMA-loaded
  // tiles at most 128 wide: the sum loop made the 256-wide tile and the 128-wide thread-load one spill.
  constexpr bool kClusterSum = C::kTileN <= kMaxClusterSumWidth && !kInCopy && !kThreadLoads && !kRowClassLoads;
  // This CTA's tile and split: blockIdx.x and .z, or past tail_first a tile's split within its
  // cluster along x. A cluster's CTAs are all below tail_first or all past it (the host aligns it).
  int64_t tile = blockIdx.x;
  int split = static_cast<int>(blockIdx.z), k_blocks_per_split = p.k_blocks_per_split;
  int cluster_splits = p.cluster_splits;
  if (kClusterSum && p.tail_splits > 1 && tile >= p.tail_first) {
    const int64_t j = tile - p.tail_first;
    tile = p.tail_first + j / p.tail_splits;
    split = static_cast<int>(j % p.tail_splits);
    k_blocks_per_split = p.tail_k_blocks_per_split;
    cluster_splits = p.tail_splits;
  }
  // Multicast: this CTA's place in its cluster (rm, rn) and the cluster's block of tiles.
  constexpr bool kMulticast = kMc && !kAMnMajor && !kBMnMajor && !kThreadLoads && !kRowClassLoads && !kInCopy;
  static_assert(!kMc || kMulticast, "multicast instances load K-major A and B by TMA");
  // The host launches a kMc instance exactly when it multicasts (launch_impl).
  constexpr bool multicast = kMulticast;
  const int mc_m = multicast ? p.mc_m : 1, mc_n = multicast ? p.mc_n : 1;
  const int mc_rank = multicast ? static_cast<int>(dev::cluster_ctarank()) : 0;
  const int rm = mc_rank % mc_m, rn = mc_rank / mc_m;
  if (multicast) tile /= mc_m * mc_n;
  // Tile order: groups of kGroupM tile rows sweep all tile columns, so CTAs resident together
  // share B columns and a small band of A rows in L2 (with multicast, rows and columns of blocks).
  const int64_t grid_m = p.tiles_m / mc_m, grid_n = p.tiles_n / mc_n;
  const int64_t group_tiles = C::kGroupM * grid_n;
  const int64_t first_m = (tile / group_tiles) * C::kGroupM;
  const int64_t group_rows = min(grid_m - first_m, static_cast<int64_t>(C::kGroupM));
  const int64_t in_group = tile % group_tiles;
  const int64_t tile_m = (first_m + in_group % group_rows) * mc_m + rm;
  const int64_t tile_n = (in_group / group_rows) * mc_n + rn;
  const int32_t m0 = static_cast<int32_t>(tile_m * C::kTileM);
  const int32_t n0 = static_cast<int32_t>(tile_n * C::kTileN);
  // This split's whole k-blocks (kTileK wide: 64 16-bit or 32 tf32 elements). Only the last split reaches the K tail (zero-filled).
  const int k_blocks = static_cast<int>((p.k + C::kTileK - 1) / C::kTileK);
  const int kt_first = split * k_blocks_per_split;
  const int k_tiles = min(k_blocks_per_split, k_blocks - kt_first);
  // setmaxnreg.dec would leave the loading threads 40 registers; the thread-load tiles (N <= 128)
  // keep their consumers well inside the launch allocation without it.
  constexpr bool kMovesRegisters = C::kMovesRegisters && !kThreadLoads && !kRowClassLoads;
  if (threadIdx.x == 0) {
    if constexpr (kRowClassLoads) {
#pragma unroll
      for (int j = 0; j < kRowClasses; ++j) {
        dev::tma_prefetch_descriptor(&maps.a[j]);
        dev::tma_prefetch_descriptor(&maps.b[j]);
      }
    } else if constexpr (!kThreadLoads) {
      dev::tma_prefetch_descriptor(&maps.a);
      dev::tma_prefetch_descriptor(&maps.b);
    }
    // full: the producer thread's arrive.expect_tx, each of the 128 loading threads' arrive, or each of
    // the realigning warps' (row classes); empty: one arrival per consumer warp, with multicast of
    // every CTA's that loads into this one (its tile row's and tile column's: mc_m + mc_n - 1).
    ring.init(kRing, C::kConsumers * 4 * (mc_m + mc_n - 1), kThreadLoads ? 128 : kRowClassLoads ? dev::kRealignWarps : 1);
    if constexpr (kRowClassLoads) boxes.init(kRaw, dev::kRealignWarps, 1);
  }
  // With multicast, the peers' barriers are initialised before any load or arrival targets them.
  if (multicast) dev::cluster_sync_after_init();
  else __syncthreads();
  // Programmatic dependent launch (common/pdl.cuh): the prologue above may overlap the previous
  // kernel's drain; nothing global is touched before the wait. The next PDL grid (split-K's
  // reduce, the next GEMM) may then be scheduled onto SMs this grid leaves idle.
  dev::pdl_wait();
  dev::pdl_launch_dependents();
  if (trace != nullptr && threadIdx.x == 0) {
    trace[0] = t_entry;
    trace[1] = dev::global_ns();
    trace[2] = dev::sm_id();
  }
  if constexpr (kInCopy) {
    static_assert(!kThreadLoads && !kRowClassLoads && !kAMnMajor && !kBMnMajor, "in-kernel copies: K-major TMA loads");
    // This split's K range, copied by its CTAs (blockIdx.x over the tiles); the stages are free
    // until the meeting, so each warp's landing slots are 8.4 KB of them.
    const int64_t k_lo = static_cast<int64_t>(kt_first) * C::kTileK;
    const int64_t k_hi = min(static_cast<int64_t>(kt_first + k_tiles) * C::kTileK, p.k);
    static_assert(C::kThreads / 32 * dev::kInCopyWarpBytes <= C::kStages * C::kStageBytes, "the copy slots fit the stages");
    uint8_t* slots = smem_raw + (base - raw) + (threadIdx.x / 32) * dev::kInCopyWarpBytes;
    dev::copy_k_range(p.copy, k_lo, k_hi, blockIdx.x, gridDim.x, slots);
    dev::in_copy_meet(p.copy.counters + blockIdx.z, gridDim.x);
    if (trace != nullptr && threadIdx.x == 0) trace[6] = dev::global_ns();  // the split's copies all done
  }


  if (warpgroup == 0) {
    // --- producer: one thread issues every TMA load (or, thread loads, all 128 threads load) -----
    // NOTES: one consumer (a narrow tile, <= 16 accumulators) needs no registers moved; and
    // setmaxnreg.inc would wait forever if the launch allocation could not cover it.
    if constexpr (kMovesRegisters) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if constexpr (kThreadLoads) {
      const ThreadLoads& ld = p.loads;
      int s = 0;
      uint32_t round = 0;  // NOTES: counters, not kt % kStages: 7 and 9 stages made that a division a k-block
      for (int kt = 0; kt < k_tiles; ++kt) {
        if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
        const int64_t k0 = static_cast<int64_t>(kt_first + kt) * C::kTileK;
        dev::thread_load_tile<C::kTileM>(smem_raw + (ring.a(s) - raw), ld.a, ld.lda, ld.a_k_contiguous, m0, p.m, k0, p.k,
                                         reinterpret_cast<uintptr_t>(ld.a), ld.a_end);
        dev::thread_load_tile<C::kTileN>(smem_raw + (ring.b(s) - raw), ld.b, ld.ldb, ld.b_k_contiguous, n0, p.n, k0, p.k,
                                         reinterpret_cast<uintptr_t>(ld.b), ld.b_end);
        dev::fence_proxy_async_shared();  // this thread's stores, before wgmma reads them (async proxy)
        dev::mbarrier_arrive(ring.full(s));
        if (++s == kRing) {
          s = 0;
          ++round;
        }
      }
    } else if constexpr (kRowClassLoads) {
      // Row classes (tensor_map.hpp): each class's k-block box lands in the raw ring starting at a
      // 16-byte aligned x (TMA refuses any other start: an illegal instruction, session 12), so raw
      // element t of box q of class j is element 64q + t - x0[j] of its rows; the producer shifts the
      // rows back into the natural stage the consumers read (row_class_realign.cuh): warp 0 lands the
      // boxes, warps 1-3 shift them. A box wholly past its class's rows is skipped (and not counted),
      // as the MN-major blocks past M below; its stale rows only feed output rows the epilogue never
      // stores.
      const int32_t qa = m0 / kRowClasses, qb = n0 / kRowClasses;
      uint32_t live = 0, box_bytes = 0;
#pragma unroll
      for (int j = 0; j < kRowClasses; ++j) {
        if (qa < maps.a_rows[j]) live |= 1u << j, box_bytes += kARows * C::kSwizzleBytes;
        if (qb < maps.b_rows[j]) live |= 1u << (8 + j), box_bytes += kBRows * C::kSwizzleBytes;
      }
      const int warp = (threadIdx.x / 32) % 4;
      if (warp == 0) {
        if (lane == 0) {
          int rs = 0;
          uint32_t round = 0;
          for (int q = 0; q <= k_tiles; ++q) {  // one box past the split: its first x0 elements end each row
            if (round > 0) dev::mbarrier_wait(boxes.empty(rs), (round - 1) & 1);
            dev::mbarrier_arrive_expect_tx(boxes.full(rs), box_bytes);
            const int32_t x = (kt_first + q) * C::kTileK;
#pragma unroll
            for (int j = 0; j < kRowClasses; ++j) {
              if (live & (1u << j))
                dev::tma_load_2d(boxes.a(rs) + j * kARows * C::kSwizzleBytes, &maps.a[j], boxes.full(rs), x, qa);
              if (live & (1u << (8 + j)))
                dev::tma_load_2d(boxes.b(rs) + j * kBRows * C::kSwizzleBytes, &maps.b[j], boxes.full(rs), x, qb);
            }
            if (++rs == kRaw) {
              rs = 0;
              ++round;
            }
          }
        }
      } else {
        dev::realign_row_classes_dispatch<C::kTileM, C::kTileN, kRing, kRaw>(warp - 1, ring, boxes, maps.a_x0, maps.b_x0,
                                                                            maps.a_order, maps.b_order, k_tiles, lane);
      }
    } else if (threadIdx.x == 0) {
      // NOTES: MN-major operands arrive as 64-element column blocks. A block wholly past M (or N)
      // is not loaded at all: its stale shared memory only feeds output rows (columns) that the
      // epilogue never stores, and skipping it avoids relying on TMA's handling of a box that lies
      // entirely outside the tensor. Partial boxes (M, N and K tails) are zero-filled by TMA and
      // still deliver the full box bytes.
      constexpr int kABlocks = C::kTileM / static_cast<int>(C::kMnBlock);
      constexpr int kBBlocks = C::kTileN / static_cast<int>(C::kMnBlock);
      const int a_blocks = static_cast<int>(min(static_cast<int64_t>(kABlocks), (p.m - m0 + C::kMnBlock - 1) / C::kMnBlock));
      const int b_blocks = static_cast<int>(min(static_cast<int64_t>(kBBlocks), (p.n - n0 + C::kMnBlock - 1) / C::kMnBlock));
      uint32_t block_bytes = (kAMnMajor ? a_blocks * C::kMnBlockBytes : C::kABytes) +
                             (kBMnMajor ? b_blocks * C::kMnBlockBytes : C::kBBytes);
      // Multicast parts: a_rows of A (a_part bytes) and b_rows of B each; the masks name the CTAs
      // of this tile row (same rm) and tile column (same rn).
      const int32_t a_rows = C::kTileM / mc_n, b_rows = C::kTileN / mc_m;
      const uint32_t a_part = C::kABytes / mc_n, b_part = C::kBBytes / mc_m;
      const bool a_part_live = m0 + rn * a_rows < p.m, b_part_live = n0 + rm * b_rows < p.n;
      uint16_t a_mask = 0, b_mask = 0;
      if (multicast) {
        block_bytes = 0;
        for (int j = 0; j < mc_n; ++j) {
          a_mask |= static_cast<uint16_t>(1u << (rm + mc_m * j));
          if (m0 + j * a_rows < p.m) block_bytes += a_part;
        }
        for (int i = 0; i < mc_m; ++i) {
          b_mask |= static_cast<uint16_t>(1u << (i + mc_m * rn));
          if (n0 + i * b_rows < p.n) block_bytes += b_part;
        }
      }
      int s = 0;
      uint32_t round = 0;
      // Multicast loads take the policies on the 128x128 and 128x256 tiles only: run 222 measured
      // them 0-5% faster there (split-K passes most) and 4-13% slower on the 128x64 and 64-row tiles.
      constexpr bool kMcHinted = C::kConsumers == 2 && C::kTileN >= 128;
      const bool hinted = (!multicast || kMcHinted) &&
                          (p.l2_hint == 1 || p.l2_hint == 2 || p.l2_hint == 4 || (p.l2_hint == 3 && C::kConsumers == 1));
      uint64_t pol_a = 0, pol_b = 0;
      if (hinted) {
        const bool keep = p.l2_hint == 1 || p.l2_hint == 3 || (p.l2_hint == 4 && C::kConsumers == 1);
        const bool a_shared = p.tiles_n >= p.tiles_m;
        pol_a = (keep && a_shared) ? dev::l2_policy_evict_last() : dev::l2_policy_evict_first();
        pol_b = (keep && !a_shared) ? dev::l2_policy_evict_last() : dev::l2_policy_evict_first();
      }
      const auto load = [hinted](uint32_t dst, const CUtensorMap* map, uint32_t bar, int32_t c0, int32_t c1, uint64_t pol) {
        if (hinted) dev::tma_load_2d_hint(dst, map, bar, c0, c1, pol);
        else dev::tma_load_2d(dst, map, bar, c0, c1);
      };
      const auto load_mc = [hinted](uint32_t dst, const CUtensorMap* map, uint32_t bar, int32_t c0, int32_t c1,
                                    uint16_t mask, uint64_t pol) {
        if (hinted) dev::tma_load_2d_multicast_hint(dst, map, bar, c0, c1, mask, pol);
        else dev::tma_load_2d_multicast(dst, map, bar, c0, c1, mask);
      };
      for (int kt = 0; kt < k_tiles; kt += kKb) {
        // The slot is free once the consumers released its previous use (round - 1).
        if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
        // A split's short last stage (two-k-block stages) is padded with boxes wholly past K, which
        // TMA fills with zeros and counts in full: the consumers then multiply every stage alike.
        // (The kKb == 1 arms here and at the trace stamp are what the general form reduces to; written
        // out, the one-k-block instances compile to the SASS they were measured with.)
        const int live = kKb == 1 ? 1 : min(kKb, k_tiles - kt);
        dev::mbarrier_arrive_expect_tx(ring.full(s), kKb * block_bytes);
#pragma unroll
        for (int j = 0; j < kKb; ++j) {
          const int32_t k0 = (j < live ? kt_first + kt + j : k_blocks) * C::kTileK;
          const uint32_t a_dst = ring.a(s) + j * C::kABytes, b_dst = ring.b(s) + j * C::kBBytes;
          if (multicast) {
            // This CTA's part of A (rows rn/mc_n of the tile) into its tile row's CTAs, of B (rm/mc_m)
            // into its tile column's; a part wholly past M or N is not loaded (nor counted, by any
            // of the CTAs that share it: they all see the same m0, n0).
            if (mc_n == 1) load(a_dst, &maps.a, ring.full(s), k0, m0, pol_a);
            else if (a_part_live) load_mc(a_dst + rn * a_part, &maps.a, ring.full(s), k0, m0 + rn * a_rows, a_mask, pol_a);
            if (mc_m == 1) load(b_dst, &maps.b, ring.full(s), k0, n0, pol_b);
            else if (b_part_live) load_mc(b_dst + rm * b_part, &maps.b, ring.full(s), k0, n0 + rm * b_rows, b_mask, pol_b);
          } else {
            if constexpr (!kAMnMajor) {
              load(a_dst, &maps.a, ring.full(s), k0, m0, pol_a);  // box kTileK(K) x 128(M)
            } else {
#pragma unroll
              for (int i = 0; i < kABlocks; ++i)  // box 64(M) x 64(K)
                if (i < a_blocks)
                  load(a_dst + i * C::kMnBlockBytes, &maps.a, ring.full(s), m0 + i * static_cast<int32_t>(C::kMnBlock), k0, pol_a);
            }
            if constexpr (!kBMnMajor) {
              load(b_dst, &maps.b, ring.full(s), k0, n0, pol_b);  // box kTileK(K) x 256(N)
            } else {
#pragma unroll
              for (int i = 0; i < kBBlocks; ++i)  // box 64(N) x 64(K)
                if (i < b_blocks)
                  load(b_dst + i * C::kMnBlockBytes, &maps.b, ring.full(s), n0 + i * static_cast<int32_t>(C::kMnBlock), k0, pol_b);
            }
          }
        }
        if (++s == kRing) {
          s = 0;
          ++round;
        }
      }
      // Multicast: each slot's last use released by every CTA that loads into it; then no peer
      // arrives on this CTA's barriers any more, and the CTA may exit without a cluster barrier
      // (whose release fence is a MEMBAR.ALL.GPU for every thread: bench/NOTES.md, runs 245-246).
      if (multicast) ring.wait_all_released(kRing, s, round & 1);
    }
    // Every thread of the cluster meets at the consumers' two barriers of the in-cluster sum.
    if (kClusterSum && cluster_splits > 1) {
      dev::cluster_sync();
      dev::cluster_sync();
    }
  } else {
    // --- consumers: warpgroup 1 takes rows 0-63 of the tile, warpgroup 2 rows 64-127 ------------
    if constexpr (kMovesRegisters) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
    const int consumer = warpgroup - 1;

    // Descriptor strides (see wgmma.cuh). Both layouts put this warpgroup's 64 rows 8 KB in:
    // K-major, 64 rows x 128 bytes; MN-major, the second 64-element column block.
    constexpr uint32_t kALbo = kAMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kBLbo = kBMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kSbo = C::kAtomBytes;
    constexpr uint32_t kAStepK = kAMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    constexpr uint32_t kBStepK = kBMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    const uint32_t a_offset = consumer * 64 * C::kSwizzleBytes;  // = consumer * kMnBlockBytes too
    static_assert(!kAMnMajor || 64 * C::kSwizzleBytes == C::kMnBlockBytes, "both A layouts split at 8 KB");
    static_assert(In != WgmmaInput::tf32 || (!kAMnMajor && !kBMnMajor), "tf32 is K-major only");

    float acc[C::kAccumulators];
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;

    int s = 0, prev = 0;
    uint32_t phase = 0;
    uint64_t t_first = 0, t_last = 0, c_first = 0;
    // Multicast: the empty barriers of the CTAs that load into this one (the other CTA of its tile
    // row, of its tile column; clusters are at most 2 x 2), released with this CTA's own.
    uint32_t peer_a_empty = 0, peer_b_empty = 0;
    if (multicast) {
      if (mc_n > 1) peer_a_empty = dev::map_to_rank(ring.empty(0), static_cast<uint32_t>(rm + mc_m * (1 - rn)));
      if (mc_m > 1) peer_b_empty = dev::map_to_rank(ring.empty(0), static_cast<uint32_t>((1 - rm) + mc_m * rn));
    }
    for (int kt = 0; kt < k_tiles; kt += kKb) {
      dev::mbarrier_wait(ring.full(s), phase);
      if (trace != nullptr && threadIdx.x == 128) {
        if (kt == 0) {
          t_first = dev::global_ns();
          c_first = clock64();
        }
        if (kKb == 1 ? kt == k_tiles - 1 : kt + kKb >= k_tiles) t_last = dev::global_ns();
      }
      const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s) + a_offset, kALbo, kSbo);
      const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), kBLbo, kSbo);
      dev::mma_k_blocks<Mma, C::kTileK / C::kMmaK, kKb>(acc, desc_a, desc_b, kAStepK, kBStepK, C::kABytes, C::kBBytes,
                                                        kt > 0);
      // Keep this k-tile's MMAs in flight; the previous one has finished reading its stage.
      dev::wgmma_wait_group<1>();
      if (kt > 0 && lane == 0) {
        dev::mbarrier_arrive(ring.empty(prev));
        if (multicast && mc_n > 1) dev::mbarrier_arrive_cluster(peer_a_empty + 8 * prev);
        if (multicast && mc_m > 1) dev::mbarrier_arrive_cluster(peer_b_empty + 8 * prev);
      }
      prev = s;
      if (++s == kRing) {
        s = 0;
        phase ^= 1;
      }
    }
    dev::wgmma_wait_group<0>();
    // Multicast: the last stage released too, which the producers' tails (theirs and the peers')
    // wait for before their CTAs may exit.
    if (multicast && k_tiles > 0 && lane == 0) {
      dev::mbarrier_arrive(ring.empty(prev));
      if (mc_n > 1) dev::mbarrier_arrive_cluster(peer_a_empty + 8 * prev);
      if (mc_m > 1) dev::mbarrier_arrive_cluster(peer_b_empty + 8 * prev);
    }
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
    if (trace != nullptr && threadIdx.x == 128) {
      trace[3] = t_first;
      trace[4] = t_last;
      trace[5] = dev::global_ns();
      trace[7] = clock64() - c_first;  // SM cycles over trace[5] - trace[3]: the clock the MMAs ran at
    }
    // Multicast: every load into this CTA has landed (its last stage was full), so the epilogue
    // may reuse the stages; the producer's tail keeps the CTA until no peer arrives on its barriers.
    if (kClusterSum && cluster_splits > 1) {
      // Split-K in the cluster: each rank but 0 leaves its f32 sum in its own stages (idle now: every
      // load has landed and been read), rank 0 adds them in rank order (bitwise reproducible) and
      // runs the epilogue; the second barrier keeps the others' shared memory alive until it has.
      // NOTES: a decode tile's sum is 4-16 KB (the 128-wide one's 64 KB), against the 64-112 KB of
      // the 128x256 tiles whose cluster sums lost to the slabs (runs 100, 164-165).
      constexpr int kSumThreads = 128 * C::kConsumers;
      static_assert(C::kAccumulators * kSumThreads * 4 <= C::kStages * C::kStageBytes, "a rank's sum fits its stages");
      static_assert(C::kAccumulators % 4 == 0, "the sums move as float4");
      const int t = static_cast<int>(threadIdx.x) - 128;
      const uint32_t rank = dev::cluster_ctarank();
      // Thread t's accumulators 4j..4j+3 at float4 j * kSumThreads + t: a warp's 16-byte accesses
      // are 512 contiguous bytes, and a peer's sum comes over in a quarter of the loads.
      float4* part = reinterpret_cast<float4*>(smem_raw + (base - raw));
      if (rank != 0) {
        if constexpr (C::kConsumers > 1) dev::named_barrier_sync(1, kSumThreads);  // both consumers done with the stages
#pragma unroll
        for (int j = 0; j < C::kAccumulators / 4; ++j)
          part[j * kSumThreads + t] = make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]);
      }
      dev::cluster_sync();
      if (rank == 0) {
        for (int r = 1; r < cluster_splits; ++r) {
          const uint32_t peer = dev::map_to_rank(base, static_cast<uint32_t>(r)) + 16u * static_cast<uint32_t>(t);
#pragma unroll
          for (int j = 0; j < C::kAccumulators / 4; ++j) {
            const float4 v = dev::ld_cluster_f32x4(peer + 16u * static_cast<uint32_t>(j * kSumThreads));
            acc[4 * j] += v.x;
            acc[4 * j + 1] += v.y;
            acc[4 * j + 2] += v.z;
            acc[4 * j + 3] += v.w;
          }
        }
      }
      dev::cluster_sync();
      if (rank != 0) return;
    }

    // --- fast epilogue: alpha*acc -> 16-bit pairs -> global, no shared memory, no barrier -------
    // NOTES: ncu at 4096^3 bf16 on an H200: 375K cycles per SM for ~262K cycles of tensor-core
    // work (4 tiles x 64 k-blocks x 1024); of the CTA's ~72K issued instructions per tile, ~45K
    // are the staged epilogue below (a rolled per-element loop with run-time dtype/layout
    // switches and 2-byte stores), and with one CTA per SM nothing overlaps it. Here each thread
    // writes its fragment as 64 4-byte stores (wgmma_store.cuh), ~260 instructions.
    // NOTES: split-K's slabs took the staged path too, and with 16 k-blocks a split (256x256x65536
    // at 64 splits) its ~45K instructions cost about as much as the mainloop; with the edge tiles (11
    // of 32 at 1000x1000) still staged, a 4-k-block split measured 24 us under ncu.
    if (p.epilogue.f32_slab) {
      float* slab = reinterpret_cast<float*>(static_cast<char*>(p.epilogue.d) + blockIdx.z * p.epilogue.d_split_bytes);
      const int64_t row0 = static_cast<int64_t>(m0) + consumer * 64;
      if (m0 + C::kTileM <= p.m && n0 + C::kTileN <= p.n)
        dev::store_accumulators_row_f32(acc, slab, p.epilogue.d_row_stride, row0, n0);
      else
        dev::store_accumulators_row_f32_bounded(acc, slab, p.epilogue.d_row_stride, row0, n0, p.m - row0, p.n - n0);
      if constexpr (!kInCopy) {
        // Diagnosis: consumer 0's slab stores visible (word 6 is the in-copy instances' own stamp).
        if (trace != nullptr && threadIdx.x == 128) {
          __threadfence();
          trace[6] = dev::global_ns();
        }
      }
      if (p.fold.counters != nullptr) {
        constexpr int kFoldThreads = 128 * C::kConsumers;
        const int t = static_cast<int>(threadIdx.x) - 128;
        dev::slab_fold_meet(p.fold.counters + blockIdx.x, static_cast<uint32_t>(p.fold.splits), t, kFoldThreads);
        const int rows = static_cast<int>(min(static_cast<int64_t>(C::kTileM), p.m - m0));
        const int cols = static_cast<int>(min(static_cast<int64_t>(C::kTileN), p.n - n0));
        // Loads in flight and float4 positions a thread: 32 and up to 8 where setmaxnreg gave the
        // consumers 232 registers or one consumer has 255; 16 and 2 in the in-copy instances, 8 and
        // 2 in the thread-load and four-consumer tiles (168 and 102 registers a thread): each
        // spilled with more.
        constexpr bool kRoomy = (kMovesRegisters && !kInCopy) || C::kConsumers == 1;
        constexpr int kFoldLoads = kRoomy ? 32 : kInCopy ? 16 : 8;
        constexpr int kFoldPositions = kRoomy ? 8 : 2;
        dev::slab_fold_reduce<kFoldLoads, kFoldPositions>(
            static_cast<const float*>(p.epilogue.d), p.fold.slab_floats, p.fold.splits, static_cast<int>(blockIdx.z),
            p.epilogue.d_row_stride, m0, n0, rows, cols, p.fold.out, t, kFoldThreads);
      }
      return;
    }
    if constexpr (In != WgmmaInput::tf32) {
      const int64_t row0 = static_cast<int64_t>(m0) + consumer * 64;
      // The `_ds` instance's full tiles: the measured register-store path (uniform across the CTA).
      if (kDirectStore && m0 + C::kTileM <= p.m && n0 + C::kTileN <= p.n) {
        dev::store_accumulators_row16<In>(acc, p.epilogue.d, p.epilogue.d_row_stride, row0, n0, p.epilogue.alpha);
        return;
      }
      if (kDirectStore || p.epilogue.direct_store) {
        // Both consumers must be done reading every stage before either overwrites one.
        dev::named_barrier_sync(1, 128 * C::kConsumers);
        void* tile = smem_raw + (base - raw) + consumer * 64 * (C::kTileN + 8) * 2;
        dev::store_accumulators_row16_staged<In, C::kTileN>(acc, tile, p.epilogue.d, p.epilogue.d_row_stride, row0, n0,
                                                            p.m - row0, p.n - n0, p.epilogue.alpha,
                                                            p.epilogue.d_vec, 2 + consumer);
        return;
      }
    }

    // --- epilogue: registers -> shared (f32) -> alpha*acc + beta*C -> global ------------------
    // NOTES: the accumulators are staged through the (now idle) pipeline buffers so that the
    // global stores are coalesced along D's contiguous dimension and one rolled loop serves every
    // D/C dtype and layout; unrolled per-register stores compiled to ~50K instructions a kernel.
    // Both consumers must be done reading every stage before either overwrites one.
    dev::named_barrier_sync(1, 128 * C::kConsumers);
    float* staged = reinterpret_cast<float*>(smem_raw + (base - raw)) + consumer * 64 * C::kEpiloguePitch;
    const int warp_in_group = (threadIdx.x / 32) % 4;
    {
      // m64nNk16 f32 fragment: thread (warp w, lane l) holds, for each 8-column block j, rows
      // 16w + l/4 (+8) and columns 8j + 2(l%4) (+1) as acc[4j + 2h + e].
      const int row = warp_in_group * 16 + lane / 4;
      const int col = 2 * (lane % 4);
#pragma unroll
      for (int j = 0; j < C::kTileN / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          *reinterpret_cast<float2*>(&staged[(row + 8 * h) * C::kEpiloguePitch + col + 8 * j]) =
              make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
    }
    dev::named_barrier_sync(2 + consumer, 128);

    const Epilogue& ep = p.epilogue;
    const int64_t row_base = static_cast<int64_t>(m0) + consumer * 64;
    const int rows = static_cast<int>(min(static_cast<int64_t>(64), p.m - row_base));
    const int cols = static_cast<int>(min(static_cast<int64_t>(C::kTileN), p.n - n0));
    const bool d_row_major = ep.d_col_stride == 1;
    const int t = threadIdx.x % 128;
    void* const d = static_cast<char*>(ep.d) + blockIdx.z * ep.d_split_bytes;
    if (d_row_major && (ep.beta == 0.0f || ep.c_col_stride == 1)) {
      dev::store_staged_rows<C::kTileN, C::kEpiloguePitch>(staged, d, ep, row_base, n0, rows, cols);
      return;
    }
    if (ep.d_row_stride == 1 && ep.beta == 0.0f && ep.d_vec == 8 && (ep.d_dtype == DType::bf16 || ep.d_dtype == DType::f16)) {
      dev::store_staged_cols16<C::kTileN, C::kEpiloguePitch>(staged, d, ep, row_base, n0, rows, cols);
      return;
    }
    for (int i = t; i < 64 * C::kTileN; i += 128) {
      // Consecutive threads walk D's contiguous dimension.
      const int r = d_row_major ? i / C::kTileN : i % 64;
      const int c = d_row_major ? i % C::kTileN : i / 64;
      if (r >= rows || c >= cols) continue;
      const int64_t gr = row_base + r, gc = static_cast<int64_t>(n0) + c;
      float v = ep.alpha * staged[r * C::kEpiloguePitch + c];
      if (ep.beta != 0.0f) v += ep.beta * load_epilogue(ep.c, gr * ep.c_row_stride + gc * ep.c_col_stride, ep.c_dtype);
      store_epilogue(d, gr * ep.d_row_stride + gc * ep.d_col_stride, ep.d_dtype, v);
    }
  }
}

}  // namespace tcgemm::sm90_ws
