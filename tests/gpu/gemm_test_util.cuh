// Shared by the GPU GEMM tests (ladder and sm90): device buffers sized from a GemmDesc, random
// never-zero inputs, NaN poisoning, and comparison against the device reference with a tolerance
// chosen by dtype.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/problem.hpp"

namespace tcgemm::test {

// Owns one cudaMalloc'd allocation; move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();
  void* get() const { return p_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Uniform magnitudes in [1/16, 1] with random signs: never zero (so Inf*0 never hides an Inf),
// representable without underflow in every 16-bit format. Deterministic in `seed`.
void fill_random(void* p, int64_t elements, DType t, uint64_t seed);
// Every element set to v (NaN to poison an output so unwritten elements fail the comparison).
void fill_value(void* p, int64_t elements, DType t, float v);
// One element at index i set to v.
void set_element(void* p, int64_t i, DType t, float v);

// A, B, C, D allocated for the desc (C only when beta != 0), A/B/C random, D poisoned with NaN.
struct GemmBuffers {
  DeviceBuffer a, b, c, d;
  explicit GemmBuffers(const GemmDesc& g, uint64_t seed = 1);
  const void* c_or_null() const { return c.get(); }
};

struct Tolerance {
  double rel_norm;  // ||D - ref|| / ||ref||
  double eps;       // elementwise |d - r| <= eps * (|d| + |r|) + floor
  double floor;
};
// By input dtype (bf16 1e-2, f16 5e-3, tf32 2e-3, f32 1e-5 in norm), loosened for the rounding
// of a 16-bit D. Inputs are the same rounded values in kernel and reference, so the elementwise
// check mostly sees accumulation order and output rounding.
Tolerance tolerance_for(const GemmDesc& g);

struct Comparison {
  bool ok = false;
  double rel_norm = 0;
  std::string message;  // the first mismatches, with coordinates, when !ok
};
// Runs reference_gemm_device (FP32 accumulate) on A, B, C and compares D with it. Any NaN or
// Inf in D that the reference does not have fails.
Comparison compare_with_reference(const GemmDesc& g, const void* A, const void* B, const void* C,
                                  const void* D, const Tolerance& tol);

// D as float, row-major M x N, copied to the host.
std::vector<float> download_d(const GemmDesc& g, const void* D);

}  // namespace tcgemm::test
