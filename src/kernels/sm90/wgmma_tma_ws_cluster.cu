// The warp-specialized TMA + wgmma kernel of wgmma_tma_ws.cu (128x256x64 tile, 4 stages, one
// producer and two m64n256k16 consumer warpgroups, non-persistent, register-store epilogue for
// row-major 16-bit D) launched in clusters of 2 CTAs along M that share their B tile: each CTA
// loads its own A and one half of B, and multicasts that half into both CTAs' shared memory.
//
// Why: ncu at 4096^3 (run 3) puts the tensor pipe at 77% of elapsed cycles with the epilogue fixed,
// and in sustained runs the H200 is power-limited (bench 592 TFLOP/s vs 689 for one cold launch
// under ncu: ~1.43 vs 1.65 GHz). Multicast cuts L2->SM traffic per tile from 48 KB to 32 KB per
// k-block (-33%), which is both bandwidth and energy; cuBLAS's chosen algorithm is clustered too.
//
// NOTES: a stage in CTA r is written by both CTAs' TMA, so a producer may refill a stage only
// when the consumers of *both* CTAs have released it: every consumer warp arrives on its own
// CTA's empty barrier and on the peer's (mapa + mbarrier.arrive.shared::cluster), and the empty
// barriers count 2 x 8 arrivals. The full barrier of each CTA expects A plus both B halves. No
// CTA may exit while its peer can still arrive on its barriers: both end on a cluster barrier.
// When M has an odd number of tiles, the second CTA of the last pair is a ghost: it loads a valid
// A tile (its partner's), multicasts its B half, multiplies, and stores nothing.
//
// Reads top to bottom: config and static asserts; shared-memory layout; tile order; producer;
// consumer; epilogue; host launch and supports().
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/common/cluster.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/common/wgmma_store.cuh"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_tma_ws_cluster.hpp"

namespace tcgemm {
namespace {

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
  static constexpr int kClusterM = 2;  // CTAs per cluster, along M, sharing B
  static constexpr uint32_t kBHalfBytes = kTileN / 2 * kTileK * kElementBytes;  // 16 KB

  // 128B swizzle atoms: 8 rows x 128 bytes. A K-major operand has one 128-byte row per M/N index;
  // an MN-major one is loaded as 64-element-wide column blocks of kTileK rows each.
  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;                     // 1024
  static constexpr uint32_t kMnBlock = kSwizzleBytes / kElementBytes;            // 64 elements
  static constexpr uint32_t kMnBlockBytes = kTileK * kSwizzleBytes;              // 8192
  static constexpr uint32_t kABytes = kTileM * kTileK * kElementBytes;           // 16 KB
  static constexpr uint32_t kBBytes = kTileN * kTileK * kElementBytes;           // 32 KB
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;                     // 48 KB
  static constexpr uint32_t kBarrierBytes = 2 * kStages * 8;                     // full + empty
  // NOTES: dynamic shared memory is only guaranteed 16-byte aligned; 128B swizzle wants every
  // tile on a 1024-byte boundary, so we over-allocate one atom and align by hand.
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kBarrierBytes + kAtomBytes;

  // setmaxnreg: the producer needs a handful of registers, each consumer holds 128 f32
  // accumulators. 40*128 + 232*256 = 64512 = 168*384, the launch allocation at 384 threads.
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = 232;
  static constexpr int kAccumulators = kTileN / 2;  // m64nN: N/2 floats per thread
  // Epilogue staging: each consumer's 64 x kTileN f32 block, rows padded by 8 floats so the
  // fragment's 8 rows per store land in different banks.
  static constexpr int kEpiloguePitch = kTileN + 8;
};

static_assert(Config::kTileK * Config::kElementBytes == Config::kSwizzleBytes,
              "BK must fill exactly one 128-byte swizzle row");
static_assert(Config::kTileM == 64 * Config::kConsumers, "each consumer warpgroup owns 64 rows (m64)");
static_assert(Config::kTileN % 64 == 0 && Config::kTileN <= 256, "wgmma N and the TMA box are <= 256");
static_assert(Config::kTileM % Config::kMnBlock == 0 && Config::kTileN % Config::kMnBlock == 0,
              "MN-major tiles are loaded in 64-element column blocks");
static_assert(Config::kABytes % Config::kAtomBytes == 0 && Config::kBBytes % Config::kAtomBytes == 0,
              "every stage must start on a 1024-byte swizzle atom");
static_assert(Config::kConsumers * 64 * Config::kEpiloguePitch * 4 <= Config::kStages * Config::kStageBytes,
              "the epilogue staging must fit in the pipeline buffers");
static_assert(Config::kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
static_assert(Config::kProducerRegisters % 8 == 0 && Config::kConsumerRegisters % 8 == 0 &&
                  Config::kProducerRegisters >= 24 && Config::kConsumerRegisters <= 256,
              "setmaxnreg takes multiples of 8 in [24, 256]");
static_assert(128 * Config::kProducerRegisters + 128 * Config::kConsumers * Config::kConsumerRegisters <=
                  65536,
              "register budget over the 64K-register file");

// --- kernel parameters -----------------------------------------------------------------------
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
  int64_t tiles_m, tiles_n;
  int64_t pairs_m;  // ceil(tiles_m / 2): clusters along M
  Epilogue epilogue;
};

// --- epilogue helpers ------------------------------------------------------------------------
using dev::load_epilogue;
using dev::store_epilogue;

__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}


// --- the kernel ------------------------------------------------------------------------------
// kAMnMajor: A is column-major (M contiguous); kBMnMajor: B is row-major (N contiguous).
// kDirectStore: the host has checked that D is row-major, of the input's 16-bit type, 4-byte
// aligned with an even ldd, and that beta == 0; full tiles then store straight from registers.
template <WgmmaInput In, bool kAMnMajor, bool kBMnMajor, bool kDirectStore>
__global__ void __launch_bounds__(Config::kThreads, 1)
    wgmma_tma_ws_cluster_kernel(const __grid_constant__ CUtensorMap map_a,
                        const __grid_constant__ CUtensorMap map_b, const Params p) {
  using C = Config;
  using Mma = dev::Wgmma<C::kTileN, In, kAMnMajor ? 1 : 0, kBMnMajor ? 1 : 0>;

  // Shared memory, carved in one place: [A stages][B stages][full barriers][empty barriers].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const uint32_t a_smem = base;
  const uint32_t b_smem = a_smem + C::kStages * C::kABytes;
  const uint32_t full_bar = b_smem + C::kStages * C::kBBytes;
  const uint32_t empty_bar = full_bar + C::kStages * 8;
  auto a_stage = [&](int s) { return a_smem + s * C::kABytes; };
  auto b_stage = [&](int s) { return b_smem + s * C::kBBytes; };
  auto full = [&](int s) { return full_bar + 8 * s; };
  auto empty = [&](int s) { return empty_bar + 8 * s; };

  const int warpgroup = threadIdx.x / 128;
  const int lane = threadIdx.x % 32;

  if (threadIdx.x == 0) {
    dev::tma_prefetch_descriptor(&map_a);
    dev::tma_prefetch_descriptor(&map_b);
    for (int s = 0; s < C::kStages; ++s) {
      dev::mbarrier_init(full(s), 1);                    // the producer's arrive.expect_tx
      // one arrival per consumer warp of both CTAs
      dev::mbarrier_init(empty(s), C::kClusterM * C::kConsumers * 4);
    }
    dev::mbarrier_init_fence();
  }
  dev::cluster_sync();  // the peer's barriers are initialised before anything targets them
  const uint32_t rank = dev::cluster_ctarank();
  const uint32_t peer = rank ^ 1u;

  // Tile order: clusters (pairs of tile rows) in groups of kGroupM / 2 pair rows sweep all tile
  // columns, so clusters resident together share B columns and a small band of A rows in L2.
  const int64_t pair = blockIdx.x / C::kClusterM;
  constexpr int kGroupPairs = C::kGroupM / C::kClusterM;
  const int64_t group_tiles = kGroupPairs * p.tiles_n;
  const int64_t first_pm = (pair / group_tiles) * kGroupPairs;
  const int64_t group_rows = min(p.pairs_m - first_pm, static_cast<int64_t>(kGroupPairs));
  const int64_t in_group = pair % group_tiles;
  const int64_t pair_m = first_pm + in_group % group_rows;
  const int64_t tile_n = in_group / group_rows;
  const bool ghost = C::kClusterM * pair_m + rank >= p.tiles_m;  // odd tiles_m: nothing to store
  const int64_t tile_m = ghost ? C::kClusterM * pair_m : C::kClusterM * pair_m + rank;
  const int32_t m0 = static_cast<int32_t>(tile_m * C::kTileM);
  const int32_t n0 = static_cast<int32_t>(tile_n * C::kTileN);
  const int k_tiles = static_cast<int>((p.k + C::kTileK - 1) / C::kTileK);

  if (warpgroup == 0) {
    // --- producer: one thread issues every TMA load --------------------------------------------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if (threadIdx.x == 0) {
      // NOTES: MN-major operands arrive as 64-element column blocks. A block wholly past M (or N)
      // is not loaded at all: its stale shared memory only feeds output rows (columns) that the
      // epilogue never stores, and skipping it avoids relying on TMA's handling of a box that lies
      // entirely outside the tensor. Partial boxes (M, N and K tails) are zero-filled by TMA and
      // still deliver the full box bytes.
      constexpr int kABlocks = C::kTileM / static_cast<int>(C::kMnBlock);
      constexpr int kBBlocks = C::kTileN / static_cast<int>(C::kMnBlock);
      const int a_blocks = static_cast<int>(min(static_cast<int64_t>(kABlocks), (p.m - m0 + C::kMnBlock - 1) / C::kMnBlock));
      const int b_blocks = static_cast<int>(min(static_cast<int64_t>(kBBlocks), (p.n - n0 + C::kMnBlock - 1) / C::kMnBlock));
      // K-major B comes as two 128-row half boxes, one per CTA; a half wholly past N is not
      // loaded (same rule as the MN-major blocks), and both CTAs count the same bytes.
      const bool b_upper_half = n0 + C::kTileN / 2 < p.n;
      const uint32_t stage_bytes = (kAMnMajor ? a_blocks * C::kMnBlockBytes : C::kABytes) +
                                   (kBMnMajor ? b_blocks * C::kMnBlockBytes
                                              : (b_upper_half ? 2 : 1) * C::kBHalfBytes);
      constexpr uint16_t kBothCtas = 0x3;
      for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % C::kStages;
        // The slot is free once the consumers released its previous use (round kt/S - 1).
        // ... by the consumers of both CTAs, since this CTA's B half lands in both.
        if (kt >= C::kStages) dev::mbarrier_wait(empty(s), ((kt / C::kStages) - 1) & 1);
        dev::mbarrier_arrive_expect_tx(full(s), stage_bytes);
        const int32_t k0 = kt * C::kTileK;
        if constexpr (!kAMnMajor) {
          dev::tma_load_2d(a_stage(s), &map_a, full(s), k0, m0);  // box 64(K) x 128(M)
        } else {
#pragma unroll
          for (int i = 0; i < kABlocks; ++i)  // box 64(M) x 64(K)
            if (i < a_blocks)
              dev::tma_load_2d(a_stage(s) + i * C::kMnBlockBytes, &map_a, full(s), m0 + i * static_cast<int32_t>(C::kMnBlock), k0);
        }
        if constexpr (!kBMnMajor) {
          if (rank == 0 || b_upper_half)  // box 64(K) x 128(N), rows [n0 + 128 r, +128)
            dev::tma_load_2d_multicast(b_stage(s) + rank * C::kBHalfBytes, &map_b, full(s), k0,
                                  n0 + static_cast<int32_t>(rank) * (C::kTileN / 2), kBothCtas);
        } else {
#pragma unroll
          for (int i = 0; i < kBBlocks / 2; ++i) {  // box 64(N) x 64(K); blocks 2r and 2r + 1
            const int block = static_cast<int>(rank) * (kBBlocks / 2) + i;
            if (block < b_blocks)
              dev::tma_load_2d_multicast(b_stage(s) + block * C::kMnBlockBytes, &map_b, full(s),
                                    n0 + block * static_cast<int32_t>(C::kMnBlock), k0, kBothCtas);
          }
        }
      }
    }
  } else {
    // --- consumers: warpgroup 1 takes rows 0-63 of the tile, warpgroup 2 rows 64-127 ------------
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
    const int consumer = warpgroup - 1;

    // Descriptor strides (see wgmma.cuh). Both layouts put this warpgroup's 64 rows 8 KB in:
    // K-major, 64 rows x 128 bytes; MN-major, the second 64-element column block.
    constexpr uint32_t kALbo = kAMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kBLbo = kBMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kSbo = C::kAtomBytes;
    constexpr uint32_t kAStepK = kAMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    constexpr uint32_t kBStepK = kBMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    const uint32_t a_offset = consumer * 64 * C::kSwizzleBytes;  // = consumer * kMnBlockBytes too
    static_assert(64 * C::kSwizzleBytes == C::kMnBlockBytes, "both A layouts split at 8 KB");

    float acc[C::kAccumulators];
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;

    for (int kt = 0; kt < k_tiles; ++kt) {
      const int s = kt % C::kStages;
      dev::mbarrier_wait(full(s), (kt / C::kStages) & 1);
      const uint64_t desc_a = dev::make_smem_desc_sw128(a_stage(s) + a_offset, kALbo, kSbo);
      const uint64_t desc_b = dev::make_smem_desc_sw128(b_stage(s), kBLbo, kSbo);
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
      dev::wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < C::kTileK / C::kMmaK; ++kk)
        Mma::mma(acc, dev::desc_advance(desc_a, kk * kAStepK), dev::desc_advance(desc_b, kk * kBStepK),
                 (kt > 0 || kk > 0) ? 1u : 0u);
      dev::wgmma_commit_group();
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
      // Keep this k-tile's MMAs in flight; the previous one has finished reading its stage.
      dev::wgmma_wait_group<1>();
      if (kt > 0 && lane == 0) {
        const uint32_t bar = empty((kt - 1) % C::kStages);
        dev::mbarrier_arrive(bar);
        dev::mbarrier_arrive_cluster(dev::map_to_rank(bar, peer));
      }
    }
    dev::wgmma_wait_group<0>();
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);

    // --- fast epilogue: alpha*acc -> 16-bit pairs -> global, no shared memory, no barrier -------
    // NOTES: ncu at 4096^3 bf16 on an H200: 375K cycles per SM for ~262K cycles of tensor-core
    // work (4 tiles x 64 k-blocks x 1024); of the CTA's ~72K issued instructions per tile, ~45K
    // are the staged epilogue below (a rolled per-element loop with run-time dtype/layout
    // switches and 2-byte stores), and with one CTA per SM nothing overlaps it. Here each thread
    // writes its fragment as 64 4-byte stores (wgmma_store.cuh), ~260 instructions.
    bool stored = ghost;
    if constexpr (kDirectStore) {
      if (!stored && m0 + C::kTileM <= p.m && n0 + C::kTileN <= p.n) {  // uniform across the CTA
        dev::store_accumulators_row16<In>(acc, p.epilogue.d, p.epilogue.d_row_stride,
                                          static_cast<int64_t>(m0) + consumer * 64, n0, p.epilogue.alpha);
        stored = true;
      }
    }
    if (!stored) {

    // --- epilogue: registers -> shared (f32) -> alpha*acc + beta*C -> global ------------------
    // NOTES: the accumulators are staged through the (now idle) pipeline buffers so that the
    // global stores are coalesced along D's contiguous dimension and one rolled loop serves every
    // D/C dtype and layout; unrolled per-register stores compiled to ~50K instructions a kernel.
    // Both consumers must be done reading every stage before either overwrites one.
    named_barrier_sync(1, 128 * C::kConsumers);
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
    named_barrier_sync(2 + consumer, 128);

    const Epilogue& ep = p.epilogue;
    const int64_t row_base = static_cast<int64_t>(m0) + consumer * 64;
    const int rows = static_cast<int>(min(static_cast<int64_t>(64), p.m - row_base));
    const int cols = static_cast<int>(min(static_cast<int64_t>(C::kTileN), p.n - n0));
    const bool d_row_major = ep.d_col_stride == 1;
    const int t = threadIdx.x % 128;
    for (int i = t; i < 64 * C::kTileN; i += 128) {
      // Consecutive threads walk D's contiguous dimension.
      const int r = d_row_major ? i / C::kTileN : i % 64;
      const int c = d_row_major ? i % C::kTileN : i / 64;
      if (r >= rows || c >= cols) continue;
      const int64_t gr = row_base + r, gc = static_cast<int64_t>(n0) + c;
      float v = ep.alpha * staged[r * C::kEpiloguePitch + c];
      if (ep.beta != 0.0f) v += ep.beta * load_epilogue(ep.c, gr * ep.c_row_stride + gc * ep.c_col_stride, ep.c_dtype);
      store_epilogue(ep.d, gr * ep.d_row_stride + gc * ep.d_col_stride, ep.d_dtype, v);
    }
    }  // !stored
  }
  // The peer's consumers arrive on this CTA's empty barriers until their last k-block.
  dev::cluster_sync();
}

// --- host side -------------------------------------------------------------------------------
template <WgmmaInput In, bool kAMnMajor, bool kBMnMajor, bool kDirectStore>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_tma_ws_cluster_kernel<In, kAMnMajor, kBMnMajor, kDirectStore>);
}

template <WgmmaInput In, bool kDirectStore>
const void* pick_function(bool a_mn_major, bool b_mn_major) {
  if (a_mn_major)
    return b_mn_major ? kernel_function<In, true, true, kDirectStore>() : kernel_function<In, true, false, kDirectStore>();
  return b_mn_major ? kernel_function<In, false, true, kDirectStore>() : kernel_function<In, false, false, kDirectStore>();
}

template <WgmmaInput In>
const void* pick_function(bool a_mn_major, bool b_mn_major, bool direct_store) {
  return direct_store ? pick_function<In, true>(a_mn_major, b_mn_major) : pick_function<In, false>(a_mn_major, b_mn_major);
}

}  // namespace

// Same operands, tile and epilogue as the non-clustered kernel; the grid is padded to whole
// clusters, so it must also fit 2 x ceil(tiles_m / 2) x tiles_n CTAs in a 1D grid.
Status sm90_wgmma_ws_cluster_supports(const GemmDesc& g, DType input) {
  if (Status s = sm90_wgmma_ws_supports(g, input); !s.ok()) return s;
  const int64_t tiles_m = (g.m + Config::kTileM - 1) / Config::kTileM;
  const int64_t tiles_n = (g.n + Config::kTileN - 1) / Config::kTileN;
  if (Config::kClusterM * ((tiles_m + 1) / 2) * tiles_n > 0x7fffffff)
    return Status::unsupported("more than 2^31 - 1 CTAs for a 1D grid of 2-CTA clusters");
  return Status::success();
}

Status sm90_wgmma_ws_cluster_launch(const GemmArgs& args, DType input) {
  constexpr bool allow_direct_store = true;
  const GemmDesc& g = args.desc;
  const bool a_mn_major = g.a.layout == Layout::column;
  const bool b_mn_major = g.b.layout == Layout::row;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");

  // K-major operands load one 64(K) x rows box; MN-major ones 64-element column blocks.
  const uint32_t kb = Config::kTileK, mnb = Config::kMnBlock;
  Result<TensorMap2d> map_a =
      a_mn_major ? make_tensor_map_2d("A", g.a.dtype, args.a, g.m, g.k, lda, mnb, kb)
                 : make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, kb, Config::kTileM);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b =
      b_mn_major ? make_tensor_map_2d("B", g.b.dtype, args.b, g.n, g.k, ldb, mnb, kb)
                 : make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, Config::kTileN / 2);
  if (!map_b.ok()) return map_b.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.tiles_m = (g.m + Config::kTileM - 1) / Config::kTileM;
  p.tiles_n = (g.n + Config::kTileN - 1) / Config::kTileN;
  p.pairs_m = (p.tiles_m + Config::kClusterM - 1) / Config::kClusterM;
  Epilogue& ep = p.epilogue;
  ep.d = args.d;
  ep.c = args.c;
  ep.d_row_stride = g.d.layout == Layout::row ? ldd : 1;
  ep.d_col_stride = g.d.layout == Layout::row ? 1 : ldd;
  ep.c_row_stride = g.c.layout == Layout::row ? ldc : 1;
  ep.c_col_stride = g.c.layout == Layout::row ? 1 : ldc;
  ep.alpha = g.alpha;
  ep.beta = g.beta;
  ep.d_dtype = g.d.dtype;
  ep.c_dtype = g.c.dtype;

  // The register-store epilogue writes 4-byte pairs of D's own 16-bit type along a row.
  const bool direct_store = allow_direct_store && g.d.layout == Layout::row && g.d.dtype == input &&
                            g.beta == 0.0f && ldd % 2 == 0 && reinterpret_cast<uintptr_t>(args.d) % 4 == 0;
  const void* fn = input == DType::bf16 ? pick_function<WgmmaInput::bf16>(a_mn_major, b_mn_major, direct_store)
                                        : pick_function<WgmmaInput::f16>(a_mn_major, b_mn_major, direct_store);
  cudaError_t err = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(Config::kSmemBytes));
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("cudaFuncSetAttribute(max dynamic smem ") +
                                              std::to_string(Config::kSmemBytes) + "): " + cudaGetErrorString(err));
  const CUtensorMap* ma = &map_a.value().map;
  const CUtensorMap* mb = &map_b.value().map;
  void* kernel_args[] = {const_cast<CUtensorMap*>(ma), const_cast<CUtensorMap*>(mb), &p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(Config::kClusterM * p.pairs_m * p.tiles_n));
  cfg.blockDim = dim3(Config::kThreads);
  cfg.dynamicSmemBytes = Config::kSmemBytes;
  cfg.stream = args.stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = Config::kClusterM;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cfg.attrs = &cluster;
  cfg.numAttrs = 1;
  err = cudaLaunchKernelExC(&cfg, fn, kernel_args);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 wgmma cluster launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

const void* sm90_wgmma_ws_cluster_function(DType input) {
  return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, false, false, true>()
                              : kernel_function<WgmmaInput::f16, false, false, true>();
}

Sm90WsShape sm90_wgmma_ws_cluster_shape() {
  return {Config::kTileM, Config::kTileN, Config::kTileK, Config::kStages, Config::kThreads,
          static_cast<int>(Config::kSmemBytes)};
}

}  // namespace tcgemm
