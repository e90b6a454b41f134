#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "tcgemm/fp8.hpp"

using namespace tcgemm::fp8;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }
}  // namespace

TEST(Fp8, E4M3EveryCodeRoundTrips) {
  int nans = 0;
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    const float v = decode_e4m3(code);
    if (is_nan_e4m3(code)) {
      ++nans;
      EXPECT_TRUE(std::isnan(v)) << c;
      EXPECT_EQ(encode_e4m3(v), 0x7F) << c;
      EXPECT_EQ(encode_e4m3(v, false), 0x7F) << c;
      continue;
    }
    EXPECT_FALSE(std::isinf(v)) << c;
    EXPECT_EQ(encode_e4m3(v, true), code) << c << " decodes to " << v;
    EXPECT_EQ(encode_e4m3(v, false), code) << c << " decodes to " << v;
  }
  EXPECT_EQ(nans, 2);  // only S.1111.111
}

TEST(Fp8, E5M2EveryCodeRoundTrips) {
  int nans = 0, infs = 0;
  for (int c = 0; c < 256; ++c) {
    const auto code = static_cast<uint8_t>(c);
    const float v = decode_e5m2(code);
    if (is_nan_e5m2(code)) {
      ++nans;
      EXPECT_TRUE(std::isnan(v)) << c;
      EXPECT_EQ(encode_e5m2(v), 0x7F) << c;
      continue;
    }
    if (std::isinf(v)) {
      ++infs;
      EXPECT_EQ(encode_e5m2(v, false), code) << c;  // Inf survives only without saturation
      EXPECT_EQ(encode_e5m2(v, true), (code & 0x80) | 0x7B) << c;
      continue;
    }
    EXPECT_EQ(encode_e5m2(v, true), code) << c << " decodes to " << v;
    EXPECT_EQ(encode_e5m2(v, false), code) << c << " decodes to " << v;
  }
  EXPECT_EQ(nans, 6);
  EXPECT_EQ(infs, 2);
}

TEST(Fp8, DecodesKnownValues) {
  EXPECT_EQ(decode_e4m3(0x7E), 448.f);
  EXPECT_EQ(decode_e4m3(0xFE), -448.f);
  EXPECT_EQ(decode_e4m3(0x38), 1.f);        // exponent field 7 = bias
  EXPECT_EQ(decode_e4m3(0x01), 0x1p-9f);    // smallest subnormal
  EXPECT_EQ(decode_e4m3(0x07), 7 * 0x1p-9f);
  EXPECT_EQ(decode_e4m3(0x08), 0x1p-6f);    // smallest normal
  EXPECT_EQ(decode_e5m2(0x7B), 57344.f);
  EXPECT_EQ(decode_e5m2(0x3C), 1.f);
  EXPECT_EQ(decode_e5m2(0x01), 0x1p-16f);
  EXPECT_EQ(decode_e5m2(0x04), 0x1p-14f);
  EXPECT_EQ(decode_e5m2(0x7C), kInf);
  EXPECT_EQ(decode_e5m2(0xFC), -kInf);
  EXPECT_EQ(bits(decode_e4m3(0x80)), 0x80000000u);  // -0 keeps its sign
  EXPECT_EQ(bits(decode_e5m2(0x80)), 0x80000000u);
  EXPECT_EQ(kE4M3Max, decode_e4m3(0x7E));
  EXPECT_EQ(kE5M2Max, decode_e5m2(0x7B));
}

TEST(Fp8, TiesRoundToEven) {
  // E4M3 around 1: ulp 1/8. 1 + 1/16 is halfway between 0x38 (even) and 0x39.
  EXPECT_EQ(encode_e4m3(1.0625f), 0x38);
  EXPECT_EQ(encode_e4m3(std::nextafter(1.0625f, 2.f)), 0x39);
  // 1.125 + 1/16 is halfway between 0x39 (odd) and 0x3A (even).
  EXPECT_EQ(encode_e4m3(1.1875f), 0x3A);
  EXPECT_EQ(encode_e4m3(std::nextafter(1.1875f, 0.f)), 0x39);
  // A tie that carries into the exponent: 1.9375 is halfway between 1.875 (0x3F) and 2 (0x40).
  EXPECT_EQ(encode_e4m3(1.9375f), 0x40);
  EXPECT_EQ(encode_e4m3(-1.9375f), 0xC0);
  // E5M2 around 1: ulp 1/4.
  EXPECT_EQ(encode_e5m2(1.125f), 0x3C);
  EXPECT_EQ(encode_e5m2(1.375f), 0x3E);
  EXPECT_EQ(encode_e5m2(std::nextafter(1.125f, 2.f)), 0x3D);
  // Subnormal ties: 1.5 * 2^-9 sits between codes 1 and 2 (even), 2.5 * 2^-9 between 2 and 3.
  EXPECT_EQ(encode_e4m3(1.5f * 0x1p-9f), 0x02);
  EXPECT_EQ(encode_e4m3(2.5f * 0x1p-9f), 0x02);
  EXPECT_EQ(encode_e5m2(2.5f * 0x1p-16f), 0x02);
  // The largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(encode_e4m3(7.5f * 0x1p-9f), 0x08);
  EXPECT_EQ(encode_e5m2(3.5f * 0x1p-16f), 0x04);
}

TEST(Fp8, SubnormalBoundaries) {
  // Half the smallest subnormal is a tie between 0 (even) and the smallest subnormal.
  EXPECT_EQ(encode_e4m3(0x1p-10f), 0x00);
  EXPECT_EQ(encode_e4m3(std::nextafter(0x1p-10f, 1.f)), 0x01);
  EXPECT_EQ(encode_e4m3(0x1p-9f), 0x01);
  EXPECT_EQ(encode_e4m3(-0x1p-10f), 0x80);  // rounds to -0
  EXPECT_EQ(encode_e4m3(-std::nextafter(0x1p-10f, 1.f)), 0x81);
  EXPECT_EQ(encode_e5m2(0x1p-17f), 0x00);
  EXPECT_EQ(encode_e5m2(std::nextafter(0x1p-17f, 1.f)), 0x01);
  EXPECT_EQ(encode_e5m2(0x1p-16f), 0x01);
  EXPECT_EQ(encode_e5m2(-0x1p-17f), 0x80);
  // Float subnormals are far below either format.
  EXPECT_EQ(encode_e4m3(std::numeric_limits<float>::denorm_min()), 0x00);
  EXPECT_EQ(encode_e5m2(-std::numeric_limits<float>::denorm_min()), 0x80);
}

TEST(Fp8, E4M3OverflowThreshold) {
  // 464 = 448 + ulp/2 is a tie; the even neighbour is 448 (the odd one would be the NaN code).
  EXPECT_EQ(encode_e4m3(464.f, true), 0x7E);
  EXPECT_EQ(encode_e4m3(464.f, false), 0x7E);
  EXPECT_EQ(encode_e4m3(-464.f, false), 0xFE);
  const float above = std::nextafter(464.f, kInf);
  EXPECT_EQ(encode_e4m3(above, true), 0x7E);
  EXPECT_EQ(encode_e4m3(above, false), 0x7F);
  EXPECT_EQ(encode_e4m3(-above, true), 0xFE);
  EXPECT_EQ(encode_e4m3(-above, false), 0xFF);
  EXPECT_EQ(encode_e4m3(1e30f, true), 0x7E);
  EXPECT_EQ(encode_e4m3(450.f, false), 0x7E);
}

TEST(Fp8, E5M2OverflowThreshold) {
  // 61440 = 57344 + ulp/2 is a tie whose even neighbour is 65536: it overflows.
  EXPECT_EQ(encode_e5m2(61440.f, true), 0x7B);
  EXPECT_EQ(encode_e5m2(61440.f, false), 0x7C);
  EXPECT_EQ(encode_e5m2(-61440.f, false), 0xFC);
  const float below = std::nextafter(61440.f, 0.f);
  EXPECT_EQ(encode_e5m2(below, false), 0x7B);
  EXPECT_EQ(encode_e5m2(-below, false), 0xFB);
  EXPECT_EQ(encode_e5m2(1e30f, true), 0x7B);
  EXPECT_EQ(encode_e5m2(-1e30f, false), 0xFC);
}

TEST(Fp8, SpecialValues) {
  EXPECT_EQ(encode_e4m3(0.f), 0x00);
  EXPECT_EQ(encode_e4m3(-0.f), 0x80);
  EXPECT_EQ(encode_e5m2(0.f), 0x00);
  EXPECT_EQ(encode_e5m2(-0.f), 0x80);
  EXPECT_EQ(encode_e4m3(kInf, true), 0x7E);
  EXPECT_EQ(encode_e4m3(-kInf, true), 0xFE);
  EXPECT_EQ(encode_e4m3(kInf, false), 0x7F);
  EXPECT_EQ(encode_e4m3(-kInf, false), 0xFF);
  EXPECT_EQ(encode_e5m2(kInf, true), 0x7B);
  EXPECT_EQ(encode_e5m2(-kInf, true), 0xFB);
  EXPECT_EQ(encode_e5m2(kInf, false), 0x7C);
  EXPECT_EQ(encode_e5m2(-kInf, false), 0xFC);
  // NaN of either sign, quiet or signalling, becomes the positive canonical code.
  for (uint32_t nan_bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u, 0x7FFFFFFFu}) {
    const float n = std::bit_cast<float>(nan_bits);
    for (bool sat : {true, false}) {
      EXPECT_EQ(encode_e4m3(n, sat), 0x7F) << std::hex << nan_bits;
      EXPECT_EQ(encode_e5m2(n, sat), 0x7F) << std::hex << nan_bits;
    }
  }
  EXPECT_TRUE(std::isnan(decode_e4m3(encode_e4m3(kNaN))));
  EXPECT_TRUE(std::isnan(decode_e5m2(encode_e5m2(kNaN))));
}

// Every float between codes must round to one of its two neighbours, the nearer one.
TEST(Fp8, EncodeIsNearestOnADenseSweep) {
  for (float x = 0x1p-12f; x < 440.f; x *= 1.0009f) {
    for (float v : {x, -x}) {
      const float q4 = decode_e4m3(encode_e4m3(v));
      const float q5 = decode_e5m2(encode_e5m2(v));
      // The nearest code is never further than half the local spacing.
      const float ulp4 = std::max(0x1p-9f, std::ldexp(1.f, std::ilogb(v) - 3));
      const float ulp5 = std::max(0x1p-16f, std::ldexp(1.f, std::ilogb(v) - 2));
      ASSERT_LE(std::fabs(q4 - v), ulp4 / 2) << v;
      ASSERT_LE(std::fabs(q5 - v), ulp5 / 2) << v;
      ASSERT_EQ(std::signbit(q4), std::signbit(v));
    }
  }
}
