// Host FP8 conversions (tcgemm/fp8.hpp) against the hardware's. Host and device must quantize
// identically: scales and codes computed on the host are consumed by FP8 kernels, and the
// verification reference decodes what the device encoded.
//
// NOTES: FP8 cvt only exists with .satfinite (PTX: cvt.rn.satfinite.{e4m3,e5m2}x2.f32, sm_89+),
// so only saturate=true can be checked against silicon. saturate=false is checked against
// __nv_cvt_float_to_fp8(__NV_NOSAT) run on the device, which is CUDA's software path.
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "tcgemm/fp8.hpp"
#include "tcgemm/half.hpp"

namespace {

// Per input, in order: hardware e4m3 (sat), hardware e5m2 (sat), CUDA e4m3 nosat, CUDA e5m2
// nosat, and tcgemm's own encoders run on the device: e4m3 sat, e5m2 sat, e4m3 nosat, e5m2 nosat.
constexpr int kOutPerInput = 8;

__global__ void encode_kernel(const float* in, uint8_t* out, int64_t n, int* has_hw) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  if (i == 0) *has_hw = 1;
#else
  if (i == 0) *has_hw = 0;
#endif
  if (i >= n) return;
  const float x = in[i];
  uint8_t* o = out + i * kOutPerInput;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  // The pair packs (hi, lo) = (first source, second source); x goes in the low byte.
  uint16_t p4, p5;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(p4) : "f"(0.0f), "f"(x));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(p5) : "f"(0.0f), "f"(x));
  o[0] = static_cast<uint8_t>(p4 & 0xFF);
  o[1] = static_cast<uint8_t>(p5 & 0xFF);
#else
  o[0] = o[1] = 0;
#endif
  o[2] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
  o[3] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
  o[4] = tcgemm::fp8::encode_e4m3(x, true);
  o[5] = tcgemm::fp8::encode_e5m2(x, true);
  o[6] = tcgemm::fp8::encode_e4m3(x, false);
  o[7] = tcgemm::fp8::encode_e5m2(x, false);
}

// All 256 codes of both formats through the hardware fp8 -> f16 conversion.
__global__ void decode_kernel(uint16_t* e4m3, uint16_t* e5m2, float* ours4, float* ours5) {
  const int c = threadIdx.x;
  e4m3[c] = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(c), __NV_E4M3).x;
  e5m2[c] = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(c), __NV_E5M2).x;
  ours4[c] = tcgemm::fp8::decode_e4m3(static_cast<uint8_t>(c));
  ours5[c] = tcgemm::fp8::decode_e5m2(static_cast<uint8_t>(c));
}

float from_bits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
uint32_t to_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// Random bit patterns (every exponent, NaNs, Infs, subnormals), values spread log-uniformly over
// and past both formats' ranges, and every midpoint between neighbouring codes +-1 float ulp.
std::vector<float> make_inputs() {
  std::mt19937_64 rng(20261129);
  std::vector<float> v;
  v.reserve(9'000'000);
  for (int i = 0; i < 4'000'000; ++i) v.push_back(from_bits(static_cast<uint32_t>(rng())));
  std::uniform_int_distribution<int> exp(-20 + 127, 17 + 127);
  for (int i = 0; i < 4'000'000; ++i) {
    const uint32_t bits = static_cast<uint32_t>(rng());
    v.push_back(from_bits((bits & 0x807FFFFFu) | (static_cast<uint32_t>(exp(rng)) << 23)));
  }
  for (int fmt = 0; fmt < 2; ++fmt)
    for (int c = 0; c < 127; ++c) {
      const auto dec = [&](int code) {
        return fmt == 0 ? tcgemm::fp8::decode_e4m3(static_cast<uint8_t>(code))
                        : tcgemm::fp8::decode_e5m2(static_cast<uint8_t>(code));
      };
      const float lo = dec(c), hi = dec(c + 1);
      if (std::isnan(hi) || std::isinf(hi)) break;
      const float mid = lo + (hi - lo) / 2;  // exact: both are short-mantissa floats
      for (float x : {mid, std::nextafter(mid, 0.f), std::nextafter(mid, 1e30f)}) {
        v.push_back(x);
        v.push_back(-x);
      }
    }
  for (float x : {0.f, -0.f, 448.f, 464.f, 480.f, 57344.f, 61440.f, 65536.f, INFINITY, -INFINITY, 1e38f,
                  std::nextafter(464.f, 1e30f), std::nextafter(61440.f, 0.f), 0x1p-10f, 0x1p-17f})
    for (float s : {1.f, -1.f}) v.push_back(s * x);
  for (uint32_t nan : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu, 0xFFFFFFFFu})
    v.push_back(from_bits(nan));
  return v;
}

#define CUDA_OK(expr) ASSERT_EQ((expr), cudaSuccess) << #expr << ": " << cudaGetErrorString(cudaGetLastError())

}  // namespace

TEST(Fp8Cvt, HostEncodeMatchesHardware) {
  TCGEMM_REQUIRE_GPU(89);
  const std::vector<float> in = make_inputs();
  const auto n = static_cast<int64_t>(in.size());
  float* d_in = nullptr;
  uint8_t* d_out = nullptr;
  int* d_hw = nullptr;
  CUDA_OK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_out, in.size() * kOutPerInput));
  CUDA_OK(cudaMalloc(&d_hw, sizeof(int)));
  CUDA_OK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  encode_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(d_in, d_out, n, d_hw);
  CUDA_OK(cudaGetLastError());
  std::vector<uint8_t> out(in.size() * kOutPerInput);
  int has_hw = 0;
  CUDA_OK(cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&has_hw, d_hw, sizeof(int), cudaMemcpyDeviceToHost));
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_hw);
  if (!has_hw) GTEST_SKIP() << "this binary has no sm_89+ code for the device; hardware FP8 cvt not run";

  const char* names[kOutPerInput] = {"hw e4m3 satfinite", "hw e5m2 satfinite", "cuda e4m3 nosat",
                                     "cuda e5m2 nosat",   "device tcgemm e4m3 sat", "device tcgemm e5m2 sat",
                                     "device tcgemm e4m3 nosat", "device tcgemm e5m2 nosat"};
  int64_t mismatches[kOutPerInput] = {};
  std::ostringstream first;
  for (int64_t i = 0; i < n; ++i) {
    const float x = in[static_cast<std::size_t>(i)];
    const uint8_t host[kOutPerInput] = {
        tcgemm::fp8::encode_e4m3(x, true),  tcgemm::fp8::encode_e5m2(x, true),
        tcgemm::fp8::encode_e4m3(x, false), tcgemm::fp8::encode_e5m2(x, false),
        tcgemm::fp8::encode_e4m3(x, true),  tcgemm::fp8::encode_e5m2(x, true),
        tcgemm::fp8::encode_e4m3(x, false), tcgemm::fp8::encode_e5m2(x, false)};
    for (int k = 0; k < kOutPerInput; ++k) {
      const uint8_t dev = out[static_cast<std::size_t>(i * kOutPerInput + k)];
      if (dev != host[k] && mismatches[k]++ < 8)
        first << names[k] << ": x=" << std::hexfloat << x << " (bits 0x" << std::hex << to_bits(x)
              << ") device 0x" << int(dev) << " host 0x" << int(host[k]) << std::dec << std::defaultfloat << "\n";
    }
  }
  for (int k = 0; k < kOutPerInput; ++k)
    EXPECT_EQ(mismatches[k], 0) << names[k] << " over " << n << " inputs";
  if (!first.str().empty()) ADD_FAILURE() << "first mismatches:\n" << first.str();
}

TEST(Fp8Cvt, HostDecodeMatchesHardware) {
  TCGEMM_REQUIRE_GPU(89);
  uint16_t *d4 = nullptr, *d5 = nullptr;
  float *o4 = nullptr, *o5 = nullptr;
  CUDA_OK(cudaMalloc(&d4, 256 * sizeof(uint16_t)));
  CUDA_OK(cudaMalloc(&d5, 256 * sizeof(uint16_t)));
  CUDA_OK(cudaMalloc(&o4, 256 * sizeof(float)));
  CUDA_OK(cudaMalloc(&o5, 256 * sizeof(float)));
  decode_kernel<<<1, 256>>>(d4, d5, o4, o5);
  CUDA_OK(cudaGetLastError());
  std::vector<uint16_t> h4(256), h5(256);
  std::vector<float> dev4(256), dev5(256);
  CUDA_OK(cudaMemcpy(h4.data(), d4, 256 * sizeof(uint16_t), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(h5.data(), d5, 256 * sizeof(uint16_t), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(dev4.data(), o4, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(dev5.data(), o5, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(d4); cudaFree(d5); cudaFree(o4); cudaFree(o5);
  // Every FP8 value is exact in f16, so the hardware's f16 must equal our float bit for bit,
  // except NaN, where only NaN-ness is promised (the f16 bits are reported on failure).
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    const float hw4 = tcgemm::f16_bits_to_float(h4[c]), hw5 = tcgemm::f16_bits_to_float(h5[c]);
    const float ours4 = tcgemm::fp8::decode_e4m3(code), ours5 = tcgemm::fp8::decode_e5m2(code);
    if (std::isnan(ours4)) EXPECT_TRUE(std::isnan(hw4)) << "e4m3 code " << c << " hw f16 0x" << std::hex << h4[c];
    else EXPECT_EQ(to_bits(hw4), to_bits(ours4)) << "e4m3 code " << c << " hw f16 0x" << std::hex << h4[c];
    if (std::isnan(ours5)) EXPECT_TRUE(std::isnan(hw5)) << "e5m2 code " << c << " hw f16 0x" << std::hex << h5[c];
    else EXPECT_EQ(to_bits(hw5), to_bits(ours5)) << "e5m2 code " << c << " hw f16 0x" << std::hex << h5[c];
    // The device build of our decoder agrees with the host build, NaN payload included.
    EXPECT_EQ(to_bits(dev4[c]), to_bits(ours4)) << "device decode_e4m3 code " << c;
    EXPECT_EQ(to_bits(dev5[c]), to_bits(ours5)) << "device decode_e5m2 code " << c;
  }
}
