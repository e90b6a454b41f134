// Loading and storing one element of any supported dtype, by run-time dtype. For reference and
// epilogue paths where one switch per element is cheap next to the memory access.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm::dev {

__device__ __forceinline__ float round_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return __uint_as_float(r);
}

__device__ __forceinline__ double load_as_double(const void* p, int64_t i, DType t) {
  switch (t) {
    case DType::f64: return static_cast<const double*>(p)[i];
    case DType::f32: return static_cast<const float*>(p)[i];
    case DType::tf32: return round_tf32(static_cast<const float*>(p)[i]);
    case DType::f16: return __half2float(static_cast<const __half*>(p)[i]);
    case DType::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case DType::e4m3: {
      __nv_fp8_e4m3 v; v.__x = static_cast<const uint8_t*>(p)[i]; return static_cast<float>(v);
    }
    case DType::e5m2: {
      __nv_fp8_e5m2 v; v.__x = static_cast<const uint8_t*>(p)[i]; return static_cast<float>(v);
    }
    case DType::s8: return static_cast<const int8_t*>(p)[i];
    case DType::s32: return static_cast<const int32_t*>(p)[i];
  }
  return 0.0;
}

__device__ __forceinline__ void store_from_float(void* p, int64_t i, DType t, float v) {
  switch (t) {
    case DType::f64: static_cast<double*>(p)[i] = v; break;
    case DType::f32: case DType::tf32: static_cast<float*>(p)[i] = v; break;
    case DType::f16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case DType::bf16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    case DType::e4m3: static_cast<uint8_t*>(p)[i] = __nv_fp8_e4m3(v).__x; break;
    case DType::e5m2: static_cast<uint8_t*>(p)[i] = __nv_fp8_e5m2(v).__x; break;
    case DType::s8: static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v); break;
    case DType::s32: static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v); break;
  }
}

// Element (r, c) of a matrix stored in `layout` with leading dimension ld.
__device__ __forceinline__ int64_t offset(Layout layout, int64_t r, int64_t c, int64_t ld) {
  return layout == Layout::row ? r * ld + c : c * ld + r;
}

}  // namespace tcgemm::dev
