#include "kernels/sm90/skinny_gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "analysis/path_rules.hpp"
#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/chunk_shift.cuh"
#include "kernels/common/cluster.cuh"
#include "kernels/common/cp_async.cuh"
#include "kernels/common/element_pointers.hpp"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/mma_sync.cuh"
#include "kernels/common/pdl.cuh"
#include "kernels/sm90/split_k.hpp"

namespace tcgemm {
namespace {

constexpr int kThreads = 128;
constexpr int kCols = static_cast<int>(kSkinnyTileCols);
constexpr int kDepth = 6;           // 32-k steps a thread has in flight
constexpr int kSlots = kDepth + 2;  // a step's slots are refilled two steps after their last read
static_assert((kSlots & (kSlots - 1)) == 0, "the ring's slot is a step's low bits");
static_assert(kSkinnyTileCols == kSkinnyGridTileCols, "the grid rule (path_rules.hpp) sizes these tiles");

// Oriented problem: rows m (<= 16), columns n. Element (r, k) of A at a[r * a_m + k]; element
// (k, c) of B at b[c * b_n + k] (contiguous along K).
struct SkinnyParams {
  int64_t m, n, k;
  const void* a;
  int64_t a_m;
  const void* b;
  int64_t b_n;
  int64_t k_per_rank;
  int splits;
  int realign_a, realign_b;
  void* d;
  const void* c;
  int64_t d_row_stride, d_col_stride, c_row_stride, c_col_stride;
  float alpha, beta;
  DType d_dtype, c_dtype;
};

// Elements first .. first + 7 from base, zero outside [0, len), to shared memory at dst. Rare (the
// last chunks of a column), so kept out of line: the unrolled loops stay small.
__device__ __noinline__ void store_elementwise(const uint16_t* base, uint32_t dst, int64_t first, int64_t len) {
  uint32_t h[8];
#pragma unroll
  for (int e = 0; e < 8; ++e) h[e] = first + e >= 0 && first + e < len ? __ldg(base + first + e) : 0u;
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(h[0] | h[1] << 16), "r"(h[2] | h[3] << 16),
               "r"(h[4] | h[5] << 16), "r"(h[6] | h[7] << 16)
               : "memory");
}

// One K-contiguous vector (a row of A or a column of B) from element `base` (k = the rank's first).
// Chunk c is the 16-byte-aligned block c of the vector's aligned start: it holds elements
// 8c - phase .. 8c - phase + 7. A chunk that ends inside the column (`total` elements from base to
// the column's end) is copied whole: its bytes before base (chunk 0) and past the rank's range are
// the column's own or its neighbour's, never used unmasked, and the aligned-down start of a valid
// element stays inside its 16-byte-aligned allocation. A chunk past the column's end is loaded
// element by element, zero-filled, so no load leaves the operand.
struct KVector {
  const uint16_t* base = nullptr;  // nullptr: a padding row or column, all zeros
  const char* aligned = nullptr;   // base rounded down to 16 bytes
  int phase = 0;                   // elements base sits past `aligned`
  __device__ void init(const void* p) {
    base = static_cast<const uint16_t*>(p);
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    aligned = reinterpret_cast<const char*>(a & ~uintptr_t{15});
    phase = static_cast<int>((a & 15) >> 1);
  }
  __device__ __forceinline__ void issue(uint32_t dst, int64_t c, int64_t len, int64_t total) const {
    if (base == nullptr) return;
    const int64_t first = 8 * c - phase;
    if (first + 8 <= total) {
      dev::cp_async_16(dst, aligned + 16 * c);
      return;
    }
    store_elementwise(base, dst, first, len);
  }
};

__device__ __forceinline__ uint4 lds128(uint32_t a) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a) : "memory");
  return v;
}

// Elements 8t + e of the step at or past `left` (the rank's elements left from the step's start) to zero.
__device__ __forceinline__ uint4 mask_tail(uint4 v, int64_t left, int t) {
  uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int64_t e = 8 * t + 2 * i;
    w[i] = e >= left ? 0u : e + 1 >= left ? (w[i] & 0xffffu) : w[i];
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// The lane's k order inside a step: its 8 realigned elements 8t..8t+7 play mma-k {2t, 2t+1, 2t+8,
// 2t+9} of two m16n8k16 (elements 0-3, then 4-7), the same order in A and B, so the sum is over the
// step's 32 k. Each thread keeps kDepth steps of its own chunks in flight by cp.async into its
// slots of a ring; a warp's lanes read each other's slots after the wait and a __syncwarp.
template <class T, bool Rows16, bool Realign>
__global__ void __launch_bounds__(kThreads, 3) mma_sync_skinny_kernel(const __grid_constant__ SkinnyParams p) {
  constexpr int V = Rows16 ? 4 : 3;  // vectors a lane streams: B's two column groups, A's rows g (and g + 8)
  constexpr uint32_t kSlotBytes = V * kThreads * 16, kVecBytes = kThreads * 16;
  extern __shared__ __align__(16) uint4 ring[];  // [slot][vector][thread]
  __shared__ float part[16 * kCols];             // [row][column]
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
  const int rank = static_cast<int>(dev::cluster_ctarank());
  const int64_t n0 = static_cast<int64_t>(blockIdx.x / p.splits) * kCols;
  const int64_t kb = rank * p.k_per_rank;
  const int64_t len = max(int64_t{0}, min(p.k, kb + p.k_per_rank) - kb), total = p.k - kb;
  const uint16_t* A = static_cast<const uint16_t*>(p.a);
  const uint16_t* B = static_cast<const uint16_t*>(p.b);

  KVector vec[V];
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    const int64_t col = n0 + 16 * warp + 8 * j + g;
    if (col < p.n && len > 0) vec[j].init(B + col * p.b_n + kb);
  }
  if (g < p.m && len > 0) vec[2].init(A + g * p.a_m + kb);
  if (Rows16 && g + 8 < p.m && len > 0) vec[V - 1].init(A + (g + 8) * p.a_m + kb);
  bool live[V], shift[V];
#pragma unroll
  for (int v = 0; v < V; ++v) {
    live[v] = vec[v].base != nullptr;
    shift[v] = Realign && (v < 2 ? p.realign_b : p.realign_a);
  }
  const uint32_t mine = static_cast<uint32_t>(__cvta_generic_to_shared(ring)) + 16u * tid;  // slot 0, vector 0
  // The realigning lane's neighbour chunk: lane t + 1's in the same slot, or for t = 3 lane 0's in
  // the next slot (the ring wraps after slot kSlots - 1).
  const int next_delta = t < 3 ? 16 : static_cast<int>(kSlotBytes) - 48;
  const int wrap_delta = t < 3 ? 16 : -static_cast<int>((kSlots - 1) * kSlotBytes) - 48;
  const int64_t steps = (len + 31) / 32;
  // Steps 0..steps are issued (the last step's t = 3 lanes realign with step `steps`' chunk). Step
  // s's chunks all end inside the column (no element-wise load) while s < total / 32 (phase 0, t = 3
  // is the last chunk of a step).
  auto issue_checked = [&](int64_t s) {
    if (s <= steps) {
#pragma unroll
      for (int v = 0; v < V; ++v)
        vec[v].issue(mine + (static_cast<uint32_t>(s) & (kSlots - 1)) * kSlotBytes + v * kVecBytes, 4 * s + t, len, total);
    }
    dev::cp_async_commit();
  };
  float acc[2][4] = {};
  // Step s from slot u (= s mod kSlots): realign, mask past the rank's end when `tail`, and sum.
  auto consume = [&](int64_t s, uint32_t u, bool tail) {
    uint4 w[V];
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const uint32_t at = mine + u * kSlotBytes + v * kVecBytes;
      const uint4 own = lds128(at);
      w[v] = own;
      if (Realign && shift[v])
        w[v] = dev::shift_chunk_per_lane(own, lds128(at + (u == kSlots - 1 ? wrap_delta : next_delta)), vec[v].phase);
      if (!live[v]) w[v] = make_uint4(0, 0, 0, 0);
    }
    if (tail && 32 * (s + 1) > len) {
#pragma unroll
      for (int v = 0; v < V; ++v) w[v] = mask_tail(w[v], len - 32 * s, t);
    }
    const uint4 a1 = Rows16 ? w[V - 1] : make_uint4(0, 0, 0, 0);
    constexpr DType kIn = std::is_same_v<T, __nv_bfloat16> ? DType::bf16 : DType::f16;
    const uint32_t a_lo[4] = {w[2].x, a1.x, w[2].y, a1.y}, a_hi[4] = {w[2].z, a1.z, w[2].w, a1.w};
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      dev::mma_sync<kIn>(acc[j], a_lo, {w[j].x, w[j].y});
      dev::mma_sync<kIn>(acc[j], a_hi, {w[j].z, w[j].w});
    }
  };

  dev::pdl_wait();
  dev::pdl_launch_dependents();

#pragma unroll 1
  for (int s = 0; s < kDepth; ++s) issue_checked(s);
  // Blocks of kSlots steps with every issue whole and no step past the rank's end: slots and
  // source offsets are immediates.
  const int64_t fast_end = min(steps + 1, total / 32) - kDepth;  // issues stay within steps 0..steps
  const char* src[V];
#pragma unroll
  for (int v = 0; v < V; ++v) src[v] = vec[v].aligned + 16 * t + 64 * kDepth;
  int64_t s0 = 0;
  for (; s0 + kSlots <= fast_end; s0 += kSlots) {
#pragma unroll
    for (int u = 0; u < kSlots; ++u) {
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (live[v]) dev::cp_async_16(mine + ((u + kDepth) % kSlots) * kSlotBytes + v * kVecBytes, src[v] + 64 * u);
      dev::cp_async_commit();
      dev::cp_async_wait<kDepth - 1>();  // steps s and s + 1 landed (this thread's part)
      __syncwarp();                 // and every lane's
      consume(s0 + u, u, false);
    }
#pragma unroll
    for (int v = 0; v < V; ++v) src[v] += 64 * kSlots;
  }
#pragma unroll 1
  for (int64_t s = s0; s < steps; ++s) {
    issue_checked(s + kDepth);
    dev::cp_async_wait<kDepth - 1>();
    __syncwarp();
    consume(s, static_cast<uint32_t>(s) & (kSlots - 1), true);
  }
  dev::cp_async_wait<0>();

  // C fragment: rows g and g + 8, columns 2t and 2t + 1 of each group of 8.
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    const int col = 16 * warp + 8 * j + 2 * t;
    part[g * kCols + col] = acc[j][0];
    part[g * kCols + col + 1] = acc[j][1];
    part[(g + 8) * kCols + col] = acc[j][2];
    part[(g + 8) * kCols + col + 1] = acc[j][3];
  }
  // Release this CTA's part to the cluster; acquire the peers'. Each rank finishes every
  // splits-th output, adding the ranks' parts in rank order.
  dev::cluster_sync();
  const int rows = static_cast<int>(p.m < (Rows16 ? 16 : 8) ? p.m : (Rows16 ? 16 : 8));
  const uint32_t part_addr = static_cast<uint32_t>(__cvta_generic_to_shared(part));
  for (int o = rank * kThreads + tid; o < rows * kCols; o += p.splits * kThreads) {
    const int i = o / kCols;
    const int64_t col = n0 + o % kCols;
    if (col >= p.n) continue;
    float v = 0.0f;
    for (int r = 0; r < p.splits; ++r) v += dev::ld_cluster_f32(dev::map_to_rank(part_addr + 4u * o, r));
    v = p.alpha * v;
    if (p.beta != 0.0f) v += p.beta * dev::load_epilogue(p.c, i * p.c_row_stride + col * p.c_col_stride, p.c_dtype);
    dev::store_epilogue(p.d, i * p.d_row_stride + col * p.d_col_stride, p.d_dtype, v);
  }
  // No CTA leaves while a peer may still read its part.
  dev::cluster_sync();
}

template <bool Rows16>
constexpr size_t ring_bytes() {
  return static_cast<size_t>(kSlots) * (Rows16 ? 4 : 3) * kThreads * 16;
}

template <class T, bool Rows16>
const void* instance(bool realign) {
  return realign ? reinterpret_cast<const void*>(&mma_sync_skinny_kernel<T, Rows16, true>)
                 : reinterpret_cast<const void*>(&mma_sync_skinny_kernel<T, Rows16, false>);
}
template <class T>
const void* instance(bool rows16, bool realign) {
  return rows16 ? instance<T, true>(realign) : instance<T, false>(realign);
}

// The oriented operands: the kernel's A (rows x K) and B (K x columns), both contiguous along K
// (A row-major and B column-major; with A/B swapped, D^T = B^T A^T, B's columns are the rows).
struct Oriented {
  const MatrixDesc* a;  // the rows' operand
  const MatrixDesc* b;  // the columns' operand
  StoredExtent ea, eb;
};
Oriented orient(const GemmDesc& g, bool swapped) {
  if (!swapped) return {&g.a, &g.b, extent_a(g), extent_b(g)};
  return {&g.b, &g.a, extent_b(g), extent_a(g)};
}

constexpr int64_t kMaxSpan = int64_t{1} << 40;  // elements an operand spans (64-bit offsets)

}  // namespace

Status sm90_skinny_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16) return Status::unsupported("the skinny kernel takes bf16 or f16 inputs");
  if (g.a.dtype != input || g.b.dtype != input)
    return Status::unsupported("A and B must both be " + std::string(to_string(input)));
  if (g.accumulate != DType::f32) return Status::unsupported("the skinny kernel accumulates in f32");
  if (Status s = check_epilogue_dtypes(g); !s.ok()) return s;
  if (std::min(g.m, g.n) > kSkinnyMaxRows)
    return Status::unsupported("min(M, N) = " + std::to_string(std::min(g.m, g.n)) + " is over the skinny kernel's " +
                               std::to_string(kSkinnyMaxRows) + " rows");
  if (g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("the skinny kernel streams both operands along K: A must be row-major and B column-major");
  if ((std::max(g.m, g.n) + kSkinnyTileCols - 1) / kSkinnyTileCols * kTinyMaxClusterSize > (int64_t{1} << 31) - 1)
    return Status::unsupported("max(M, N) too large for the skinny kernel's 1D grid");
  if (Status s = check_element_pointers(g); !s.ok()) return s;
  if (stored_span(g.a, extent_a(g)) > kMaxSpan || stored_span(g.b, extent_b(g)) > kMaxSpan)
    return Status::unsupported("A or B spans over 2^40 elements");
  return Status::success();
}

SkinnyPlan plan_skinny(const GemmDesc& g) {
  SkinnyPlan t;
  t.swapped = g.n < g.m;  // the small side takes the rows
  const int64_t rows = t.swapped ? g.n : g.m, cols = t.swapped ? g.m : g.n;
  t.rows16 = rows > 8;
  const Oriented o = orient(g, t.swapped);
  // A column (row) starts on 16 bytes when the base and the ld's bytes are multiples of 16; the
  // ranks start on multiples of 32 elements.
  const auto off16 = [](const MatrixDesc& x, StoredExtent e) {
    return x.pointer_alignment % 16 != 0 || (effective_ld(x, e) * 2) % 16 != 0;
  };
  t.realign_b = off16(*o.b, o.eb);
  t.realign_a = off16(*o.a, o.ea);
  const SkinnyGrid grid = skinny_grid(rows, cols, g.k, current_sm_count(), forced_split_k());
  t.tiles = grid.tiles;
  t.splits = grid.splits;
  const int64_t per = (g.k + t.splits - 1) / t.splits;
  t.k_per_rank = (per + 31) / 32 * 32;
  return t;
}

Status sm90_skinny_launch(const GemmArgs& args, DType input) {
  const GemmDesc& g = args.desc;
  const SkinnyPlan t = plan_skinny(g);
  const Oriented o = orient(g, t.swapped);
  const int64_t lda = effective_ld(*o.a, o.ea), ldb = effective_ld(*o.b, o.eb);
  SkinnyParams p{};
  set_caller_epilogue(p, args);
  p.k = g.k;
  p.m = t.swapped ? g.n : g.m;
  p.n = t.swapped ? g.m : g.n;
  p.a = t.swapped ? args.b : args.a;
  p.b = t.swapped ? args.a : args.b;
  // The kernel's A (row r, k): K-major stores it at r * ld + k, else at r + k * ld.
  p.a_m = lda;
  p.b_n = ldb;
  if (t.swapped) {
    std::swap(p.d_row_stride, p.d_col_stride);
    std::swap(p.c_row_stride, p.c_col_stride);
  }
  p.k_per_rank = t.k_per_rank;
  p.splits = t.splits;
  // From the real addresses (a desc may claim more alignment than the pointer has).
  const auto off16 = [](const void* x, int64_t ld) { return reinterpret_cast<uintptr_t>(x) % 16 != 0 || (ld * 2) % 16 != 0; };
  p.realign_a = off16(p.a, lda);
  p.realign_b = off16(p.b, ldb);

  const bool realign = p.realign_a || p.realign_b;
  const void* fn = input == DType::bf16 ? instance<__nv_bfloat16>(t.rows16, realign) : instance<__half>(t.rows16, realign);
  const size_t smem = t.rows16 ? ring_bytes<true>() : ring_bytes<false>();
  if (cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
      e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("skinny kernel: ") + cudaGetErrorString(e));
  void* kernel_args[] = {&p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(t.tiles * t.splits));
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = args.stream;
  cudaLaunchAttribute attrs[2] = {cluster_dim_attribute(static_cast<unsigned>(t.splits)), pdl_attribute()};
  cfg.attrs = attrs;
  cfg.numAttrs = device_has_pdl() ? 2 : 1;
  if (cudaError_t e = cudaLaunchKernelExC(&cfg, fn, kernel_args); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("skinny kernel launch failed: ") + cudaGetErrorString(e));
  return Status::success();
}

const void* sm90_skinny_function(DType input) {
  return input == DType::bf16 ? instance<__nv_bfloat16>(true, true) : instance<__half>(true, true);
}

}  // namespace tcgemm
