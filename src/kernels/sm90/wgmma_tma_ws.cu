// The first Hopper kernel: TMA loads into a ring of shared-memory stages, two consumer warpgroups
// multiplying with wgmma m64n256k16, one producer warp feeding them (warp specialization).
// Non-persistent: one CTA per 128x256 output tile, launched in a grouped (L2-friendly) order.
// Split-K (split_k.cu) reuses it unchanged but for blockIdx.z = the split: a range of k-blocks,
// and an epilogue aimed at that split's f32 slab (alpha 1, beta 0); gridDim.z = 1 is the plain GEMM.
//
// Reads top to bottom: config and static asserts; shared-memory layout; tile order; producer;
// consumer; epilogue; host launch and supports().
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/cluster.cuh"
#include "kernels/common/cta_trace.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/in_kernel_copy.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/common/row_class_realign.cuh"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/thread_loads.cuh"
#include "kernels/common/tile_counters.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/common/wgmma_store.cuh"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm {
namespace {

using dev::WgmmaInput;

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
template <int TileN, int Consumers = 2>
constexpr int max_stages() {
  constexpr int stage = 64 * Consumers * 128 + TileN * 128;  // A and B bytes of one 128-byte-wide k-block
  constexpr int budget = 227 * 1024 - 1024 - 2 * 16 * 8;      // alignment slack, barriers
  return budget / stage < 16 ? budget / stage : 16;
}

template <WgmmaInput In, int TileN = 256, int Stages = 4, int Consumers = 2>
struct Config {
  static constexpr int kElementBytes = dev::kWgmmaElementBytes<In>;
  static constexpr int kTileM = 64 * Consumers;
  static constexpr int kTileN = TileN;
  static constexpr int kTileK = 128 / kElementBytes;  // one 128-byte swizzle row
  static constexpr int kStages = Stages;
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
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;                     // 48 KB
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
template <int TileN, int Stages, int Consumers>
using Shared = Config<WgmmaInput::bf16, TileN, Stages, Consumers>;
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
};

// --- epilogue helpers ------------------------------------------------------------------------
using dev::load_epilogue;
using dev::store_epilogue;

// Four elements of C at (row, col..col+3), zeros past `nv`; one 16-byte (f32) or 8-byte load where
// c_quads (ldc % 4 == 0, C aligned to 4 elements) and the quad is whole.
__device__ __forceinline__ void load_c_quad(const Epilogue& ep, int64_t at, int nv, float (&c)[4]) {
  if (nv == 4 && ep.c_quads) {
    if (ep.c_dtype == DType::f32) {
      const float4 x = *reinterpret_cast<const float4*>(static_cast<const float*>(ep.c) + at);
      c[0] = x.x, c[1] = x.y, c[2] = x.z, c[3] = x.w;
    } else {
      const uint2 x = *reinterpret_cast<const uint2*>(static_cast<const uint16_t*>(ep.c) + at);
      const uint32_t w[2] = {x.x, x.y};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const uint16_t h = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
        c[e] = ep.c_dtype == DType::bf16 ? __bfloat162float(__ushort_as_bfloat16(h)) : __half2float(__ushort_as_half(h));
      }
    }
    return;
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) c[e] = e < nv ? load_epilogue(ep.c, at + e, ep.c_dtype) : 0.0f;
}

// Row-major D (and C, when beta != 0) from the staged f32 block: consecutive threads take
// consecutive 4-element quads of a row, so a warp writes 512 (f32) or 256 contiguous bytes.
// NOTES: the per-element loop below it (kept for a column-major D or C) issues ~45K instructions a
// 128x256 tile, a 2-byte or 4-byte store each (run 3's ncu at 4096^3); every D that is not the
// cluster kernel's (f32 D, beta != 0, another layout) paid that with one CTA per SM. Run 82, 4096^3
// bf16: beta = 1 434 -> 280 us (cuBLAS 210-216), an f32 D 253 -> 235 us (cuBLAS 214-222).
template <int kTileN, int kPitch>
__device__ __forceinline__ void store_staged_rows(const float* staged, void* d, const Epilogue& ep, int64_t row_base,
                                                  int64_t n0, int rows, int cols) {
  constexpr int kQuads = kTileN / 4;
  constexpr int kIters = 64 * kQuads / 128;  // a thread's quads
  // NOTES: C's loads go out kBatch quads at a time before any is used; one quad, one load at a
  // time (run 82) waited out each load's latency: 4096^3 bf16 with an f32 C, beta = 1, 275.5 ->
  // 233.1 us (run 85).
  constexpr int kBatch = kIters < 8 ? kIters : 8;
  static_assert(kIters % kBatch == 0, "whole batches a thread");
  const int t = threadIdx.x % 128;
#pragma unroll 1
  for (int b0 = 0; b0 < kIters; b0 += kBatch) {
    float cv[kBatch][4];
    if (ep.beta != 0.0f) {
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        const int i = t + 128 * (b0 + j);
        const int r = i / kQuads, c = 4 * (i % kQuads);
        const int nv = r < rows && c < cols ? min(4, cols - c) : 0;
        load_c_quad(ep, (row_base + r) * ep.c_row_stride + n0 + c, nv, cv[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int i = t + 128 * (b0 + j);
      const int r = i / kQuads, c = 4 * (i % kQuads);
      if (r >= rows || c >= cols) continue;
      const float4 s = *reinterpret_cast<const float4*>(&staged[r * kPitch + c]);
      float v[4] = {ep.alpha * s.x, ep.alpha * s.y, ep.alpha * s.z, ep.alpha * s.w};
      const int nv = min(4, cols - c);
      if (ep.beta != 0.0f)
        for (int e = 0; e < 4; ++e) v[e] += ep.beta * cv[j][e];
      const int64_t at = (row_base + r) * ep.d_row_stride + n0 + c;
      if (nv == 4 && ep.d_quads) {
        if (ep.d_dtype == DType::f32) {
          *reinterpret_cast<float4*>(static_cast<float*>(d) + at) = make_float4(v[0], v[1], v[2], v[3]);
        } else if (ep.d_dtype == DType::bf16) {
          const __nv_bfloat162 lo = __floats2bfloat162_rn(v[0], v[1]), hi = __floats2bfloat162_rn(v[2], v[3]);
          *reinterpret_cast<uint2*>(static_cast<__nv_bfloat16*>(d) + at) =
              make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
        } else {
          const __half2 lo = __floats2half2_rn(v[0], v[1]), hi = __floats2half2_rn(v[2], v[3]);
          *reinterpret_cast<uint2*>(static_cast<__half*>(d) + at) =
              make_uint2(*reinterpret_cast<const uint32_t*>(&lo), *reinterpret_cast<const uint32_t*>(&hi));
        }
      } else {
        for (int e = 0; e < nv; ++e) store_epilogue(d, at + e, ep.d_dtype, v[e]);
      }
    }
  }
}

// The staged epilogue with a column-major 16-bit D, beta == 0, ldd % 8 == 0 and D 16-byte aligned
// (the swapped problems' D^T, kernels/sm90/swap_ab.hpp): 8 consecutive rows of a column go out as
// one 16-byte store, 8 threads a column's 64 rows, instead of one 2-byte store an element.
template <int kTileN, int kPitch>
__device__ __forceinline__ void store_staged_cols16(const float* staged, void* d, const Epilogue& ep, int64_t row_base,
                                                    int64_t n0, int rows, int cols) {
  constexpr int kVecs = 8 * kTileN;
  const int t = threadIdx.x % 128;
  const bool bf16 = ep.d_dtype == DType::bf16;
#pragma unroll
  for (int i0 = 0; i0 < kVecs; i0 += 128) {
    const int i = i0 + t;
    const int c = i / 8, r0 = 8 * (i % 8);
    if (c >= cols || r0 >= rows) continue;
    float v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = ep.alpha * staged[(r0 + e) * kPitch + c];
    const int64_t at = row_base + r0 + (n0 + c) * ep.d_col_stride;
    if (r0 + 8 <= rows) {
      uint32_t w[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        if (bf16) {
          const __nv_bfloat162 x = __floats2bfloat162_rn(v[2 * q], v[2 * q + 1]);
          w[q] = *reinterpret_cast<const uint32_t*>(&x);
        } else {
          const __half2 x = __floats2half2_rn(v[2 * q], v[2 * q + 1]);
          w[q] = *reinterpret_cast<const uint32_t*>(&x);
        }
      }
      *reinterpret_cast<uint4*>(static_cast<uint16_t*>(d) + at) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
#pragma unroll
      for (int e = 0; e < 8; ++e)  // unrolled: v stays in registers
        if (e < rows - r0) store_epilogue(d, at + e, ep.d_dtype, v[e]);
    }
  }
}

__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

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
template <WgmmaInput In, int TileN, int Stages, int Consumers, bool kAMnMajor, bool kBMnMajor, bool kDirectStore,
          bool kThreadLoads = false, bool kRowClassLoads = false, bool kInCopy = false, bool kMc = false>
__global__ void __launch_bounds__(Config<In, TileN, Stages, Consumers>::kThreads, 1)
    wgmma_tma_ws_kernel(const __grid_constant__ Maps<kRowClassLoads> maps, const Params p) {
  using C = Config<In, TileN, Stages, Consumers>;
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
  const dev::StageRing ring(base, kRing, C::kABytes, C::kBBytes, kRaw * C::kStageBytes);
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
  if (multicast) dev::cluster_sync();
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
      uint32_t stage_bytes = (kAMnMajor ? a_blocks * C::kMnBlockBytes : C::kABytes) +
                             (kBMnMajor ? b_blocks * C::kMnBlockBytes : C::kBBytes);
      // Multicast parts: a_rows of A (a_part bytes) and b_rows of B each; the masks name the CTAs
      // of this tile row (same rm) and tile column (same rn).
      const int32_t a_rows = C::kTileM / mc_n, b_rows = C::kTileN / mc_m;
      const uint32_t a_part = C::kABytes / mc_n, b_part = C::kBBytes / mc_m;
      const bool a_part_live = m0 + rn * a_rows < p.m, b_part_live = n0 + rm * b_rows < p.n;
      uint16_t a_mask = 0, b_mask = 0;
      if (multicast) {
        stage_bytes = 0;
        for (int j = 0; j < mc_n; ++j) {
          a_mask |= static_cast<uint16_t>(1u << (rm + mc_m * j));
          if (m0 + j * a_rows < p.m) stage_bytes += a_part;
        }
        for (int i = 0; i < mc_m; ++i) {
          b_mask |= static_cast<uint16_t>(1u << (i + mc_m * rn));
          if (n0 + i * b_rows < p.n) stage_bytes += b_part;
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
      for (int kt = 0; kt < k_tiles; ++kt) {
        // The slot is free once the consumers released its previous use (round - 1).
        if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
        dev::mbarrier_arrive_expect_tx(ring.full(s), stage_bytes);
        const int32_t k0 = (kt_first + kt) * C::kTileK;
        if (multicast) {
          // This CTA's part of A (rows rn/mc_n of the tile) into its tile row's CTAs, of B (rm/mc_m)
          // into its tile column's; a part wholly past M or N is not loaded (nor counted, by any
          // of the CTAs that share it: they all see the same m0, n0).
          if (mc_n == 1) load(ring.a(s), &maps.a, ring.full(s), k0, m0, pol_a);
          else if (a_part_live) load_mc(ring.a(s) + rn * a_part, &maps.a, ring.full(s), k0, m0 + rn * a_rows, a_mask, pol_a);
          if (mc_m == 1) load(ring.b(s), &maps.b, ring.full(s), k0, n0, pol_b);
          else if (b_part_live) load_mc(ring.b(s) + rm * b_part, &maps.b, ring.full(s), k0, n0 + rm * b_rows, b_mask, pol_b);
        } else {
          if constexpr (!kAMnMajor) {
            load(ring.a(s), &maps.a, ring.full(s), k0, m0, pol_a);  // box kTileK(K) x 128(M)
          } else {
#pragma unroll
            for (int i = 0; i < kABlocks; ++i)  // box 64(M) x 64(K)
              if (i < a_blocks)
                load(ring.a(s) + i * C::kMnBlockBytes, &maps.a, ring.full(s), m0 + i * static_cast<int32_t>(C::kMnBlock), k0, pol_a);
          }
          if constexpr (!kBMnMajor) {
            load(ring.b(s), &maps.b, ring.full(s), k0, n0, pol_b);  // box kTileK(K) x 256(N)
          } else {
#pragma unroll
            for (int i = 0; i < kBBlocks; ++i)  // box 64(N) x 64(K)
              if (i < b_blocks)
                load(ring.b(s) + i * C::kMnBlockBytes, &maps.b, ring.full(s), n0 + i * static_cast<int32_t>(C::kMnBlock), k0, pol_b);
          }
        }
        if (++s == kRing) {
          s = 0;
          ++round;
        }
      }
    }
    // Every thread of the cluster meets at the consumers' two barriers of the in-cluster sum.
    if (kClusterSum && cluster_splits > 1) {
      dev::cluster_sync();
      dev::cluster_sync();
    }
    // Multicast: the consumers' meeting after their last arrival on a peer's barrier.
    if (multicast) dev::cluster_sync();
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
    for (int kt = 0; kt < k_tiles; ++kt) {
      dev::mbarrier_wait(ring.full(s), phase);
      if (trace != nullptr && threadIdx.x == 128) {
        if (kt == 0) {
          t_first = dev::global_ns();
          c_first = clock64();
        }
        if (kt == k_tiles - 1) t_last = dev::global_ns();
      }
      const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s) + a_offset, kALbo, kSbo);
      const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), kBLbo, kSbo);
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
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
    if (trace != nullptr && threadIdx.x == 128) {
      trace[3] = t_first;
      trace[4] = t_last;
      trace[5] = dev::global_ns();
      trace[7] = clock64() - c_first;  // SM cycles over trace[5] - trace[3]: the clock the MMAs ran at
    }
    // Multicast: every load into this CTA has landed (its last stage was full) and, past this
    // meeting, no peer arrives on its barriers; the epilogue may reuse the stages and the CTA exit.
    if (multicast) dev::cluster_sync();
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
        if constexpr (C::kConsumers > 1) named_barrier_sync(1, kSumThreads);  // both consumers done with the stages
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
        named_barrier_sync(1, 128 * C::kConsumers);
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
    void* const d = static_cast<char*>(ep.d) + blockIdx.z * ep.d_split_bytes;
    if (d_row_major && (ep.beta == 0.0f || ep.c_col_stride == 1)) {
      store_staged_rows<C::kTileN, C::kEpiloguePitch>(staged, d, ep, row_base, n0, rows, cols);
      return;
    }
    if (ep.d_row_stride == 1 && ep.beta == 0.0f && ep.d_vec == 8 && (ep.d_dtype == DType::bf16 || ep.d_dtype == DType::f16)) {
      store_staged_cols16<C::kTileN, C::kEpiloguePitch>(staged, d, ep, row_base, n0, rows, cols);
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

// --- host side -------------------------------------------------------------------------------
// The compiled instances. Each (tile N, stages) variant is one of three sets, to keep the build
// lean: the full set (every layout, the register-store epilogue, tf32), the narrow set (B K-major,
// A either way: what swap-A/B needs), and sweep points (A and B K-major, bf16 only).
enum class InstanceSet { full, narrow, sweep };

template <int N, int S, int Consumers = 2>
struct Variant {
  static constexpr int kTileN = N, kStages = S, kConsumers = Consumers;
  static constexpr InstanceSet kSet = (N == 256 && S == 4 && Consumers == 2) ? InstanceSet::full
                                      : S == max_stages<N, Consumers>()       ? InstanceSet::narrow
                                                                              : InstanceSet::sweep;
};

// Calls f(Variant<N, S>{}) for the compiled variant v names; false when there is none.
template <class F>
bool visit_variant(Sm90WsVariant v, F&& f) {
  switch (v.consumers * 100000 + v.tile_n * 100 + v.stages) {
    case 200000 + 256 * 100 + 4: f(Variant<256, 4>{}); return true;
    case 200000 + 256 * 100 + 3: f(Variant<256, 3>{}); return true;
    case 200000 + 128 * 100 + 4: f(Variant<128, 4>{}); return true;
    case 200000 + 128 * 100 + max_stages<128>(): f(Variant<128, max_stages<128>()>{}); return true;
    case 200000 + 64 * 100 + 4: f(Variant<64, 4>{}); return true;
    case 200000 + 64 * 100 + max_stages<64>(): f(Variant<64, max_stages<64>()>{}); return true;
    case 200000 + 32 * 100 + max_stages<32>(): f(Variant<32, max_stages<32>()>{}); return true;
    case 200000 + 16 * 100 + max_stages<16>(): f(Variant<16, max_stages<16>()>{}); return true;
    case 100000 + 32 * 100 + max_stages<32, 1>(): f(Variant<32, max_stages<32, 1>(), 1>{}); return true;
    case 100000 + 16 * 100 + max_stages<16, 1>(): f(Variant<16, max_stages<16, 1>(), 1>{}); return true;
    case 100000 + 64 * 100 + max_stages<64, 1>(): f(Variant<64, max_stages<64, 1>(), 1>{}); return true;
    case 400000 + 64 * 100 + max_stages<64, 4>(): f(Variant<64, max_stages<64, 4>(), 4>{}); return true;
    default: return false;
  }
}

template <WgmmaInput In, class V, bool kAMnMajor, bool kBMnMajor, bool kDirectStore, bool kThreadLoads = false,
          bool kRowClassLoads = false, bool kInCopy = false, bool kMc = false>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_tma_ws_kernel<In, V::kTileN, V::kStages, V::kConsumers, kAMnMajor,
                                                            kBMnMajor, kDirectStore, kThreadLoads, kRowClassLoads,
                                                            kInCopy, kMc>);
}

// The multicast instances: bf16, K-major A and B, the tiles register_multicast.cu names (128x256
// s4, 128x128 and 128x64 at their most stages, the one-consumer 64x64 and 64x32).
template <WgmmaInput In, class V>
const void* find_multicast_instance(bool a_mn_major, bool b_mn_major) {
  if constexpr (In == WgmmaInput::bf16 && V::kSet != InstanceSet::sweep &&
                ((V::kConsumers == 2 && V::kTileN >= 64) || (V::kConsumers == 1 && V::kTileN >= 32)))
    return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, false, false, true>();
  return nullptr;
}

// The instance for this input and layout, or nullptr where the variant's set does not compile it.
// Thread loads: the narrow 128x128 and 128x64 tiles, 16-bit inputs, every layout (one instance).
// Row classes: the same two tiles, 16-bit inputs, A row-major and B column-major only.
// In-kernel copies: the three split-K tiles (128x256 s4, 128x128 and 128x64 at their most stages),
// 16-bit inputs, K-major A and B.
template <WgmmaInput In, class V>
const void* find_instance(bool a_mn_major, bool b_mn_major, bool direct_store, bool thread_loads, bool row_classes,
                          bool in_copy) {
  if (in_copy) {
    if constexpr (V::kConsumers == 2 && In != WgmmaInput::tf32 &&
                  (V::kSet == InstanceSet::full || (V::kSet == InstanceSet::narrow && (V::kTileN == 128 || V::kTileN == 64))))
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, false, true>();
    return nullptr;
  }
  if (row_classes) {
    if constexpr (V::kSet == InstanceSet::narrow && V::kConsumers == 2 && (V::kTileN == 128 || V::kTileN == 64) &&
                  In != WgmmaInput::tf32)
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, true>();
    return nullptr;
  }
  if (thread_loads) {
    if constexpr (V::kSet == InstanceSet::narrow && V::kConsumers == 2 && (V::kTileN == 128 || V::kTileN == 64) &&
                  In != WgmmaInput::tf32)
      return kernel_function<In, V, false, false, false, true>();
    return nullptr;
  }
  if constexpr (V::kSet == InstanceSet::full) {
    if constexpr (In == WgmmaInput::tf32) {
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false>();
    } else {
      if (direct_store) {
        if (a_mn_major)
          return b_mn_major ? kernel_function<In, V, true, true, true>() : kernel_function<In, V, true, false, true>();
        return b_mn_major ? kernel_function<In, V, false, true, true>() : kernel_function<In, V, false, false, true>();
      }
      if (a_mn_major)
        return b_mn_major ? kernel_function<In, V, true, true, false>() : kernel_function<In, V, true, false, false>();
      return b_mn_major ? kernel_function<In, V, false, true, false>() : kernel_function<In, V, false, false, false>();
    }
  } else if constexpr (In == WgmmaInput::tf32) {
    return nullptr;
  } else if constexpr (V::kSet == InstanceSet::narrow) {
    if (b_mn_major || direct_store) return nullptr;
    return a_mn_major ? kernel_function<In, V, true, false, false>() : kernel_function<In, V, false, false, false>();
  } else if constexpr (In == WgmmaInput::bf16) {  // the sweep is measured on bf16 only
    if (a_mn_major || b_mn_major || direct_store) return nullptr;
    return kernel_function<In, V, false, false, false>();
  } else {
    return nullptr;
  }
}

const void* find_instance(DType input, Sm90WsVariant v, bool a_mn_major, bool b_mn_major, bool direct_store,
                          bool multicast = false) {
  const void* fn = nullptr;
  if (multicast) {
    if (input != DType::bf16 || v.thread_loads || v.row_classes || v.in_copy) return nullptr;
    visit_variant(v, [&](auto tag) { fn = find_multicast_instance<WgmmaInput::bf16, decltype(tag)>(a_mn_major, b_mn_major); });
    return fn;
  }
  visit_variant(v, [&](auto tag) {
    using V = decltype(tag);
    const bool tl = v.thread_loads, rc = v.row_classes, ic = v.in_copy;
    fn = input == DType::tf32   ? find_instance<WgmmaInput::tf32, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
         : input == DType::bf16 ? find_instance<WgmmaInput::bf16, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
         : input == DType::f16  ? find_instance<WgmmaInput::f16, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
                                : nullptr;
  });
  return fn;
}

bool is_epilogue_dtype(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

// BK in elements: one 128-byte swizzle row.
int tile_k_of(DType input) { return input == DType::tf32 ? Config<WgmmaInput::tf32>::kTileK : Config<WgmmaInput::bf16>::kTileK; }

// TMA coordinates are signed 32-bit; keep the last box start representable.
inline constexpr int64_t kMaxTmaExtent = (int64_t{1} << 31) - 512;

Sm90WsShape shape_of(DType input, Sm90WsVariant v) {
  Sm90WsShape out{};
  visit_variant(v, [&](auto tag) {
    using V = decltype(tag);
    using C = Shared<V::kTileN, V::kStages, V::kConsumers>;
    out = {C::kTileM, C::kTileN, tile_k_of(input), C::kStages, C::kThreads, static_cast<int>(C::kSmemBytes)};
  });
  return out;
}

}  // namespace

std::string to_string(Sm90WsVariant v) {
  return std::to_string(64 * v.consumers) + "x" + std::to_string(v.tile_n) + " s" + std::to_string(v.stages) +
         (v.thread_loads ? " thread loads" : "") + (v.row_classes ? " row classes" : "") +
         (v.in_copy ? " in-kernel copies" : "");
}

Sm90WsVariant sm90_wgmma_ws_narrow_variant(int tile_n, int consumers) {
  if (consumers == 1)
    return tile_n <= 16   ? Sm90WsVariant{16, max_stages<16, 1>(), 1}
           : tile_n <= 32 ? Sm90WsVariant{32, max_stages<32, 1>(), 1}
                          : Sm90WsVariant{64, max_stages<64, 1>(), 1};
  if (consumers == 4) return {64, max_stages<64, 4>(), 4};
  switch (tile_n) {
    case 128: return {128, max_stages<128>()};
    case 64: return {64, max_stages<64>()};
    case 32: return {32, max_stages<32>()};
    default: return {16, max_stages<16>()};
  }
}

Status sm90_wgmma_ws_supports(const GemmDesc& g, DType input, Sm90WsVariant v) {
  const std::string_view want = to_string(input);
  if (g.a.dtype != input || g.b.dtype != input)
    return Status::unsupported("A and B must both be " + std::string(want) + " (got " +
                               std::string(to_string(g.a.dtype)) + " and " + std::string(to_string(g.b.dtype)) + ")");
  if (g.accumulate != DType::f32) return Status::unsupported("wgmma accumulates in f32");
  if (input == DType::tf32 && (g.a.layout != Layout::row || g.b.layout != Layout::column))
    return Status::unsupported(
        "tf32 wgmma needs K-major A and B (A row-major, B column-major); gemm() uses sm80_mma_sync_tf32 for "
        "this layout");
  if (!is_epilogue_dtype(g.d.dtype))
    return Status::unsupported("D must be f32, f16 or bf16 (got " + std::string(to_string(g.d.dtype)) + ")");
  if (g.beta != 0.0f && !is_epilogue_dtype(g.c.dtype))
    return Status::unsupported("C must be f32, f16 or bf16 (got " + std::string(to_string(g.c.dtype)) + ")");
  if (input != DType::bf16 && input != DType::f16 && input != DType::tf32)
    return Status::unsupported("the sm90 wgmma kernel takes bf16, f16 or tf32 inputs");
  if (g.m > kMaxTmaExtent || g.n > kMaxTmaExtent || g.k > kMaxTmaExtent)
    return Status::unsupported("m, n and k must be below 2^31 - 512 (TMA's 32-bit box coordinates)");
  const Sm90WsShape shape = shape_of(input, v);
  if (shape.tile_n == 0) return Status(StatusCode::internal, "sm90 wgmma: no " + to_string(v) + " variant is compiled");
  const int64_t tiles = ((g.m + shape.tile_m - 1) / shape.tile_m) * ((g.n + shape.tile_n - 1) / shape.tile_n);
  if (tiles > 0x7fffffff) return Status::unsupported("more than 2^31 - 1 output tiles for a 1D grid");
  if (v.thread_loads) {
    if (find_instance(input, v, false, false, false) == nullptr)
      return Status::unsupported("thread loads run the 128x128 and 128x64 tiles on bf16 or f16 inputs only");
    if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0)
      return Status(StatusCode::misaligned, "A and B must be aligned to their 2-byte elements");
    return Status::success();
  }
  if (v.row_classes) {
    if (g.a.layout != Layout::row || g.b.layout != Layout::column ||
        find_instance(input, v, false, false, false) == nullptr)
      return Status::unsupported(
          "row classes run the 128x128 and 128x64 tiles on bf16 or f16 with K-major A and B (A row-major, B "
          "column-major) only");
    if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0)
      return Status(StatusCode::misaligned, "A and B must be aligned to their 2-byte elements");
    return Status::success();
  }
  if (find_instance(input, v, g.a.layout == Layout::column, g.b.layout == Layout::row, false) == nullptr)
    return Status::unsupported("the " + to_string(v) + " tile is compiled for " +
                               (v.tile_n == 256 && v.stages == 4 ? std::string("K-major A and B (tf32)")
                                : shape.stages == sm90_wgmma_ws_narrow_variant(v.tile_n, v.consumers).stages
                                    ? std::string("a column-major (K-major) B only")
                                    : std::string("bf16 with A row-major and B column-major only")));
  if (Status s = check_tma_operand("A", g.a.dtype, g.a.pointer_alignment, effective_ld(g.a, extent_a(g))); !s.ok())
    return s;
  if (Status s = check_tma_operand("B", g.b.dtype, g.b.pointer_alignment, effective_ld(g.b, extent_b(g))); !s.ok())
    return s;
  return Status::success();
}

namespace {

// sm90_wgmma_ws_set_trace's buffer, read by every launch (this kernel's and swap_steal.cu's).
uint64_t* g_trace = nullptr;

// partials == nullptr: the plain GEMM (splits must be 1). Otherwise split-K: gridDim.z = splits,
// and split z stores its raw f32 sum (alpha = 1, beta = 0) to slab z, in D's layout with the ld of
// split_slab_ld (so that the reduce pass reads the slabs and writes D along the same direction).
// copy: with v.in_copy, what the grid copies first (args' A and B are then the copies' addresses).
// cs: split-K without slabs (Sm90ClusterSplit; partials == nullptr): each tile's splits are one
// cluster, summed in rank 0's registers from the peers' shared memory. k_blocks_per_split and
// splits are then cs's (every tile), or the whole K and 1 (the tail only).
Status check_cluster_split(const Sm90ClusterSplit& cs, int64_t k_blocks, int64_t tiles, Sm90WsVariant v) {
  auto tiles_k = [&](int per, int n) {
    return per >= 1 && static_cast<int64_t>(per) * (n - 1) < k_blocks && static_cast<int64_t>(per) * n >= k_blocks;
  };
  const bool every = cs.splits >= 2 && cs.splits <= kMaxClusterSplits && cs.tail_splits == 1 &&
                     tiles_k(cs.k_blocks_per_split, cs.splits);
  const bool tail = cs.splits == 1 && cs.tail_splits >= 2 && cs.tail_splits <= kMaxClusterSplits &&
                    cs.tail_first > 0 && cs.tail_first < tiles && cs.tail_first % cs.tail_splits == 0 &&
                    tiles_k(cs.tail_k_blocks_per_split, cs.tail_splits);
  if ((!every && !tail) || v.tile_n > kMaxClusterSumWidth || v.in_copy || v.thread_loads || v.row_classes)
    return Status(StatusCode::internal, "split-K in a cluster: 2.." + std::to_string(kMaxClusterSplits) +
                                            " splits tiling " + std::to_string(k_blocks) +
                                            " k-blocks, of every tile or of a tail after whole clusters, on a tile at most " +
                                            std::to_string(kMaxClusterSumWidth) + " wide loading by TMA (no thread loads, row classes or in-kernel copies)");
  return Status::success();
}

// The L2 policy mode of Params::l2_hint: 4 (the one-consumer tiles keep the shared operand, the
// others evict both first; runs 211-213) unless TCGEMM_DIAG_L2_HINT=h asks for another (diagnosis).
int32_t l2_hint_mode() {
  static const int32_t h = [] {
    const char* v = std::getenv("TCGEMM_DIAG_L2_HINT");
    return v == nullptr ? 4 : static_cast<int32_t>(std::strtol(v, nullptr, 10));
  }();
  return h;
}

Status launch_impl(const GemmArgs& args, DType input, Sm90WsVariant v, int k_blocks_per_split, int splits,
                   float* partials, bool allow_direct_store, const InCopy* copy = nullptr,
                   const Sm90ClusterSplit* cs = nullptr, Sm90Multicast mc = {}) {
  const bool in_cluster = cs != nullptr;
  const GemmDesc& g = args.desc;
  const bool multicast = mc.m * mc.n > 1;
  if (multicast) {
    if (in_cluster || copy != nullptr) return Status(StatusCode::internal, "multicast takes no cluster sums and no in-kernel copies");
    if (Status st = sm90_wgmma_ws_multicast_supports(g, input, v, mc); !st.ok()) return st;
  }
  const bool a_mn_major = g.a.layout == Layout::column;
  const bool b_mn_major = g.b.layout == Layout::row;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");
  const int tile_k = tile_k_of(input);
  const int64_t k_blocks = (g.k + tile_k - 1) / tile_k;
  if (input == DType::tf32 && (a_mn_major || b_mn_major || v.thread_loads))
    return Status::unsupported("tf32 wgmma needs K-major A and B (A row-major, B column-major), through TMA");
  if (in_cluster && (partials != nullptr || copy != nullptr))
    return Status(StatusCode::internal, "split-K in a cluster takes no slabs and no in-kernel copies");
  if (v.in_copy != (copy != nullptr) ||
      (copy != nullptr && (copy->count < 1 || copy->count > 2 || copy->counters == nullptr || v.thread_loads ||
                           v.row_classes || a_mn_major || b_mn_major || splits > kTileCounterWords)))
    return Status(StatusCode::internal, "in-kernel copies: K-major A and B, one or two operands, a counter a split");
  if (splits < 1 || splits > 65535 || k_blocks_per_split < 1 ||
      static_cast<int64_t>(k_blocks_per_split) * (splits - 1) >= k_blocks ||
      static_cast<int64_t>(k_blocks_per_split) * splits < k_blocks || (splits > 1 && partials == nullptr && !in_cluster))
    return Status(StatusCode::internal, "split-K: " + std::to_string(splits) + " splits of " +
                                            std::to_string(k_blocks_per_split) + " k-blocks do not tile " +
                                            std::to_string(k_blocks) + " k-blocks");

  // K-major operands load one kTileK(K) x rows box; MN-major ones (16-bit) 64-element column blocks.
  const Sm90WsShape shape = shape_of(input, v);
  if (shape.tile_n == 0) return Status(StatusCode::internal, "sm90 wgmma: no " + to_string(v) + " variant is compiled");
  const uint32_t kb = static_cast<uint32_t>(tile_k), mnb = Config<WgmmaInput::bf16>::kMnBlock;
  const uint32_t tile_m = static_cast<uint32_t>(shape.tile_m), tile_n = static_cast<uint32_t>(shape.tile_n);
  // NOTES: the one-consumer (64-row) tiles run only swap-A/B's decode shapes (M <= 32), a pure
  // stream of the large operand: without L2 promotion 16x8192x8192 ran 1.2-2.3% faster (two
  // passes, run 55), while 128x8192x28672's 128x256 split-K lost 1-2% and 4096^3 was level.
  const bool promote_l2 = v.consumers > 1;
  TensorMap2d tma_a{}, tma_b{};  // thread loads read neither
  Maps<true> classes{};
  if (v.row_classes) {
    if (a_mn_major || b_mn_major || input == DType::tf32)
      return Status::unsupported("row classes take K-major 16-bit A and B only");
    Result<RowClassMaps> ca = make_row_class_maps("A", g.a.dtype, args.a, g.k, g.m, lda, kb, tile_m / kRowClasses, promote_l2);
    if (!ca.ok()) return ca.status();
    Result<RowClassMaps> cb = make_row_class_maps("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, tile_n / kRowClasses, promote_l2);
    if (!cb.ok()) return cb.status();
    for (int j = 0; j < kRowClasses; ++j) {
      classes.a[j] = ca.value().map[j], classes.b[j] = cb.value().map[j];
      classes.a_x0[j] = ca.value().x0[j], classes.b_x0[j] = cb.value().x0[j];
      classes.a_rows[j] = ca.value().rows[j], classes.b_rows[j] = cb.value().rows[j];
      classes.a_order[j] = ca.value().order[j], classes.b_order[j] = cb.value().order[j];
    }
  } else if (!v.thread_loads) {
    Result<TensorMap2d> map_a =
        a_mn_major ? make_tensor_map_2d("A", g.a.dtype, args.a, g.m, g.k, lda, mnb, kb, promote_l2)
                   : make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, kb, tile_m / mc.n, promote_l2);
    if (!map_a.ok()) return map_a.status();
    Result<TensorMap2d> map_b =
        b_mn_major ? make_tensor_map_2d("B", g.b.dtype, args.b, g.n, g.k, ldb, mnb, kb, promote_l2)
                   : make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, tile_n / mc.m, promote_l2);
    if (!map_b.ok()) return map_b.status();
    tma_a = map_a.value();
    tma_b = map_b.value();
  }

  Params p{};
  p.loads.a = static_cast<const uint16_t*>(args.a);
  p.loads.b = static_cast<const uint16_t*>(args.b);
  p.loads.lda = lda;
  p.loads.ldb = ldb;
  p.loads.a_k_contiguous = !a_mn_major;
  p.loads.b_k_contiguous = !b_mn_major;
  // A stored matrix spans (lines - 1) * ld + length elements: lines of `length` contiguous ones.
  auto end_of = [](const void* base, int64_t lines, int64_t length, int64_t ld) {
    return reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(((lines - 1) * ld + length) * 2);
  };
  p.loads.a_end = a_mn_major ? end_of(args.a, g.k, g.m, lda) : end_of(args.a, g.m, g.k, lda);
  p.loads.b_end = b_mn_major ? end_of(args.b, g.k, g.n, ldb) : end_of(args.b, g.n, g.k, ldb);
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.tiles_m = (g.m + tile_m - 1) / tile_m;
  p.tiles_n = (g.n + tile_n - 1) / tile_n;
  Epilogue& ep = p.epilogue;
  set_caller_epilogue(ep, args);
  ep.d_split_bytes = 0;
  ep.f32_slab = false;
  p.k_blocks_per_split = k_blocks_per_split;
  p.cluster_splits = in_cluster ? cs->splits : 1;
  p.tail_first = in_cluster ? cs->tail_first : 0;
  p.tail_splits = in_cluster ? cs->tail_splits : 1;
  p.tail_k_blocks_per_split = in_cluster ? cs->tail_k_blocks_per_split : 0;
  p.mc_m = mc.m;
  p.mc_n = mc.n;
  p.l2_hint = l2_hint_mode();
  if (in_cluster) {
    if (Status st = check_cluster_split(*cs, k_blocks, p.tiles_m * p.tiles_n, v); !st.ok()) return st;
  }
  p.trace = g_trace;
  if (copy != nullptr) p.copy = *copy;
  if (partials != nullptr) {
    ep.d = partials;
    ep.c = nullptr;
    const bool row = g.d.layout == Layout::row;
    const int64_t slab_ld = split_slab_ld(g.m, g.n, row);  // a row-major slab's rows padded to 4 floats
    ep.d_row_stride = row ? slab_ld : 1;
    ep.d_col_stride = row ? 1 : slab_ld;
    ep.alpha = 1.0f;  // exact: the slab holds the raw f32 sum
    ep.beta = 0.0f;
    ep.d_dtype = DType::f32;
    ep.d_split_bytes = static_cast<int64_t>(split_slabs_bytes(g.m, g.n, row, 1));
    // NOTES: only with an even ld (8-byte pairs). With an odd one the register path has to store
    // 4-byte halves of each pair, and 333x777x4099 measured 22% slower that way (0.0449 against
    // 0.0369 ms) than through the staged, row-coalesced epilogue; the padded ld is always even.
    ep.f32_slab = row && slab_ld % 2 == 0 && reinterpret_cast<uintptr_t>(partials) % 8 == 0 && !v.row_classes;
  }

  // The register-store epilogue writes D's own 16-bit type along a row; the `_ds` instance ({256, 4}
  // only) assumes 4-byte pairs, every other one reads the two flags at run time.
  ep.direct_store = allow_direct_store && !v.row_classes && input != DType::tf32 && partials == nullptr && g.d.layout == Layout::row &&
                    g.d.dtype == input && g.beta == 0.0f;
  const uintptr_t d_address = reinterpret_cast<uintptr_t>(args.d);
  ep.d_vec = ldd % 8 == 0 && d_address % 16 == 0 ? 8 : ldd % 2 == 0 && d_address % 4 == 0 ? 2 : 1;
  const bool ds_instance = ep.direct_store && ep.d_vec >= 2 && v == Sm90WsVariant{};
  ep.d_quads = partials == nullptr && ldd % 4 == 0 && d_address % (4 * dtype_bytes(g.d.dtype)) == 0;
  ep.c_quads = partials == nullptr && g.beta != 0.0f && ldc % 4 == 0 &&
               reinterpret_cast<uintptr_t>(args.c) % (4 * dtype_bytes(g.c.dtype)) == 0;
  const void* fn = multicast ? find_instance(input, v, a_mn_major, b_mn_major, false, true)
                             : find_instance(input, v, a_mn_major, b_mn_major, ds_instance);
  if (fn == nullptr) return Status(StatusCode::internal, "sm90 wgmma: no kernel instance for this input and layout");
  if (Status st = allow_dynamic_smem(fn, shape.smem_bytes); !st.ok()) return st;
  Maps<false> plain{tma_a.map, tma_b.map};
  void* kernel_args[] = {v.row_classes ? static_cast<void*>(&classes) : static_cast<void*>(&plain), &p};
  cudaLaunchConfig_t cfg{};
  const int64_t tiles = p.tiles_m * p.tiles_n;
  cfg.gridDim = p.tail_splits > 1 ? dim3(static_cast<unsigned>(p.tail_first + (tiles - p.tail_first) * p.tail_splits))
                                  : dim3(static_cast<unsigned>(tiles), 1, static_cast<unsigned>(splits));
  cfg.blockDim = dim3(static_cast<unsigned>(shape.threads));
  cfg.dynamicSmemBytes = static_cast<std::size_t>(shape.smem_bytes);
  cfg.stream = args.stream;
  // In-kernel copies: a split's CTAs wait for each other at its counter, so the grid must be
  // resident all at once even beside other grids on other streams; a cooperative launch guarantees
  // it (the launch waits for room for the whole grid, or fails when the grid can never fit).
  // Diagnosis only: TCGEMM_DIAG_FUSED_LAUNCH=pdl (PDL alone, the old launch) or coop (cooperative
  // without PDL); the default is both.
  static const int fused_launch = [] {
    const char* e = std::getenv("TCGEMM_DIAG_FUSED_LAUNCH");
    const std::string m = e != nullptr ? e : "";
    return m == "pdl" ? 1 : m == "coop" ? 2 : 0;
  }();
  cudaLaunchAttribute attrs[2] = {pdl_attribute(), {}};
  unsigned count = 1;
  if (in_cluster) {
    cudaLaunchAttribute& cluster = attrs[count++];
    cluster.id = cudaLaunchAttributeClusterDimension;
    const bool tail = p.tail_splits > 1;  // a tail's splits along x, every tile's along z
    cluster.val.clusterDim.x = tail ? static_cast<unsigned>(p.tail_splits) : 1;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = tail ? 1 : static_cast<unsigned>(p.cluster_splits);
  } else if (multicast) {
    attrs[count++] = cluster_dim_attribute(static_cast<unsigned>(mc.m * mc.n));
  }
  if (v.in_copy && fused_launch != 1) {
    cudaLaunchAttribute coop{};
    coop.id = cudaLaunchAttributeCooperative;
    coop.val.cooperative = 1;
    if (fused_launch == 2) attrs[0] = coop;
    else attrs[count++] = coop;
  }
  cfg.attrs = attrs;
  cfg.numAttrs = count;
  const cudaError_t err = cudaLaunchKernelExC(&cfg, fn, kernel_args);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 wgmma launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace

Status sm90_wgmma_ws_launch(const GemmArgs& args, DType input, bool allow_direct_store, Sm90WsVariant v,
                            const InCopy* copy) {
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  return launch_impl(args, input, v, static_cast<int>(k_blocks), 1, nullptr, allow_direct_store, copy);
}

Status sm90_wgmma_ws_launch_partials(const GemmArgs& args, DType input, int k_blocks_per_split, int splits,
                                     float* partials, Sm90WsVariant v, const InCopy* copy, Sm90Multicast mc) {
  if (partials == nullptr) return Status::invalid("split-K needs a workspace for its partial sums");
  // split_k.cu counts k-blocks with sm90_wgmma_ws_shape()'s 16-bit tile_k; no tf32 split-K yet.
  if (input == DType::tf32) return Status::unsupported("split-K on the sm90 wgmma kernel takes bf16 or f16");
  return launch_impl(args, input, v, k_blocks_per_split, splits, partials, false, copy, nullptr, mc);
}

Status sm90_wgmma_ws_launch_multicast(const GemmArgs& args, DType input, Sm90WsVariant v, Sm90Multicast mc) {
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  return launch_impl(args, input, v, static_cast<int>(k_blocks), 1, nullptr, true, nullptr, nullptr, mc);
}

Status sm90_wgmma_ws_multicast_supports(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc) {
  if (Status st = sm90_wgmma_ws_supports(g, input, v); !st.ok()) return st;
  if (mc.m < 1 || mc.m > 2 || mc.n < 1 || mc.n > 2)
    return Status::unsupported("multicast runs clusters of 1 or 2 tiles along M and along N");
  if (v.thread_loads || v.row_classes || v.in_copy || g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("multicast loads K-major A and B (A row-major, B column-major) by TMA");
  if (find_instance(input, v, false, false, false, true) == nullptr)
    return Status::unsupported("multicast is compiled for bf16 on the 128x256 s4, 128x128 s7, 128x64 s9, 64x64 s14 and "
                               "64x32 s16 tiles only");
  const Sm90WsShape shape = shape_of(input, v);
  const int64_t tiles_m = (g.m + shape.tile_m - 1) / shape.tile_m, tiles_n = (g.n + shape.tile_n - 1) / shape.tile_n;
  if (tiles_m % mc.m != 0 || tiles_n % mc.n != 0)
    return Status::unsupported("multicast " + std::to_string(mc.m) + "x" + std::to_string(mc.n) + " needs the " +
                               std::to_string(tiles_m) + "x" + std::to_string(tiles_n) +
                               " tiles to divide into whole clusters");
  if (shape.tile_m / mc.n < 8 || shape.tile_n / mc.m < 8)
    return Status::unsupported("a multicast part is at least one 8-row swizzle atom");
  return Status::success();
}

int sm90_wgmma_ws_multicast_resident_ctas(DType input, Sm90WsVariant v, Sm90Multicast mc) {
  const void* fn = find_instance(input, v, false, false, false, true);
  const Sm90WsShape shape = shape_of(input, v);
  const unsigned size = static_cast<unsigned>(mc.m * mc.n);
  if (fn == nullptr || size < 1) return 0;
  if (size == 1) return current_device_sm_count();
  if (Status st = allow_dynamic_smem(fn, shape.smem_bytes); !st.ok()) return 0;
  Result<int> r = resident_clusters(fn, size, shape.threads, shape.smem_bytes);
  return r.ok() ? r.value() * static_cast<int>(size) : 0;
}

Status sm90_wgmma_ws_launch_cluster_split(const GemmArgs& args, DType input, Sm90WsVariant v,
                                          const Sm90ClusterSplit& split) {
  if (input == DType::tf32) return Status::unsupported("split-K on the sm90 wgmma kernel takes bf16 or f16");
  if (v.in_copy) return Status::unsupported("split-K in a cluster does not run the in-kernel copies");
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  const bool every = split.tail_splits <= 1;
  return launch_impl(args, input, v, every ? split.k_blocks_per_split : static_cast<int>(k_blocks),
                     every ? split.splits : 1, nullptr, true, nullptr, &split);
}

const void* sm90_wgmma_ws_multicast_function(DType input, Sm90WsVariant v) {
  return find_instance(input, v, false, false, false, true);
}

const void* sm90_wgmma_ws_function(DType input, bool direct_store, Sm90WsVariant v) {
  return find_instance(input, v, false, false, direct_store && input != DType::tf32 && v == Sm90WsVariant{});
}

Sm90WsShape sm90_wgmma_ws_shape(DType input, Sm90WsVariant v) { return shape_of(input, v); }

void sm90_wgmma_ws_set_trace(uint64_t* stamps) { g_trace = stamps; }
uint64_t* sm90_wgmma_ws_trace() { return g_trace; }
int sm90_wgmma_ws_trace_words() { return static_cast<int>(dev::kTraceWords); }
int sm90_wgmma_ws_trace_ctas() { return static_cast<int>(dev::kTraceCtas); }

}  // namespace tcgemm
