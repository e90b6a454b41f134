// Split-K reduce: each thread owns V consecutive elements of one slab line (a row of a row-major
// slab) and sums the slabs z = 0, 1, ..., splits-1 in that order (fixed, so bitwise
// deterministic), then applies alpha, beta*C and D's dtype. The slabs were just written by the
// GEMM pass, so they are read mostly from L2: the loop is latency-bound unless many loads are in
// flight, hence the batches of kBatch independent loads before their (ordered) adds. Plain loads:
// __ldcg compiles to LDG.STRONG.GPU, which ptxas keeps in program order, two in flight (23 us for
// 64 slabs of 256x256 under ncu, bench/NOTES.md).
#include "kernels/common/splitk_reduce.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/pdl.cuh"

namespace tcgemm {
namespace {

using dev::load_epilogue;
using dev::store_epilogue;

constexpr int kBatch = 16;
// 128: a 256x256 D is 16384 float4 threads, 128 blocks to spread over the SMs, not 64.
constexpr int kThreads = 128;

template <int V>
struct Vec;
template <>
struct Vec<1> {
  using T = float;
  __device__ static void add(float* s, T w) { s[0] += w; }
  __device__ static void set(float* s, T w) { s[0] = w; }
};
template <>
struct Vec<2> {
  using T = float2;
  __device__ static void add(float* s, T w) { s[0] += w.x; s[1] += w.y; }
  __device__ static void set(float* s, T w) { s[0] = w.x; s[1] = w.y; }
};
template <>
struct Vec<4> {
  using T = float4;
  __device__ static void add(float* s, T w) { s[0] += w.x; s[1] += w.y; s[2] += w.z; s[3] += w.w; }
  __device__ static void set(float* s, T w) { s[0] = w.x; s[1] = w.y; s[2] = w.z; s[3] = w.w; }
};

// 2D blocks: threadIdx.x walks a line V elements at a time, threadIdx.y picks the line, so no
// per-element 64-bit division (the flat-index version spent its time there: 11 us under ncu for
// 1000x1000 x 4 slabs, bench/NOTES.md).
template <int V>
__global__ void __launch_bounds__(kThreads) splitk_reduce_kernel(const SplitKReduceArgs a) {
  using L = Vec<V>;
  dev::pdl_wait();  // launched with programmatic stream serialization (common/pdl.cuh)
  const int64_t total = a.slab_stride > 0 ? a.slab_stride : a.m * a.n;
  const int64_t line = a.row_major ? a.n : a.m;
  const int64_t lines = a.row_major ? a.m : a.n;
  const int64_t ld = a.slab_ld > 0 ? a.slab_ld : line;
  const int64_t x_step = int64_t{gridDim.x} * blockDim.x * V;
  const int64_t y_step = int64_t{gridDim.y} * blockDim.y;
  for (int64_t outer = blockIdx.y * int64_t{blockDim.y} + threadIdx.y; outer < lines; outer += y_step) {
    for (int64_t inner = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) * V; inner < line; inner += x_step) {
      const float* p = a.partials + outer * ld + inner;
      float sum[V];
      L::set(sum, *reinterpret_cast<const typename L::T*>(p));
      int z = 1;
      for (; z + kBatch <= a.splits; z += kBatch) {
        typename L::T w[kBatch];
#pragma unroll
        for (int j = 0; j < kBatch; ++j) w[j] = *reinterpret_cast<const typename L::T*>(p + (z + j) * total);
#pragma unroll
        for (int j = 0; j < kBatch; ++j) L::add(sum, w[j]);
      }
      for (; z < a.splits; ++z) L::add(sum, *reinterpret_cast<const typename L::T*>(p + z * total));
#pragma unroll
      for (int e = 0; e < V; ++e) {
        if (inner + e >= line) break;  // a padded line's last group
        const int64_t r = a.row_major ? outer : inner + e;
        const int64_t c = a.row_major ? inner + e : outer;
        float v = __fmul_rn(a.alpha, sum[e]);
        if (a.beta != 0.0f)
          v = dev::alpha_acc_beta_c(a.alpha, sum[e], a.beta,
                                    load_epilogue(a.c, r * a.c_row_stride + c * a.c_col_stride, a.c_dtype));
        store_epilogue(a.d, r * a.d_row_stride + c * a.d_col_stride, a.d_dtype, v);
      }
    }
  }
}

template <int V>
cudaError_t launch(const SplitKReduceArgs& args, cudaStream_t stream) {
  const int64_t line = args.row_major ? args.n : args.m;
  const int64_t lines = args.row_major ? args.m : args.n;
  const int64_t groups = (line + V - 1) / V;
  // A warp-multiple of threads across the line (up to the block), the rest of the block on lines.
  const int tx = static_cast<int>(std::min<int64_t>(kThreads, (groups + 31) / 32 * 32));
  const int ty = kThreads / tx;
  const int64_t gx = (groups + tx - 1) / tx;
  // Enough blocks to fill the GPU many times over; the strided loops cover the rest.
  const int64_t gy = std::min<int64_t>({(lines + ty - 1) / ty, 65535, std::max<int64_t>(1, 132 * 16 / gx)});
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(std::min<int64_t>(gx, 65535)), static_cast<unsigned>(gy), 1);
  cfg.blockDim = dim3(static_cast<unsigned>(tx), static_cast<unsigned>(ty), 1);
  cfg.stream = stream;
  cudaLaunchAttribute attr = pdl_attribute();
  cfg.attrs = &attr;
  cfg.numAttrs = device_has_pdl() ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, splitk_reduce_kernel<V>, args);
}

}  // namespace

bool splitk_reduce_dtype(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

Status splitk_reduce(const SplitKReduceArgs& args, cudaStream_t stream) {
  if (args.partials == nullptr || args.d == nullptr || args.splits < 1 || args.m < 1 || args.n < 1 ||
      (args.beta != 0.0f && args.c == nullptr))
    return Status::invalid("split-K reduce: null partials/D (or C with beta != 0), or an empty shape");
  if (!splitk_reduce_dtype(args.d_dtype) || (args.beta != 0.0f && !splitk_reduce_dtype(args.c_dtype)))
    return Status::unsupported("split-K reduce: C and D must be f32, f16 or bf16");
  // Vector width: every slab line must start on a V-float boundary (ld % V == 0 keeps all slab
  // offsets z*stride + outer*ld aligned when the workspace and the stride are).
  const int64_t line = args.row_major ? args.n : args.m;
  const int64_t lines = args.row_major ? args.m : args.n;
  const int64_t ld = args.slab_ld > 0 ? args.slab_ld : line;
  if (ld < line) return Status::invalid("split-K reduce: slab lines overlap (slab_ld < the line's length)");
  const int64_t stride = args.slab_stride > 0 ? args.slab_stride : args.m * args.n;
  if (stride < lines * ld) return Status::invalid("split-K reduce: slabs overlap (slab_stride < lines * slab_ld)");
  const auto base = reinterpret_cast<uintptr_t>(args.partials);
  cudaError_t err;
  if (ld % 4 == 0 && stride % 4 == 0 && base % 16 == 0)
    err = launch<4>(args, stream);
  else if (ld % 2 == 0 && stride % 2 == 0 && base % 8 == 0)
    err = launch<2>(args, stream);
  else
    err = launch<1>(args, stream);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("split-K reduce launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace tcgemm
