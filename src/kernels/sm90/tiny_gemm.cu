#include "kernels/sm90/tiny_gemm.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/cluster.cuh"
#include "kernels/common/element_pointers.hpp"
#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/pdl.cuh"
#include "kernels/sm90/split_k.hpp"

namespace tcgemm {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kTileN = static_cast<int>(kTinyTileCols);  // a warp's lanes (N-major) or 4 per warp (K-major)
constexpr int64_t kMaxSpan = int64_t{1} << 29;  // elements an operand spans (32-bit offsets)

// Oriented problem: rows m (blocks of the instance's TM, one a grid row), element (r, c) of X at
// x[r * x_r + c * x_c].
struct TinyParams {
  int64_t m, n, k;
  const void* a;
  int64_t a_m, a_k;
  const void* b;
  int64_t b_k, b_n;
  int64_t k_per_rank;
  int splits;
  // D and C, oriented: row = the kernel's m.
  void* d;
  const void* c;
  int64_t d_row_stride, d_col_stride, c_row_stride, c_col_stride;
  float alpha, beta;
  DType d_dtype, c_dtype;
};

template <class T>
__device__ __forceinline__ float ld_f32(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    const unsigned short u = __ldg(reinterpret_cast<const unsigned short*>(p) + i);
    return __uint_as_float(static_cast<unsigned>(u) << 16);
  } else {
    return __half2float(__ldg(p + i));
  }
}

// Each CTA sums its rank's K range for TM rows x 32 columns into `part`; the cluster then adds the
// ranks' parts in rank order, each rank finishing every splits-th output.
// KMajor: lanes along K (B contiguous in K), warp w owns columns 4w..4w+3, sums by shuffles.
// Otherwise: lanes along N (column = lane), warps along K, sums across warps in shared memory.
template <class T, int TM, bool KMajor>
__global__ void __launch_bounds__(kThreads, 1) tiny_gemm_kernel(const __grid_constant__ TinyParams p) {
  __shared__ float part[TM * kTileN];  // [m][column]
  __shared__ float red[KMajor ? 1 : kWarps * TM * kTileN];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int rank = static_cast<int>(dev::cluster_ctarank());
  const int64_t n0 = static_cast<int64_t>(blockIdx.x / p.splits) * kTileN;
  const int64_t m0 = static_cast<int64_t>(blockIdx.y) * TM;
  const int64_t rows = min(static_cast<int64_t>(TM), p.m - m0);  // >= 1: the grid has no empty block
  const int64_t kb = rank * p.k_per_rank, ke = min(p.k, kb + p.k_per_rank);
  const T* A = static_cast<const T*>(p.a);
  const T* B = static_cast<const T*>(p.b);
  // A thread's k steps: k_first, k_first + KS, ... below ke; its columns: NC of the tile's 32.
  constexpr int NC = KMajor ? kTileN / kWarps : 1;
  constexpr int KS = KMajor ? 32 : kWarps;
  // k steps whose loads are in flight together (~100 registers of operands at most)
  constexpr int U = TM >= 16 || (KMajor && TM >= 8) ? 4 : 8;
  const int64_t k_first = kb + (KMajor ? lane : warp);
  const int steps = k_first < ke ? static_cast<int>((ke - k_first + KS - 1) / KS) : 0;
  // 32-bit element offsets: sm90_tiny_supports bounds each operand's span by 2^29 elements, so
  // every offset loaded is below 2^31 (unsigned: the offsets a tail computes past the end and never
  // loads may wrap). Rows past the block's last and columns past n read the last valid one (their
  // sums are never stored).
  const uint32_t a_step = KS * static_cast<uint32_t>(p.a_k), b_step = KS * static_cast<uint32_t>(p.b_k);
  uint32_t a_off[TM], b_off[NC];
#pragma unroll
  for (int i = 0; i < TM; ++i)
    a_off[i] = static_cast<uint32_t>((m0 + (i < rows - 1 ? i : rows - 1)) * p.a_m + (steps ? k_first : 0) * p.a_k);
#pragma unroll
  for (int c = 0; c < NC; ++c) {
    const int64_t n = n0 + (KMajor ? warp * NC + c : lane);
    b_off[c] = static_cast<uint32_t>((n < p.n - 1 ? n : p.n - 1) * p.b_n + (steps ? k_first : 0) * p.b_k);
  }

  dev::pdl_wait();
  dev::pdl_launch_dependents();

  float acc[NC][TM] = {};
  // count < U: the tail, whose missing steps load zeros for A too (0 * Inf would be NaN).
  auto batch = [&](int count) {
    float av[U][TM], bv[U][NC];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const bool in = u < count;
#pragma unroll
      for (int i = 0; i < TM; ++i) av[u][i] = in ? ld_f32(A, a_off[i] + u * a_step) : 0.0f;
#pragma unroll
      for (int c = 0; c < NC; ++c) bv[u][c] = in ? ld_f32(B, b_off[c] + u * b_step) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int c = 0; c < NC; ++c)
#pragma unroll
        for (int i = 0; i < TM; ++i) acc[c][i] = fmaf(av[u][i], bv[u][c], acc[c][i]);
#pragma unroll
    for (int i = 0; i < TM; ++i) a_off[i] += U * a_step;
#pragma unroll
    for (int c = 0; c < NC; ++c) b_off[c] += U * b_step;
  };
  int left = steps;
  for (; left >= U; left -= U) batch(U);
  if (left > 0) batch(left);

  if constexpr (KMajor) {
#pragma unroll
    for (int c = 0; c < NC; ++c)
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        float v = acc[c][i];
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) v += __shfl_xor_sync(0xffffffffu, v, s);
        if (lane == 0) part[i * kTileN + warp * NC + c] = v;
      }
  } else {
#pragma unroll
    for (int i = 0; i < TM; ++i) red[(warp * TM + i) * kTileN + lane] = acc[0][i];
    __syncthreads();
    for (int o = tid; o < TM * kTileN; o += kThreads) {
      const int i = o / kTileN, col = o % kTileN;
      float s = 0.0f;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) s += red[(w * TM + i) * kTileN + col];
      part[o] = s;
    }
  }

  // Release this CTA's part to the cluster; acquire the peers'.
  dev::cluster_sync();
  const uint32_t part_addr = static_cast<uint32_t>(__cvta_generic_to_shared(part));
  for (int o = rank * kThreads + tid; o < TM * kTileN; o += p.splits * kThreads) {
    const int i = o / kTileN;
    const int64_t n = n0 + o % kTileN;
    float s = 0.0f;
    for (int r = 0; r < p.splits; ++r) s += dev::ld_cluster_f32(dev::map_to_rank(part_addr + 4u * o, r));
    if (i < rows && n < p.n) {
      const int64_t row = m0 + i;
      float v = p.alpha * s;
      if (p.beta != 0.0f) v += p.beta * dev::load_epilogue(p.c, row * p.c_row_stride + n * p.c_col_stride, p.c_dtype);
      dev::store_epilogue(p.d, row * p.d_row_stride + n * p.d_col_stride, p.d_dtype, v);
    }
  }
  // No CTA leaves while a peer may still read its part.
  dev::cluster_sync();
}

template <class T>
const void* instance(int tile_m, bool k_major) {
  switch (tile_m * 2 + (k_major ? 1 : 0)) {
    case 2: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 1, false>);
    case 3: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 1, true>);
    case 8: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 4, false>);
    case 9: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 4, true>);
    case 16: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 8, false>);
    case 17: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 8, true>);
    case 32: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 16, false>);
    case 33: return reinterpret_cast<const void*>(&tiny_gemm_kernel<T, 16, true>);
    default: return nullptr;
  }
}

// Strides of element (r, c) of a matrix stored in `layout` with leading dimension ld.
std::pair<int64_t, int64_t> strides(Layout layout, int64_t ld) {
  return layout == Layout::row ? std::pair<int64_t, int64_t>{ld, 1} : std::pair<int64_t, int64_t>{1, ld};
}

}  // namespace

Status sm90_tiny_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16) return Status::unsupported("the tiny kernel takes bf16 or f16 inputs");
  if (g.a.dtype != input || g.b.dtype != input)
    return Status::unsupported("A and B must both be " + std::string(to_string(input)));
  if (g.accumulate != DType::f32) return Status::unsupported("the tiny kernel accumulates in f32");
  if (Status s = check_epilogue_dtypes(g); !s.ok()) return s;
  if (std::min(g.m, g.n) > kTinyMaxRows)
    return Status::unsupported("min(M, N) = " + std::to_string(std::min(g.m, g.n)) + " is over the tiny kernel's " +
                               std::to_string(kTinyMaxRows) + " rows");
  if (std::max(g.m, g.n) > (int64_t{1} << 31) / kTinyMaxClusterSize)
    return Status::unsupported("max(M, N) over 2^28: the tiny kernel's 1D grid");
  if (Status s = check_element_pointers(g); !s.ok()) return s;
  if (stored_span(g.a, extent_a(g)) > kMaxSpan || stored_span(g.b, extent_b(g)) > kMaxSpan)
    return Status::unsupported("A or B spans over 2^29 elements: the tiny kernel's 32-bit offsets");
  return Status::success();
}

TinyPlan plan_tiny(const GemmDesc& g) {
  TinyPlan t;
  t.swapped = g.n < g.m;
  const int64_t rows = t.swapped ? g.n : g.m, cols = t.swapped ? g.m : g.n;
  const TinyGrid grid = tiny_grid(rows, cols, g.k, current_sm_count(), forced_split_k());
  t.tile_m = static_cast<int>(grid.tile_rows);
  t.row_blocks = static_cast<int>(grid.row_blocks);
  // The kernel's B is A^T when swapped: contiguous along K where A is row-major.
  t.k_major = t.swapped ? g.a.layout == Layout::row : g.b.layout == Layout::column;
  t.tiles = grid.tiles;
  t.splits = static_cast<int>(grid.splits);  // the profiler's --split_k_slices fixes it, within 1..8
  t.k_per_rank = grid.k_per_rank;
  return t;
}

Status sm90_tiny_launch(const GemmArgs& args, DType input) {
  const GemmDesc& g = args.desc;
  const TinyPlan t = plan_tiny(g);
  const auto [a_r, a_c] = strides(g.a.layout, effective_ld(g.a, extent_a(g)));  // A: (m, k)
  const auto [b_r, b_c] = strides(g.b.layout, effective_ld(g.b, extent_b(g)));  // B: (k, n)
  TinyParams p{};
  set_caller_epilogue(p, args);
  p.k = g.k;
  if (!t.swapped) {
    p.m = g.m, p.n = g.n;
    p.a = args.a, p.a_m = a_r, p.a_k = a_c;
    p.b = args.b, p.b_k = b_r, p.b_n = b_c;
  } else {  // D^T = B^T A^T: the kernel's A is B^T (rows n), its B is A^T (columns m), its D is D^T
    p.m = g.n, p.n = g.m;
    p.a = args.b, p.a_m = b_c, p.a_k = b_r;
    p.b = args.a, p.b_k = a_c, p.b_n = a_r;
    std::swap(p.d_row_stride, p.d_col_stride);
    std::swap(p.c_row_stride, p.c_col_stride);
  }
  p.k_per_rank = t.k_per_rank;
  p.splits = t.splits;

  const void* fn = input == DType::bf16 ? instance<__nv_bfloat16>(t.tile_m, t.k_major)
                                        : instance<__half>(t.tile_m, t.k_major);
  if (!fn) return Status(StatusCode::internal, "tiny kernel: no instance for " + std::to_string(t.tile_m) + " rows");
  void* kernel_args[] = {&p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(t.tiles * t.splits), static_cast<unsigned>(t.row_blocks));
  cfg.blockDim = dim3(kThreads);
  cfg.stream = args.stream;
  cudaLaunchAttribute attrs[2] = {cluster_dim_attribute(static_cast<unsigned>(t.splits)), pdl_attribute()};
  cfg.attrs = attrs;
  cfg.numAttrs = device_has_pdl() ? 2 : 1;
  if (cudaError_t e = cudaLaunchKernelExC(&cfg, fn, kernel_args); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("tiny kernel launch failed: ") + cudaGetErrorString(e));
  return Status::success();
}

const void* sm90_tiny_function(DType input) {
  return input == DType::bf16 ? instance<__nv_bfloat16>(16, true) : instance<__half>(16, true);
}

}  // namespace tcgemm
