// Swap A/B with a shared tail (swap_steal.hpp says why). The swapped problem is D^T = B^T A^T:
// the tile's 64 rows run along the caller's N, its 16 or 32 columns along M, and both operands are
// K-major (A row-major, B column-major).
//
// Reads top to bottom: config; parameters; the kernel (shared memory, producer: the owner's head
// then pool chunks, consumer: parts, the finisher's sum and epilogue); host plan, supports, launch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>

#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/cta_trace.cuh"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/named_barrier.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_steal.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm {
namespace {

using dev::WgmmaInput;

// --- config ----------------------------------------------------------------------------------
template <int TileN>
struct Config {
  static constexpr int kRows = 64;       // one consumer warpgroup: m64
  static constexpr int kTileK = 64;      // one 128-byte swizzle row of a 16-bit type
  static constexpr int kMmaK = 16;
  // Warpgroup 0 produces (one thread), 1 multiplies, 2 counts and adds the finished parts.
  static constexpr int kThreads = 384;
  static constexpr int kAccumulators = TileN / 2;
  static constexpr uint32_t kAtomBytes = 1024;
  static constexpr uint32_t kABytes = kRows * 128;    // 64 rows of B^T
  static constexpr uint32_t kBBytes = TileN * 128;    // TileN rows of A^T
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;
  static constexpr int kQueue = 8;  // finished parts waiting for the finisher warpgroup
  // The gap between the ring and its barriers: a tag per stage, a tag per queue entry, then the
  // queue's full and empty barriers.
  static constexpr uint32_t kTagBytes = 16 * 4 + kQueue * 4 + 2 * 4 + 2 * kQueue * 8;
  static constexpr int kStages = 16;
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kTagBytes + 2 * kStages * 8 + kAtomBytes;
  static_assert(TileN == 16 || TileN == 32, "the decode widths");
  static_assert(kBBytes % kAtomBytes == 0, "every B stage starts on a swizzle atom");
  static_assert(kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
  static_assert(kAccumulators % 4 == 0, "parts move as float4");
};

// A stage's tag, written by the producer before the stage's barrier: which tile and part its
// k-block feeds (tile | part << 16); kEnd: no more work. The consumer counts a part's k-blocks
// from the plan (see the NOTES at its loop).
constexpr int32_t kEnd = -1;
constexpr int32_t kTileMask = 0xffff;
constexpr int kMaxTiles = 4096;  // the sync buffer's per-tile counters
constexpr int64_t kMaxTmaExtent = (int64_t{1} << 31) - 512;  // TMA's 32-bit box coordinates

// --- parameters ------------------------------------------------------------------------------
struct Params {
  int64_t m, n;  // the caller's M (the tile's columns) and N (its rows)
  int32_t tiles, k_blocks, chunk_kb, tail_chunks, head_kb, parts;
  float* partials;  // [tile][part][consumer thread][accumulator]
  uint64_t* trace;  // sm90_wgmma_ws_set_trace's stamps (the ws kernel's words), nullptr: off
  uint32_t* sync;   // [0] next pool chunk, [1] CTAs done claiming, [2 + tile] parts finished
  void* d;
  const void* c;
  int64_t d_row_stride, d_col_stride, c_row_stride, c_col_stride;  // (m, n) of the caller's D and C
  float alpha, beta;
  DType d_dtype, c_dtype;
};

// --- the kernel ------------------------------------------------------------------------------
template <WgmmaInput In, int TileN>
__global__ void __launch_bounds__(Config<TileN>::kThreads, 1)
    wgmma_swap_steal_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                      const Params p) {
  using C = Config<TileN>;
  using Mma = dev::Wgmma<TileN, In, 0, 0>;
  constexpr int kFrag4 = C::kAccumulators / 4;  // float4s of one thread's fragment

  // Shared memory: [A stages][B stages][stage tags][queue tags][queue full, empty barriers]
  // [stage full barriers][stage empty barriers].
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = dev::smem_addr(smem_raw);
  const uint32_t base = (raw + C::kAtomBytes - 1) & ~(C::kAtomBytes - 1);
  const dev::StageRing ring(base, C::kStages, C::kABytes, C::kBBytes, C::kTagBytes);
  // NOTES: the tags pass between roles as shared-memory atomics. The mbarriers already order them
  // (written before an arrive, read after the wait), but compute-sanitizer's racecheck reported
  // plain stores and loads there as hazards (session 11, call 4); atomics it does not.
  int* const tags = reinterpret_cast<int*>(smem_raw + (ring.gap_smem - raw));
  int* const qtags = tags + 16;
  auto put = [](int* at, int32_t v) { atomicExch(at, v); };
  auto get = [](int* at) { return static_cast<int32_t>(atomicOr(at, 0)); };
  int* const last_flags = qtags + C::kQueue;  // two, alternating: the finisher's "this part was the last"
  const uint32_t qfull = ring.gap_smem + 16 * 4 + C::kQueue * 4 + 2 * 4;  // 8-byte aligned: 104 bytes in
  const uint32_t qempty = qfull + C::kQueue * 8;

  const uint64_t t_entry = dev::global_ns();
  if (threadIdx.x == 0) {
    dev::tma_prefetch_descriptor(&map_a);
    dev::tma_prefetch_descriptor(&map_b);
    ring.init(C::kStages, 4, 1);  // one empty arrival per consumer warp
    for (int q = 0; q < C::kQueue; ++q) {
      dev::mbarrier_init(qfull + 8 * q, 128);  // every consumer thread, after its part's stores
      dev::mbarrier_init(qempty + 8 * q, 1);   // the finisher warpgroup's first thread
    }
    dev::mbarrier_init_fence();
  }
  __syncthreads();
  dev::pdl_wait();
  dev::pdl_launch_dependents();
  uint32_t* const pool = p.sync;
  uint32_t* const finished = p.sync + 2;
  uint64_t* const trace = dev::trace_slot(p.trace, blockIdx.x);
  if (trace != nullptr && threadIdx.x == 0) trace[0] = t_entry, trace[1] = dev::global_ns(), trace[2] = dev::sm_id();
  auto part_slot = [&](int tile, int part, int thread) {
    return reinterpret_cast<float4*>(p.partials) +
           ((static_cast<int64_t>(tile) * p.parts + part) * 128 + thread) * kFrag4;
  };

  if (threadIdx.x == 0) {
    // --- producer: the owner's head, then pool chunks until none is left -----------------------
    int s = 0;
    uint32_t round = 0;
    auto push = [&](int tile, int part, int kb0, int kb1) {
      for (int kb = kb0; kb < kb1; ++kb) {
        if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
        put(&tags[s], tile | (part << 16));
        dev::mbarrier_arrive_expect_tx(ring.full(s), C::kStageBytes);
        dev::tma_load_2d(ring.a(s), &map_a, ring.full(s), kb * C::kTileK, tile * C::kRows);
        dev::tma_load_2d(ring.b(s), &map_b, ring.full(s), kb * C::kTileK, 0);
        if (++s == C::kStages) {
          s = 0;
          ++round;
        }
      }
    };
    if (static_cast<int>(blockIdx.x) < p.tiles) push(blockIdx.x, 0, 0, p.head_kb);
    // NOTES: chunk u is tile u % tiles, so the pool hands out every tile's first tail chunk before
    // any tile's second: the owners that finish last find their tails already being taken.
    const uint32_t total = static_cast<uint32_t>(p.tiles) * static_cast<uint32_t>(p.tail_chunks);
    for (;;) {
      const uint32_t u = atomicAdd(&pool[0], 1u);
      if (u >= total) break;
      // NOTES: handing out a tile's chunks one after another (u / tail_chunks) measured 104 us
      // against 62.7 at 16x8192x8192 (call 6, with the then-serialized wgmma): this order spreads
      // the pool's readers over every tile's rows.
      const int tile = static_cast<int>(u % p.tiles), chunk = static_cast<int>(u / p.tiles);
      const int kb0 = p.head_kb + chunk * p.chunk_kb;
      push(tile, 1 + chunk, kb0, min(kb0 + p.chunk_kb, p.k_blocks));
    }
    if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
    put(&tags[s], kEnd);
    dev::mbarrier_arrive(ring.full(s));  // no bytes: the phase completes on this arrival
    // The last CTA to stop claiming leaves the pool at zero for the next launch, which reads it
    // only after its PDL wait, when this grid has completed.
    __threadfence();
    if (atomicAdd(&pool[1], 1u) == gridDim.x - 1) {
      atomicExch(&pool[0], 0u);
      atomicExch(&pool[1], 0u);
    }
    return;
  }

  if (threadIdx.x >= 256) {
    // --- finisher warpgroup: counts each stored part; the tile's last part adds them all -------
    // NOTES: off the consumer's path. Counting a part is a gpu-scope fence and an atomic (~1 us
    // round trip); done by the consumers after each chunk it made them the bottleneck (60.7 us
    // against the plain swap tile's 41.4 at 16x8192x8192, session 11, call 4). One warp adding the
    // parts one load at a time kept each grid alive ~40 us past its last MMA (call 8): here thread
    // f adds fragment f of every part, its loads in flight together.
    const int f = threadIdx.x - 256, flane = f % 32;
    int q = 0, it = 0;
    uint32_t qphase = 0;
    for (;; ++it) {
      dev::mbarrier_wait(qfull + 8 * q, qphase);
      const int32_t tag = __shfl_sync(0xffffffffu, flane == 0 ? get(&qtags[q]) : 0, 0);
      if (tag == kEnd) break;
      const int tile = tag & kTileMask;
      if (f == 0) {
        // The consumers' stores happen before their arrivals, which this thread acquired (CTA
        // scope); the count's release makes them visible at gpu scope first (cumulativity), and its
        // acquire orders the last part's reads of the others after every earlier count.
        // NOTES: one acq_rel atomic, not __threadfence() and a relaxed one: fence.sc per part kept
        // the finisher ~2 us a part behind (call 9: grids alive 15-20 us past their last MMA).
        uint32_t before;
        asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;" : "=r"(before) : "l"(&finished[tile]) : "memory");
        const bool last = before == static_cast<uint32_t>(p.parts - 1);
        if (last) atomicExch(&finished[tile], 0u);  // every part counted: zero for the next launch
        put(&last_flags[it & 1], last ? 1 : 0);
      }
      dev::named_barrier_sync(2, 128);  // the flag is written and every thread has read the tag
      const bool last = __shfl_sync(0xffffffffu, flane == 0 ? get(&last_flags[it & 1]) : 0, 0) != 0;
      if (f == 0) dev::mbarrier_arrive(qempty + 8 * q);
      if (++q == C::kQueue) {
        q = 0;
        qphase ^= 1;
      }
      if (!last) continue;
      float sum[C::kAccumulators];
#pragma unroll
      for (int i = 0; i < C::kAccumulators; ++i) sum[i] = 0.0f;
      constexpr int kBatch = 16 / kFrag4;  // parts whose loads go out together (16 float4)
      for (int part0 = 0; part0 < p.parts; part0 += kBatch) {
        float4 v[kBatch][kFrag4];
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
#pragma unroll
          for (int i = 0; i < kFrag4; ++i)
            v[b][i] = part0 + b < p.parts ? __ldcg(part_slot(tile, part0 + b, f) + i) : make_float4(0, 0, 0, 0);
#pragma unroll
        for (int b = 0; b < kBatch; ++b)  // in part order: the sum is the same whoever adds it
#pragma unroll
          for (int i = 0; i < kFrag4; ++i)
            if (part0 + b < p.parts)
              sum[4 * i] += v[b][i].x, sum[4 * i + 1] += v[b][i].y, sum[4 * i + 2] += v[b][i].z,
                  sum[4 * i + 3] += v[b][i].w;
      }
      // m64nTk16 fragment of thread f: for 8-column block j, rows 16w + l/4 (+8) and columns
      // 8j + 2(l%4) (+1) as acc[4j + 2h + e]; rows are the caller's n, columns its m.
      const int w = f / 32;
#pragma unroll
      for (int j = 0; j < TileN / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int64_t n = static_cast<int64_t>(tile) * C::kRows + 16 * w + flane / 4 + 8 * h;
            const int64_t m = 8 * j + 2 * (flane % 4) + e;
            if (m >= p.m || n >= p.n) continue;
            float v = p.alpha * sum[4 * j + 2 * h + e];
            if (p.beta != 0.0f)
              v += p.beta * dev::load_epilogue(p.c, m * p.c_row_stride + n * p.c_col_stride, p.c_dtype);
            dev::store_epilogue(p.d, m * p.d_row_stride + n * p.d_col_stride, p.d_dtype, v);
          }
    }
    return;
  }
  if (threadIdx.x < 128) return;

  // --- consumer: one part at a time, each part's sum from zero -----------------------------------
  const int t = threadIdx.x - 128;
  const int lane = t % 32;
  float acc[C::kAccumulators];
#pragma unroll
  for (int i = 0; i < C::kAccumulators; ++i) acc[i] = 0.0f;
  int s = 0, prev = -1, q = 0;
  uint32_t phase = 0, qround = 0;
  uint64_t t_first = 0, t_last = 0, t_head = 0;
  // Hands a stored part (or the end) to the finisher warpgroup through the queue.
  auto enqueue = [&](int32_t tag) {
    if (qround > 0) dev::mbarrier_wait(qempty + 8 * q, (qround - 1) & 1);
    if (t == 0) put(&qtags[q], tag);
    dev::mbarrier_arrive(qfull + 8 * q);
    if (++q == C::kQueue) {
      q = 0;
      ++qround;
    }
  };
  // NOTES: a part's k-block count is known without its tag (the owner's head, then chunk_kb a
  // pool chunk), so the k-block loop runs a count the compiler can see is the same for the whole
  // warpgroup; with the first/last flags read from the tag instead, ptxas serialized every wgmma
  // (C7518, "WG.DP in divergent path") and the stream ran at ~2.7 TB/s (session 11, calls 4-7).
  int n = static_cast<int>(blockIdx.x) < p.tiles ? p.head_kb : p.chunk_kb;
  for (;;) {
    dev::mbarrier_wait(ring.full(s), phase);
    // One read a warp, then a shuffle (128 threads' atomics on the one word would serialize).
    const int32_t tag = __shfl_sync(0xffffffffu, lane == 0 ? get(&tags[s]) : 0, 0);
    if (trace != nullptr && t == 0 && t_first == 0) t_first = dev::global_ns();
    if (tag == kEnd) break;
    for (int kb = 0; kb < n; ++kb) {
      if (kb > 0) dev::mbarrier_wait(ring.full(s), phase);
      const uint64_t desc_a = dev::make_smem_desc_sw128(ring.a(s), 16, C::kAtomBytes);
      const uint64_t desc_b = dev::make_smem_desc_sw128(ring.b(s), 16, C::kAtomBytes);
      dev::mma_k_block<Mma, C::kTileK / C::kMmaK>(acc, desc_a, desc_b, C::kMmaK * 2, C::kMmaK * 2, kb > 0);
      dev::wgmma_wait_group<1>();  // keep this k-block in flight; the previous one is done
      if (prev >= 0 && lane == 0) dev::mbarrier_arrive(ring.empty(prev));
      prev = s;
      if (++s == C::kStages) {
        s = 0;
        phase ^= 1;
      }
    }
    dev::wgmma_wait_group<0>();
#pragma unroll
    for (int i = 0; i < C::kAccumulators; ++i) dev::fence_operand(acc[i]);
    if (lane == 0) dev::mbarrier_arrive(ring.empty(prev));
    prev = -1;
    if (trace != nullptr && t == 0) {
      t_last = dev::global_ns();
      if (t_head == 0) t_head = t_last;
    }
    // The part goes out in fragment order (each thread its own accumulators), so the finisher
    // reads back exactly what thread t of every part wrote.
    float4* slot = part_slot(tag & kTileMask, (tag >> 16) & 0xff, t);
#pragma unroll
    for (int i = 0; i < kFrag4; ++i)
      __stcg(slot + i, make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
    enqueue(tag);
    n = p.chunk_kb;
  }
  enqueue(kEnd);
  if (trace != nullptr && t == 0) trace[3] = t_first, trace[4] = t_last, trace[5] = dev::global_ns(), trace[6] = t_head;
}

// --- host side -------------------------------------------------------------------------------
template <int TileN>
const void* instance(DType input) {
  return input == DType::f16 ? reinterpret_cast<const void*>(&wgmma_swap_steal_kernel<WgmmaInput::f16, TileN>)
                             : reinterpret_cast<const void*>(&wgmma_swap_steal_kernel<WgmmaInput::bf16, TileN>);
}

int width_for(int64_t m) { return m <= 16 ? 16 : 32; }

// A positive integer from the environment, or 0; read once by each caller (a static), since the
// plan is asked for on every supports(), workspace and launch call.
int env_knob(const char* name) {
  const char* e = std::getenv(name);
  return e != nullptr ? std::max(0, std::atoi(e)) : 0;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The pool's counters: zeroed once when allocated, and every launch leaves them at zero (the last
// claimer and each tile's finisher reset theirs), so no launch needs a memset. One buffer a
// device: like the workspace, launches on one device must not run concurrently on two streams.
Result<uint32_t*> sync_buffer() {
  static std::mutex mu;
  static uint32_t* buffers[64] = {};
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64)
    return Status(StatusCode::cuda_error, "swap-steal: no current CUDA device");
  std::lock_guard<std::mutex> lock(mu);
  if (buffers[dev] == nullptr) {
    void* p = nullptr;
    const std::size_t bytes = (2 + kMaxTiles) * sizeof(uint32_t);
    if (cudaError_t e = cudaMalloc(&p, bytes); e != cudaSuccess)
      return Status(StatusCode::cuda_error, std::string("swap-steal: cudaMalloc: ") + cudaGetErrorString(e));
    // The memset runs on the legacy stream; the sync makes it complete before any launch on a
    // non-blocking stream can read the counters.
    if (cudaError_t e = cudaMemset(p, 0, bytes); e != cudaSuccess)
      return Status(StatusCode::cuda_error, std::string("swap-steal: cudaMemset: ") + cudaGetErrorString(e));
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
      return Status(StatusCode::cuda_error, std::string("swap-steal: sync: ") + cudaGetErrorString(e));
    buffers[dev] = static_cast<uint32_t*>(p);
  }
  return buffers[dev];
}

}  // namespace

SwapStealPlan plan_swap_steal(const GemmDesc& g, int sms) {
  SwapStealPlan p;
  p.tile_n = width_for(g.m);
  p.tiles = ceil_div(g.n, 64);
  p.grid = std::max<int>(sms, static_cast<int>(p.tiles));
  p.k_blocks = static_cast<int>(ceil_div(g.k, 64));
  // NOTES: a quarter of K in the pool covers the measured spread (the slowest SM streamed ~30%
  // longer than the fastest at 16x8192x8192). Chunks of 16 k-blocks at K = 8192 measured best:
  // 40.6 us against 46.5 (8) and 57.7-60.2 (4), each part costing a count and a 4 KB store
  // (session 11, call 9).
  p.chunk_kb = p.k_blocks >= 128 ? 16 : p.k_blocks >= 64 ? 8 : p.k_blocks >= 32 ? 4 : 2;
  int tail_div = 4;
  // Tuning knobs (session 11's sweeps; swap_steal.hpp): TCGEMM_STEAL_CHUNK, TCGEMM_STEAL_TAIL.
  static const int chunk_knob = env_knob("TCGEMM_STEAL_CHUNK"), tail_knob = env_knob("TCGEMM_STEAL_TAIL");
  if (chunk_knob > 0) p.chunk_kb = chunk_knob;
  if (tail_knob > 0) tail_div = tail_knob;
  p.tail_chunks = std::clamp(p.k_blocks / tail_div / p.chunk_kb, 1, std::max(1, std::min(250, (p.k_blocks - 1) / p.chunk_kb)));
  p.head_kb = p.k_blocks - p.tail_chunks * p.chunk_kb;
  p.parts = 1 + p.tail_chunks;
  p.workspace_bytes = static_cast<std::size_t>(p.tiles) * static_cast<std::size_t>(p.parts) * 64 *
                      static_cast<std::size_t>(p.tile_n) * sizeof(float);
  return p;
}

Status sm90_swap_steal_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16) return Status::unsupported("swap-steal takes bf16 or f16 inputs");
  if (g.a.dtype != input || g.b.dtype != input)
    return Status::unsupported("A and B must both be " + std::string(to_string(input)));
  if (g.accumulate != DType::f32) return Status::unsupported("wgmma accumulates in f32");
  if (Status s = check_epilogue_dtypes(g); !s.ok()) return s;
  if (g.m > 32) return Status::unsupported("swap-steal serves M <= 32 (M is " + std::to_string(g.m) + ")");
  if (g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("swap-steal needs K-major A and B (A row-major, B column-major)");
  if (g.n > kMaxTmaExtent || g.k > kMaxTmaExtent) return Status::unsupported("n and k must be below 2^31 - 512");
  const int sms = current_sm_count();
  if (sms <= 0) return Status(StatusCode::no_device, "swap-steal needs a GPU to plan its grid");
  const SwapStealPlan p = plan_swap_steal(g, sms);
  // One CTA a SM holds every tile at once (nobody waits, so nothing can deadlock), and the tiles
  // nearly fill the SMs: with fewer, the swap plan's split-K spreads K better than a pool would.
  if (p.tiles > sms || 4 * p.tiles < 3 * static_cast<int64_t>(sms) || p.tiles > kMaxTiles)
    return Status::unsupported("swap-steal takes ceil(N/64) tiles of 3/4 to all of the SMs (" + std::to_string(p.tiles) +
                               " tiles, " + std::to_string(sms) + " SMs)");
  if (p.k_blocks < 16) return Status::unsupported("swap-steal needs K >= 961 (16 k-blocks) for a pool");
  if (Status s = check_tma_operand("A", g.a.dtype, g.a.pointer_alignment, effective_ld(g.a, extent_a(g))); !s.ok())
    return s;
  return check_tma_operand("B", g.b.dtype, g.b.pointer_alignment, effective_ld(g.b, extent_b(g)));
}

std::size_t sm90_swap_steal_workspace(const GemmDesc& g) {
  return plan_swap_steal(g, std::max(current_sm_count(), 1)).workspace_bytes;
}

int sm90_swap_steal_stages(int tile_n) { return tile_n <= 16 ? Config<16>::kStages : Config<32>::kStages; }

const void* sm90_swap_steal_function(DType input, int tile_n) {
  return tile_n <= 16 ? instance<16>(input) : instance<32>(input);
}

Status sm90_swap_steal_launch(const GemmArgs& args, DType input) {
  const GemmDesc& g = args.desc;
  if (Status s = sm90_swap_steal_supports(g, input); !s.ok()) return s;
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");
  const SwapStealPlan plan = plan_swap_steal(g, current_sm_count());
  if (args.workspace == nullptr || args.workspace_bytes < plan.workspace_bytes)
    return Status(StatusCode::workspace_too_small, "swap-steal needs " + std::to_string(plan.workspace_bytes) +
                                                       " bytes of workspace for its partial sums; got " +
                                                       std::to_string(args.workspace_bytes));
  if (reinterpret_cast<uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "swap-steal: the workspace must be 16-byte aligned");
  Result<uint32_t*> sync = sync_buffer();
  if (!sync.ok()) return sync.status();

  const int64_t lda = effective_ld(g.a, extent_a(g)), ldb = effective_ld(g.b, extent_b(g));
  // NOTES: no L2 promotion, as for the ws kernel's decode tiles (a pure stream of B, run 55).
  Result<TensorMap2d> map_a = make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, 64, 64, false);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b =
      make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, 64, static_cast<uint32_t>(plan.tile_n), false);
  if (!map_b.ok()) return map_b.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.tiles = static_cast<int32_t>(plan.tiles);
  p.k_blocks = plan.k_blocks;
  p.chunk_kb = plan.chunk_kb;
  p.tail_chunks = plan.tail_chunks;
  p.head_kb = plan.head_kb;
  p.parts = plan.parts;
  p.partials = static_cast<float*>(args.workspace);
  p.sync = *sync;
  p.trace = sm90_wgmma_ws_trace();
  set_caller_epilogue(p, args);

  const void* fn = sm90_swap_steal_function(input, plan.tile_n);
  const int smem = static_cast<int>(plan.tile_n <= 16 ? Config<16>::kSmemBytes : Config<32>::kSmemBytes);
  if (Status st = allow_dynamic_smem(fn, smem); !st.ok()) return st;
  void* kernel_args[] = {const_cast<CUtensorMap*>(&map_a->map), const_cast<CUtensorMap*>(&map_b->map), &p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(plan.grid));
  cfg.blockDim = dim3(Config<16>::kThreads);  // the same for both widths
  cfg.dynamicSmemBytes = static_cast<std::size_t>(smem);
  cfg.stream = args.stream;
  cudaLaunchAttribute attr = pdl_attribute();
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  if (cudaError_t e = cudaLaunchKernelExC(&cfg, fn, kernel_args); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("swap-steal launch failed: ") + cudaGetErrorString(e));
  return Status::success();
}

}  // namespace tcgemm
