#include "runtime/device_reference.hpp"

#include "kernels/common/element.cuh"

namespace tcgemm {
namespace {

struct RefParams {
  int64_t m, n, k;
  const void *a, *b, *c;
  DType ta, tb, tc;
  Layout la, lb, lc;
  int64_t lda, ldb, ldc;
  float alpha, beta;
  float* out;
};

template <class Acc>
__global__ void reference_kernel(RefParams p) {
  const int64_t col = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  const int64_t row = blockIdx.y * int64_t{blockDim.y} + threadIdx.y;
  if (row >= p.m || col >= p.n) return;
  Acc acc = 0;
  for (int64_t kk = 0; kk < p.k; ++kk) {
    const Acc x = static_cast<Acc>(dev::load_as_double(p.a, dev::offset(p.la, row, kk, p.lda), p.ta));
    const Acc y = static_cast<Acc>(dev::load_as_double(p.b, dev::offset(p.lb, kk, col, p.ldb), p.tb));
    acc += x * y;
  }
  Acc v = static_cast<Acc>(p.alpha) * acc;
  if (p.beta != 0.0f)
    v += static_cast<Acc>(p.beta) *
         static_cast<Acc>(dev::load_as_double(p.c, dev::offset(p.lc, row, col, p.ldc), p.tc));
  p.out[row * p.n + col] = static_cast<float>(v);
}

__global__ void to_float_kernel(int64_t m, int64_t n, const void* d, DType t, Layout l, int64_t ld,
                                float* out) {
  const int64_t col = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  const int64_t row = blockIdx.y * int64_t{blockDim.y} + threadIdx.y;
  if (row >= m || col >= n) return;
  out[row * n + col] = static_cast<float>(dev::load_as_double(d, dev::offset(l, row, col, ld), t));
}

dim3 grid_for(int64_t m, int64_t n, dim3 block) {
  return dim3(static_cast<unsigned>((n + block.x - 1) / block.x),
              static_cast<unsigned>((m + block.y - 1) / block.y));
}

Status launch_status(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return Status::success();
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

Status reference_gemm_device(const GemmDesc& g, const void* A, const void* B, const void* C,
                             float* out, bool fp64_accumulate, cudaStream_t stream) {
  if (Status s = validate(g); !s.ok()) return s;
  if (!A || !B || !out || (g.beta != 0.0f && !C))
    return Status::invalid("reference_gemm_device: null pointer (C may be null only when beta == 0)");
  if ((g.m + 15) / 16 > 65535)
    return Status::unsupported("reference_gemm_device: m beyond 1,048,560 rows");
  const RefParams p{g.m, g.n, g.k, A, B, C,
                    g.a.dtype, g.b.dtype, g.c.dtype, g.a.layout, g.b.layout, g.c.layout,
                    effective_ld(g.a, extent_a(g)), effective_ld(g.b, extent_b(g)),
                    effective_ld(g.c, extent_c(g)), g.alpha, g.beta, out};
  const dim3 block(16, 16);
  if (fp64_accumulate)
    reference_kernel<double><<<grid_for(g.m, g.n, block), block, 0, stream>>>(p);
  else
    reference_kernel<float><<<grid_for(g.m, g.n, block), block, 0, stream>>>(p);
  return launch_status("reference_gemm_device");
}

Status convert_to_float_device(const GemmDesc& g, const void* D, float* out, cudaStream_t stream) {
  if (Status s = validate(g); !s.ok()) return s;
  if (!D || !out) return Status::invalid("convert_to_float_device: null pointer");
  const dim3 block(16, 16);
  to_float_kernel<<<grid_for(g.m, g.n, block), block, 0, stream>>>(
      g.m, g.n, D, g.d.dtype, g.d.layout, effective_ld(g.d, extent_c(g)), out);
  return launch_status("convert_to_float_device");
}

}  // namespace tcgemm
