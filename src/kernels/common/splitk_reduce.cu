// Split-K reduce: one thread per V consecutive elements of the slabs' flat order; it sums the slabs
// z = 0, 1, ..., splits-1 in that order (fixed, so bitwise deterministic), then applies alpha, beta*C
// and D's dtype. The slabs were just written by the GEMM pass, so they are read mostly from L2.
#include "kernels/common/splitk_reduce.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>

#include "kernels/common/epilogue.cuh"

namespace tcgemm {
namespace {

using dev::load_epilogue;
using dev::store_epilogue;

// V = 4: slabs read as float4 (needs M*N % 4 == 0 and a 16-byte aligned workspace); V = 1 otherwise.
// The adds stay in slab order (no reassociation without fast-math), unrolled only for loads in flight.
template <int V>
__global__ void __launch_bounds__(256) splitk_reduce_kernel(const SplitKReduceArgs a) {
  const int64_t total = a.m * a.n;
  const int64_t line = a.row_major ? a.n : a.m;
  const int64_t groups = total / V;
  for (int64_t g = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; g < groups; g += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i0 = g * V;
    float sum[V];
    if constexpr (V == 4) {
      const float4 v = __ldcg(reinterpret_cast<const float4*>(a.partials + i0));
      sum[0] = v.x; sum[1] = v.y; sum[2] = v.z; sum[3] = v.w;
#pragma unroll 8
      for (int z = 1; z < a.splits; ++z) {
        const float4 w = __ldcg(reinterpret_cast<const float4*>(a.partials + z * total + i0));
        sum[0] += w.x; sum[1] += w.y; sum[2] += w.z; sum[3] += w.w;
      }
    } else {
      sum[0] = __ldcg(a.partials + i0);
#pragma unroll 8
      for (int z = 1; z < a.splits; ++z) sum[0] += __ldcg(a.partials + z * total + i0);
    }
#pragma unroll
    for (int e = 0; e < V; ++e) {
      const int64_t i = i0 + e;
      const int64_t outer = i / line, inner = i - outer * line;
      const int64_t r = a.row_major ? outer : inner;
      const int64_t c = a.row_major ? inner : outer;
      float v = a.alpha * sum[e];
      if (a.beta != 0.0f) v += a.beta * load_epilogue(a.c, r * a.c_row_stride + c * a.c_col_stride, a.c_dtype);
      store_epilogue(a.d, r * a.d_row_stride + c * a.d_col_stride, a.d_dtype, v);
    }
  }
}

bool epilogue_dtype(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

}  // namespace

Status splitk_reduce(const SplitKReduceArgs& args, cudaStream_t stream) {
  if (args.partials == nullptr || args.d == nullptr || args.splits < 1 || args.m < 1 || args.n < 1 ||
      (args.beta != 0.0f && args.c == nullptr))
    return Status::invalid("split-K reduce: null partials/D (or C with beta != 0), or an empty shape");
  if (!epilogue_dtype(args.d_dtype) || (args.beta != 0.0f && !epilogue_dtype(args.c_dtype)))
    return Status::unsupported("split-K reduce: C and D must be f32, f16 or bf16");
  const int64_t total = args.m * args.n;
  // float4 only when there are enough elements to keep every SM busy with it: split-K's problems
  // are small in M*N, and there one thread per element gives 4x the loads in flight.
  const bool vec = total % 4 == 0 && reinterpret_cast<uintptr_t>(args.partials) % 16 == 0 &&
                   total / 4 >= int64_t{132} * 2048;
  const int64_t groups = vec ? total / 4 : total;
  constexpr int kThreads = 256;
  // Enough blocks to fill the GPU several times over; the grid-stride loop covers the rest.
  const int64_t blocks = std::min<int64_t>((groups + kThreads - 1) / kThreads, 132 * 16);
  if (vec)
    splitk_reduce_kernel<4><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(args);
  else
    splitk_reduce_kernel<1><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(args);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("split-K reduce launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace tcgemm
