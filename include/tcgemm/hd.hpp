// Marks functions that compile for host and device. Host-only translation units (tcgemm_core is
// built without nvcc) see it as nothing, so the numerics headers never pull in CUDA headers.
#pragma once

#if defined(__CUDACC__)
#define TCGEMM_HD __host__ __device__
#else
#define TCGEMM_HD
#endif

#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

namespace tcgemm::detail {

TCGEMM_HD inline uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  return std::bit_cast<uint32_t>(x);
#endif
}

TCGEMM_HD inline float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  return std::bit_cast<float>(u);
#endif
}

}  // namespace tcgemm::detail
