// Persistent variant of the warp-specialized TMA + wgmma kernel (wgmma_tma_ws.cu): the same
// 128x256x64 tile, one producer warpgroup and two consumer warpgroups, but the grid is one CTA per
// SM and each CTA walks output tiles (tile = blockIdx.x, += gridDim.x) in the same grouped order.
//
// Why (predicted gain over the non-persistent kernel's 563 TFLOP/s at 4096^3 bf16 on an H200;
// cuBLAS 679 in the same session):
//  1. No per-tile CTA launch, barrier init, descriptor prefetch or cold pipeline fill: the ring of
//     full/empty barriers continues across tiles (phases carry over, barriers are never
//     re-initialised), so the producer loads tile t+1's first stages while the consumers run
//     tile t's epilogue. At 4096^3 a tile is 64 k-blocks, ~36 us of tensor-core time per SM at
//     peak; the fill + CTA turnaround this hides is ~1-3 us of it. Predicted +3-8%
//     (~580-610 TFLOP/s). The rest of the gap to cuBLAS is the epilogue itself, which still
//     stalls the tensor cores because both consumers work on the same tile (ping-pong consumers
//     or a TMA-store epilogue would hide it; not done here).
//  2. 512 tiles on 132 SMs is 3.88 waves either way: persistence does not change the tail, and
//     the grouped tile order (8 tile rows) is the same as the non-persistent kernel's.
//
// NOTES: the non-persistent kernel stages its epilogue through the idle pipeline buffers; here
// those buffers are already being refilled with the next tile, so the epilogue gets its own small
// region and is staged in 32-column chunks (64 x 36 f32 per consumer, 9 KB). Chosen over (a) a full
// dedicated 2 x 64 x 264 f32 buffer, which does not fit beside even 3 stages, and (b) storing
// registers straight to global, which needs per-dtype/per-layout unrolled stores (~50K
// instructions, uncoalesced for column-major D). Chunking keeps the exact store loop of the
// original, so D/C dtypes, layouts and tails behave identically, and the buffers that TMA and
// wgmma (the async proxy) use are never written by ordinary stores, so no proxy fence is needed
// between a tile's epilogue and the next tile's loads. 5 stages (240 KB) do not fit in 227 KB;
// 4 stages + 18 KB staging + barriers + alignment slack = 211 KB, still one CTA per SM.
//
// Reads top to bottom: config and static asserts; shared-memory layout; tile order; producer;
// consumer; epilogue; host launch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/common/wgmma_store.cuh"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_tma_ws_persistent.hpp"

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

  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;                     // 1024
  static constexpr uint32_t kMnBlock = kSwizzleBytes / kElementBytes;            // 64 elements
  static constexpr uint32_t kMnBlockBytes = kTileK * kSwizzleBytes;              // 8192
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
static_assert(Config::kTileM % Config::kMnBlock == 0 && Config::kTileN % Config::kMnBlock == 0,
              "MN-major tiles are loaded in 64-element column blocks");
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
  Epilogue epilogue;
};

// --- epilogue helpers ------------------------------------------------------------------------
using dev::load_epilogue;
using dev::store_epilogue;

__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Tile order shared by producer and consumers: groups of kGroupM tile rows sweep all tile
// columns, so CTAs working at the same time share B columns and a small band of A rows in L2.
struct TileCoord {
  int32_t m0, n0;
};

__device__ __forceinline__ TileCoord tile_coord(int64_t tile, const Params& p) {
  const int64_t group_tiles = Config::kGroupM * p.tiles_n;
  const int64_t first_m = (tile / group_tiles) * Config::kGroupM;
  const int64_t group_rows = min(p.tiles_m - first_m, static_cast<int64_t>(Config::kGroupM));
  const int64_t in_group = tile % group_tiles;
  const int64_t tile_m = first_m + in_group % group_rows;
  const int64_t tile_n = in_group / group_rows;
  return {static_cast<int32_t>(tile_m * Config::kTileM), static_cast<int32_t>(tile_n * Config::kTileN)};
}

// --- the kernel ------------------------------------------------------------------------------
// kAMnMajor: A is column-major (M contiguous); kBMnMajor: B is row-major (N contiguous).
// kDirectStore: as in wgmma_tma_ws.cu, full tiles of a row-major 16-bit D (beta == 0, checked on
// the host) are stored straight from registers; the producer is meanwhile filling the next tile.
template <WgmmaInput In, bool kAMnMajor, bool kBMnMajor, bool kDirectStore>
__global__ void __launch_bounds__(Config::kThreads, 1)
    wgmma_tma_ws_persistent_kernel(const __grid_constant__ CUtensorMap map_a,
                                   const __grid_constant__ CUtensorMap map_b, const Params p) {
  using C = Config;
  using Mma = dev::Wgmma<C::kTileN, In, kAMnMajor ? 1 : 0, kBMnMajor ? 1 : 0>;

  // Shared memory, carved in one place: [A stages][B stages][epilogue staging][full][empty].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const uint32_t a_smem = base;
  const uint32_t b_smem = a_smem + C::kStages * C::kABytes;
  const uint32_t epi_smem = b_smem + C::kStages * C::kBBytes;
  const uint32_t full_bar = epi_smem + C::kEpilogueBytes;
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
      dev::mbarrier_init(empty(s), C::kConsumers * 4);   // one arrival per consumer warp
    }
    dev::mbarrier_init_fence();
  }
  __syncthreads();

  const int64_t tiles = p.tiles_m * p.tiles_n;
  const int k_tiles = static_cast<int>((p.k + C::kTileK - 1) / C::kTileK);

  // NOTES: `it` counts k-blocks across every tile this CTA handles, in the producer and in the
  // consumers alike, so stage = it % kStages and phase = it / kStages continue from one tile to
  // the next; the barriers are initialised once, above, and never reset.
  if (warpgroup == 0) {
    // --- producer: one thread issues every TMA load --------------------------------------------
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(C::kProducerRegisters));
    if (threadIdx.x == 0) {
      constexpr int kABlocks = C::kTileM / static_cast<int>(C::kMnBlock);
      constexpr int kBBlocks = C::kTileN / static_cast<int>(C::kMnBlock);
      uint64_t it = 0;
      for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const TileCoord tc = tile_coord(tile, p);
        const int32_t m0 = tc.m0, n0 = tc.n0;
        // NOTES: as in the non-persistent kernel, an MN-major 64-element column block wholly past
        // M (or N) is not loaded: its stale shared memory (here possibly the previous tile's data)
        // only feeds output rows (columns) that the epilogue never stores.
        const int a_blocks = static_cast<int>(min(static_cast<int64_t>(kABlocks), (p.m - m0 + C::kMnBlock - 1) / C::kMnBlock));
        const int b_blocks = static_cast<int>(min(static_cast<int64_t>(kBBlocks), (p.n - n0 + C::kMnBlock - 1) / C::kMnBlock));
        const uint32_t stage_bytes = (kAMnMajor ? a_blocks * C::kMnBlockBytes : C::kABytes) +
                                     (kBMnMajor ? b_blocks * C::kMnBlockBytes : C::kBBytes);
        for (int kt = 0; kt < k_tiles; ++kt, ++it) {
          const int s = static_cast<int>(it % C::kStages);
          // The slot is free once the consumers released its previous use (round it/S - 1).
          if (it >= static_cast<uint64_t>(C::kStages)) dev::mbarrier_wait(empty(s), ((it / C::kStages) - 1) & 1);
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
            dev::tma_load_2d(b_stage(s), &map_b, full(s), k0, n0);  // box 64(K) x 256(N)
          } else {
#pragma unroll
            for (int i = 0; i < kBBlocks; ++i)  // box 64(N) x 64(K)
              if (i < b_blocks)
                dev::tma_load_2d(b_stage(s) + i * C::kMnBlockBytes, &map_b, full(s), n0 + i * static_cast<int32_t>(C::kMnBlock), k0);
          }
        }
      }
    }
  } else {
    // --- consumers: warpgroup 1 takes rows 0-63 of the tile, warpgroup 2 rows 64-127 ------------
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(C::kConsumerRegisters));
    const int consumer = warpgroup - 1;

    constexpr uint32_t kALbo = kAMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kBLbo = kBMnMajor ? C::kMnBlockBytes : 16;
    constexpr uint32_t kSbo = C::kAtomBytes;
    constexpr uint32_t kAStepK = kAMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    constexpr uint32_t kBStepK = kBMnMajor ? C::kMmaK * C::kSwizzleBytes : C::kMmaK * C::kElementBytes;
    const uint32_t a_offset = consumer * 64 * C::kSwizzleBytes;  // = consumer * kMnBlockBytes too
    static_assert(64 * C::kSwizzleBytes == C::kMnBlockBytes, "both A layouts split at 8 KB");

    float* staged = reinterpret_cast<float*>(smem_raw + (epi_smem - raw)) + consumer * 64 * C::kEpiloguePitch;
    const int warp_in_group = (threadIdx.x / 32) % 4;
    const int t = threadIdx.x % 128;
    const Epilogue& ep = p.epilogue;
    const bool d_row_major = ep.d_col_stride == 1;

    float acc[C::kAccumulators];
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;

    uint64_t it = 0;
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const TileCoord tc = tile_coord(tile, p);
      const int32_t m0 = tc.m0, n0 = tc.n0;

      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const int s = static_cast<int>(it % C::kStages);
        dev::mbarrier_wait(full(s), (it / C::kStages) & 1);
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
        // Keep this k-block's MMAs in flight; the previous one (same tile) has finished reading
        // its stage. At kt == 0 the previous tile's last stage was already released below.
        dev::wgmma_wait_group<1>();
        if (kt > 0 && lane == 0) dev::mbarrier_arrive(empty((it - 1) % C::kStages));
      }
      dev::wgmma_wait_group<0>();
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
      // NOTES: the non-persistent kernel never hands back a tile's last stage; here the producer
      // needs it for the next tile, so it is released as soon as every MMA has completed —
      // before the epilogue, so the producer refills it while the epilogue runs.
      if (k_tiles > 0 && lane == 0) dev::mbarrier_arrive(empty((it - 1) % C::kStages));

      if constexpr (kDirectStore) {
        if (m0 + C::kTileM <= p.m && n0 + C::kTileN <= p.n) {  // uniform across the CTA
          dev::store_accumulators_row16<In>(acc, ep.d, ep.d_row_stride, static_cast<int64_t>(m0) + consumer * 64,
                                            n0, ep.alpha);
          continue;
        }
      }

      // --- epilogue: registers -> own shared chunk (f32) -> alpha*acc + beta*C -> global --------
      const int64_t row_base = static_cast<int64_t>(m0) + consumer * 64;
      const int rows = static_cast<int>(min(static_cast<int64_t>(64), p.m - row_base));
      const int cols = static_cast<int>(min(static_cast<int64_t>(C::kTileN), p.n - n0));
#pragma unroll
      for (int chunk = 0; chunk < C::kTileN / C::kEpilogueCols; ++chunk) {
        const int chunk_col = chunk * C::kEpilogueCols;
        // Everyone in this warpgroup has finished reading the previous chunk (or tile).
        named_barrier_sync(2 + consumer, 128);
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
        named_barrier_sync(2 + consumer, 128);
        if (chunk_col >= cols) continue;  // uniform across the warpgroup
        for (int i = t; i < 64 * C::kEpilogueCols; i += 128) {
          // Consecutive threads walk D's contiguous dimension.
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
}

// --- host side -------------------------------------------------------------------------------
template <WgmmaInput In, bool kAMnMajor, bool kBMnMajor, bool kDirectStore>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_tma_ws_persistent_kernel<In, kAMnMajor, kBMnMajor, kDirectStore>);
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

// SM count of the current device, read once per device (cudaDeviceGetAttribute is cheap, but the
// launch path is timed with back-to-back launches).
Result<int> sm_count() {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> cache[kMaxDevices] = {};
  int dev = 0;
  cudaError_t err = cudaGetDevice(&dev);
  if (err != cudaSuccess) return Status(StatusCode::cuda_error, std::string("cudaGetDevice: ") + cudaGetErrorString(err));
  if (dev >= 0 && dev < kMaxDevices) {
    if (const int cached = cache[dev].load(std::memory_order_relaxed); cached > 0) return cached;
  }
  int sms = 0;
  err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (err != cudaSuccess || sms <= 0)
    return Status(StatusCode::cuda_error, std::string("cudaDeviceGetAttribute(SM count): ") + cudaGetErrorString(err));
  if (dev >= 0 && dev < kMaxDevices) cache[dev].store(sms, std::memory_order_relaxed);
  return sms;
}

}  // namespace

// Same constraints as the non-persistent kernel: same tile, same TMA boxes, same epilogue.
Status sm90_wgmma_ws_persistent_supports(const GemmDesc& g, DType input) {
  return sm90_wgmma_ws_supports(g, input);
}

Status sm90_wgmma_ws_persistent_launch(const GemmArgs& args, DType input, bool allow_direct_store) {
  const GemmDesc& g = args.desc;
  const bool a_mn_major = g.a.layout == Layout::column;
  const bool b_mn_major = g.b.layout == Layout::row;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");

  const uint32_t kb = Config::kTileK, mnb = Config::kMnBlock;
  Result<TensorMap2d> map_a =
      a_mn_major ? make_tensor_map_2d("A", g.a.dtype, args.a, g.m, g.k, lda, mnb, kb)
                 : make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, kb, Config::kTileM);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b =
      b_mn_major ? make_tensor_map_2d("B", g.b.dtype, args.b, g.n, g.k, ldb, mnb, kb)
                 : make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, Config::kTileN);
  if (!map_b.ok()) return map_b.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.tiles_m = (g.m + Config::kTileM - 1) / Config::kTileM;
  p.tiles_n = (g.n + Config::kTileN - 1) / Config::kTileN;
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

  const int64_t tiles = p.tiles_m * p.tiles_n;
  if (tiles <= 0) return Status::success();
  Result<int> sms = sm_count();
  if (!sms.ok()) return sms.status();
  // One CTA per SM (the shared memory allows no second), never more CTAs than tiles.
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(tiles, sms.value()));

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
  err = cudaLaunchKernel(fn, dim3(grid), dim3(Config::kThreads), kernel_args, Config::kSmemBytes, args.stream);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 wgmma persistent launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

const void* sm90_wgmma_ws_persistent_function(DType input, bool direct_store) {
  if (direct_store)
    return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, false, false, true>()
                                : kernel_function<WgmmaInput::f16, false, false, true>();
  return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, false, false, false>()
                              : kernel_function<WgmmaInput::f16, false, false, false>();
}

Sm90WsShape sm90_wgmma_ws_persistent_shape() {
  return {Config::kTileM, Config::kTileN, Config::kTileK, Config::kStages, Config::kThreads,
          static_cast<int>(Config::kSmemBytes)};
}

}  // namespace tcgemm
