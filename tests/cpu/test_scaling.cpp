#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "tcgemm/fp8.hpp"
#include "tcgemm/scaling.hpp"

using namespace tcgemm;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> random_matrix(int64_t rows, int64_t cols, unsigned seed, float lo = -3.f, float hi = 3.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (auto& x : v) x = d(rng);
  return v;
}
}  // namespace

TEST(Scaling, AmaxIsNaNAware) {
  EXPECT_EQ(amax(std::vector<float>{}), 0.f);
  EXPECT_EQ(amax(std::vector<float>{1.f, -7.5f, 3.f}), 7.5f);
  EXPECT_EQ(amax(std::vector<float>{1.f, -kInf}), kInf);
  EXPECT_TRUE(std::isnan(amax(std::vector<float>{1.f, kNaN, 100.f})));
  EXPECT_TRUE(std::isnan(amax(std::vector<float>{kNaN, kInf})));
}

TEST(Scaling, PerTensorScale) {
  EXPECT_EQ(compute_scale(2.f, 448.f, 0, 1.f), 224.f);
  EXPECT_EQ(compute_scale(2.f, 448.f, 2, 1.f), 56.f);
  EXPECT_EQ(compute_scale(0.5f, 57344.f, 1, 1.f), 57344.f);
  // A scale is never derived from an amax that says nothing.
  EXPECT_EQ(compute_scale(0.f, 448.f, 0, 3.f), 3.f);
  EXPECT_EQ(compute_scale(kInf, 448.f, 0, 3.f), 3.f);
  EXPECT_EQ(compute_scale(kNaN, 448.f, 0, 3.f), 3.f);
  EXPECT_EQ(compute_scale(-1.f, 448.f, 0, 3.f), 3.f);
  EXPECT_EQ(compute_scale(std::numeric_limits<float>::denorm_min(), 448.f, 0, 3.f),
            std::numeric_limits<float>::max());
  // Quantizing with the scale puts the amax element on the format's max.
  const std::vector<float> x{0.25f, -2.f, 1.f};
  const auto q = quantize_per_tensor(x, compute_scale(amax(x), 448.f, 0, 1.f), DType::e4m3);
  EXPECT_EQ(q[1], 0xFE);
  EXPECT_EQ(fp8::decode_e4m3(q[0]), 56.f);
  EXPECT_EQ(fp8_max(DType::e5m2), 57344.f);
  EXPECT_EQ(fp8_max(DType::bf16), 0.f);
}

TEST(Scaling, DelayedScalingMaxHoldsTheWindowPeak) {
  auto r = DelayedScaling::create(DType::e4m3, 0, 3, AmaxAlgo::max);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  DelayedScaling ds = *r;
  EXPECT_EQ(ds.scale(), 1.f);
  ds.update(0.f);  // nothing seen yet: the scale stays
  EXPECT_EQ(ds.scale(), 1.f);
  ds.update(4.f);
  EXPECT_EQ(ds.scale(), 112.f);
  EXPECT_EQ(ds.scale_inv(), 1.f / 112.f);
  ds.update(1.f);
  EXPECT_EQ(ds.scale(), 112.f);  // 4 is still in the window [0, 4, 1]
  ds.update(2.f);
  EXPECT_EQ(ds.scale(), 112.f);  // window [4, 1, 2]
  ds.update(2.f);
  EXPECT_EQ(ds.scale(), 224.f);  // 4 rolled out: [1, 2, 2]
  EXPECT_EQ(ds.history(), (std::vector<float>{1.f, 2.f, 2.f}));
  EXPECT_EQ(ds.history_amax(), 2.f);
  ds.update(kNaN);  // poisons the window's max: the scale is kept until it rolls out
  EXPECT_EQ(ds.scale(), 224.f);
  ds.update(8.f);
  ds.update(8.f);
  EXPECT_EQ(ds.scale(), 224.f);
  ds.update(8.f);
  EXPECT_EQ(ds.scale(), 56.f);
}

TEST(Scaling, DelayedScalingMostRecentAndMargin) {
  auto r = DelayedScaling::create(DType::e5m2, 1, 16, AmaxAlgo::most_recent);
  ASSERT_TRUE(r.ok());
  DelayedScaling ds = *r;
  ds.update(100.f);
  ds.update(7.f);
  EXPECT_EQ(ds.history_amax(), 7.f);
  EXPECT_EQ(ds.scale(), 57344.f / 2.f / 7.f);
  ds.update(kInf);  // kept
  EXPECT_EQ(ds.scale(), 57344.f / 2.f / 7.f);
  ds.update(0.f);   // kept
  EXPECT_EQ(ds.scale(), 57344.f / 2.f / 7.f);
  ds.update(28672.f);
  EXPECT_EQ(ds.scale(), 1.f);
}

TEST(Scaling, DelayedScalingRejectsBadConfig) {
  EXPECT_EQ(DelayedScaling::create(DType::bf16).status().code(), StatusCode::invalid_argument);
  EXPECT_FALSE(DelayedScaling::create(DType::e4m3, -1).ok());
  EXPECT_FALSE(DelayedScaling::create(DType::e4m3, 0, 0).ok());
}

TEST(Scaling, Block1x128RoundTrip) {
  // 3 x 300: partial last column group (300 = 2*128 + 44). Row 1 is scaled up so its scale differs.
  const int64_t rows = 3, cols = 300;
  auto x = random_matrix(rows, cols, 1);
  for (int64_t c = 0; c < cols; ++c) x[static_cast<std::size_t>(cols + c)] *= 1000.f;
  x[5] = 0.f;
  auto r = quantize_blockwise(x, rows, cols, kBlock1x128, DType::e4m3);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  const BlockScaledTensor& t = *r;
  ASSERT_EQ(t.scale_rows(), 3);
  ASSERT_EQ(t.scale_cols(), 3);
  ASSERT_EQ(t.scales.size(), 9u);
  for (int64_t br = 0; br < 3; ++br)
    for (int64_t bc = 0; bc < 3; ++bc) {
      float a = 0;
      for (int64_t c = bc * 128; c < std::min<int64_t>(cols, bc * 128 + 128); ++c)
        a = std::max(a, std::fabs(x[static_cast<std::size_t>(br * cols + c)]));
      EXPECT_EQ(t.scales[static_cast<std::size_t>(br * 3 + bc)], a / 448.f);
    }
  const auto back = dequantize(t);
  ASSERT_TRUE(back.ok());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float s = t.scale_at(static_cast<int64_t>(i) / cols, static_cast<int64_t>(i) % cols);
    // E4M3 keeps 3 mantissa bits: relative error <= 2^-4 for normals, absolute <= 2^-10 * s below.
    EXPECT_LE(std::fabs((*back)[i] - x[i]), std::max(std::fabs(x[i]) * 0x1p-4f, s * 0x1p-10f) * 1.0001f) << i;
  }
  EXPECT_EQ((*back)[5], 0.f);
}

TEST(Scaling, Block128x128SharesOneScalePerTile) {
  const int64_t rows = 130, cols = 129;
  auto x = random_matrix(rows, cols, 2);
  x[static_cast<std::size_t>(129 * cols + 128)] = 50.f;  // the lone bottom-right element's block
  auto r = quantize_blockwise(x, rows, cols, kBlock128x128, DType::e5m2);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->scales.size(), 4u);
  EXPECT_EQ(r->scales[3], 50.f / 57344.f);
  EXPECT_EQ(r->codes.back(), 0x7B);  // the block max lands on E5M2's max
  const auto back = dequantize(*r);
  ASSERT_TRUE(back.ok());
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_LE(std::fabs((*back)[i] - x[i]), std::fabs(x[i]) * 0x1p-3f + 3.f / 57344.f * 0x1p-17f) << i;
}

TEST(Scaling, BlockScalingNonFiniteAndBadInput) {
  std::vector<float> x(256, 1.f);
  x[200] = kInf;
  auto r = quantize_blockwise(x, 1, 256, kBlock1x128, DType::e4m3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scales[0], 1.f / 448.f);
  EXPECT_TRUE(std::isnan(r->scales[1]));
  auto back = dequantize(*r);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ((*back)[0], 1.f);
  EXPECT_TRUE(std::isnan((*back)[129]));  // NaN never silently disappears

  EXPECT_EQ(quantize_blockwise(x, 2, 256, kBlock1x128).status().code(), StatusCode::invalid_argument);
  EXPECT_FALSE(quantize_blockwise(x, 0, 256, kBlock1x128).ok());
  EXPECT_FALSE(quantize_blockwise(x, 1, 256, BlockShape{0, 128}).ok());
  EXPECT_FALSE(quantize_blockwise(x, 1, 256, kBlock1x128, DType::f16).ok());
  EXPECT_FALSE(quantize_mx(x, 16, 17).ok());
  BlockScaledTensor broken = *r;
  broken.scales.pop_back();
  EXPECT_FALSE(dequantize(broken).ok());
}

TEST(Scaling, MxSharedExponent) {
  EXPECT_EQ(mx_shared_exponent(1.f, DType::e4m3), -8);
  EXPECT_EQ(mx_shared_exponent(448.f, DType::e4m3), 0);      // floor(log2 448) = 8
  EXPECT_EQ(mx_shared_exponent(511.f, DType::e4m3), 0);
  EXPECT_EQ(mx_shared_exponent(512.f, DType::e4m3), 1);
  EXPECT_EQ(mx_shared_exponent(57344.f, DType::e5m2), 0);    // floor(log2 57344) = 15
  EXPECT_EQ(mx_shared_exponent(0.75f, DType::e5m2), -16);
  EXPECT_EQ(mx_shared_exponent(0x1p-140f, DType::e4m3), -127);  // subnormal amax, clamped
  EXPECT_EQ(mx_shared_exponent(0.f, DType::e4m3), -127);
  EXPECT_EQ(mx_shared_exponent(std::numeric_limits<float>::max(), DType::e4m3), 119);
  EXPECT_EQ(decode_e8m0(127), 1.f);
  EXPECT_EQ(decode_e8m0(0), 0x1p-127f);
  EXPECT_EQ(decode_e8m0(254), 0x1p127f);
  EXPECT_TRUE(std::isnan(decode_e8m0(255)));
}

TEST(Scaling, MxQuantizeRoundTrip) {
  const int64_t rows = 2, cols = 70;  // 3 blocks per row, the last partial (6 elements)
  auto x = random_matrix(rows, cols, 3, -1.f, 1.f);
  x[0] = 500.f;   // block (0,0): amax 500 -> e = 0, and 500 saturates to 448
  x[40] = kNaN;   // block (0,1) -> code 255
  for (int64_t c = 64; c < 70; ++c) x[static_cast<std::size_t>(c)] = 0.f;  // block (0,2) all zero
  auto r = quantize_mx(x, rows, cols, DType::e4m3);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  const BlockScaledTensor& t = *r;
  EXPECT_EQ(t.scale_format, ScaleFormat::e8m0);
  ASSERT_EQ(t.scale_codes.size(), 6u);
  EXPECT_EQ(t.scale_codes[0], 127);
  EXPECT_EQ(t.codes[0], 0x7E);
  EXPECT_EQ(t.scale_codes[1], 255);
  EXPECT_EQ(t.scale_codes[2], 0);
  for (std::size_t b = 3; b < 6; ++b) {
    float a = 0;
    for (int64_t c = static_cast<int64_t>(b - 3) * 32; c < std::min<int64_t>(cols, static_cast<int64_t>(b - 3) * 32 + 32); ++c)
      a = std::max(a, std::fabs(x[static_cast<std::size_t>(cols + c)]));
    EXPECT_EQ(t.scale_codes[b], std::ilogb(a) - 8 + 127) << b;
    EXPECT_EQ(t.scales[b], std::ldexp(1.f, std::ilogb(a) - 8));
  }
  const auto back = dequantize(t);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ((*back)[0], 448.f);
  EXPECT_TRUE(std::isnan((*back)[33]));
  EXPECT_EQ((*back)[65], 0.f);
  for (int64_t c = 0; c < cols; ++c) {
    const auto i = static_cast<std::size_t>(cols + c);
    const float s = t.scale_at(1, c);
    // OCP's exponent choice lets x / s reach just under 512, past E4M3's 448: the top of each
    // block clamps to 448 * s (up to 12.5% error), everything else rounds normally.
    const float clamped = std::min(std::fabs(x[i]), 448.f * s);
    EXPECT_EQ(std::fabs((*back)[i]) == 448.f * s, std::fabs(x[i]) >= 432.f * s) << c;  // 432: the tie below 448 rounds to it (even)
    EXPECT_LE(std::fabs(std::fabs((*back)[i]) - clamped), std::max(clamped * 0x1p-4f, s * 0x1p-10f)) << c;
  }
}
