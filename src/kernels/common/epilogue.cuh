// What every ladder kernel shares around its main loop: the flat parameter block it is launched
// with (built once on the host from GemmArgs), and the epilogue D = alpha*acc + beta*C written one
// element at a time with C/D dtype and layout chosen at run time.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "kernels/common/element.cuh"
#include "runtime/registry.hpp"

namespace tcgemm {

struct EpilogueParams {
  int64_t m, n;
  const void* c;
  void* d;
  DType tc, td;
  Layout lc, ld_layout;
  int64_t ldc, ldd;
  float alpha, beta;
};

// Everything a ladder kernel reads; passed by value so it lives in the constant bank.
struct LadderParams {
  int64_t m, n, k;
  const void* a;
  const void* b;
  Layout la, lb;
  int64_t lda, ldb;
  EpilogueParams ep;
};

inline LadderParams make_ladder_params(const GemmArgs& args) {
  const GemmDesc& g = args.desc;
  LadderParams p{};
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.a = args.a;
  p.b = args.b;
  p.la = g.a.layout;
  p.lb = g.b.layout;
  p.lda = effective_ld(g.a, extent_a(g));
  p.ldb = effective_ld(g.b, extent_b(g));
  p.ep = EpilogueParams{g.m, g.n, args.c, args.d, g.c.dtype, g.d.dtype, g.c.layout, g.d.layout,
                        effective_ld(g.c, extent_c(g)), effective_ld(g.d, extent_c(g)), g.alpha,
                        g.beta};
  return p;
}

inline Status launch_status(const char* kernel) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return Status::success();
  return Status(StatusCode::cuda_error, std::string(kernel) + ": " + cudaGetErrorString(e));
}

// The dtypes every ladder epilogue writes; checked by each kernel's supports().
inline Status check_epilogue_dtypes(const GemmDesc& g) {
  auto ok = [](DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; };
  if (!ok(g.d.dtype))
    return Status::unsupported("D dtype " + std::string(to_string(g.d.dtype)) +
                               " is not one of f32, f16, bf16");
  if (g.beta != 0.0f && !ok(g.c.dtype))
    return Status::unsupported("C dtype " + std::string(to_string(g.c.dtype)) +
                               " is not one of f32, f16, bf16");
  return Status::success();
}

namespace dev {

// Only the three epilogue dtypes, so the per-element switch stays small next to the generic
// element.cuh one (the epilogue is inlined up to 64 times per thread).
__device__ __forceinline__ float load_epilogue(const void* p, int64_t i, DType t) {
  if (t == DType::f16) return __half2float(static_cast<const __half*>(p)[i]);
  if (t == DType::bf16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  return static_cast<const float*>(p)[i];
}

__device__ __forceinline__ void store_epilogue(void* p, int64_t i, DType t, float v) {
  if (t == DType::f16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if (t == DType::bf16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}

// alpha * acc + beta * c with its roundings spelled out (one product, then one fused multiply-add),
// so two kernels that must agree bit for bit (split-K's reduce and its fold into the split pass,
// slab_fold.cuh) cannot differ by where the compiler contracts.
__device__ __forceinline__ float alpha_acc_beta_c(float alpha, float acc, float beta, float c) {
  return __fmaf_rn(beta, c, __fmul_rn(alpha, acc));
}

// BLAS convention: with beta == 0, C is not read, so NaN in C (or a null C) does not leak into D.
__device__ __forceinline__ void epilogue_store(const EpilogueParams& p, int64_t row, int64_t col,
                                               float acc) {
  if (row >= p.m || col >= p.n) return;
  float v = p.alpha * acc;
  if (p.beta != 0.0f) v += p.beta * load_epilogue(p.c, offset(p.lc, row, col, p.ldc), p.tc);
  store_epilogue(p.d, offset(p.ld_layout, row, col, p.ldd), p.td, v);
}

}  // namespace dev
}  // namespace tcgemm
