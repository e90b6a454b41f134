// Shared by the GPU tests: skip with a clear reason when no GPU is present.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace tcgemm::test {

// 0 when no usable CUDA device; otherwise the compute capability x10 of device 0.
inline int gpu_sm() {
  static const int sm = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) { (void)cudaGetLastError(); return 0; }
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 0;
    return p.major * 10 + p.minor;
  }();
  return sm;
}

}  // namespace tcgemm::test

// Skips the test (ctest shows it as skipped) when there is no GPU, or one older than min_sm.
#define TCGEMM_REQUIRE_GPU(min_sm)                                                            \
  do {                                                                                        \
    const int sm_ = ::tcgemm::test::gpu_sm();                                                 \
    if (sm_ == 0) GTEST_SKIP() << "no CUDA GPU present: GPU test skipped";                    \
    if (sm_ < (min_sm)) GTEST_SKIP() << "needs sm_" << (min_sm) << ", device is sm_" << sm_;  \
  } while (0)
