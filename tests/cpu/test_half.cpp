#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "tcgemm/half.hpp"

using namespace tcgemm;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }
}  // namespace

TEST(Half, F16KnownValues) {
  EXPECT_EQ(float_to_f16_bits(1.f), 0x3C00);
  EXPECT_EQ(float_to_f16_bits(-2.f), 0xC000);
  EXPECT_EQ(float_to_f16_bits(65504.f), 0x7BFF);
  EXPECT_EQ(float_to_f16_bits(0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_f16_bits(0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_f16_bits(-0.f), 0x8000);
  EXPECT_EQ(float_to_f16_bits(kInf), 0x7C00);
  EXPECT_EQ(float_to_f16_bits(-kInf), 0xFC00);
  EXPECT_EQ(f16_bits_to_float(0x3555), 0x1.554p-2f);
  EXPECT_EQ(f16_bits_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(f16_bits_to_float(0x7C00), kInf);
}

TEST(Half, F16RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 (even) and 1 + 2^-10.
  EXPECT_EQ(float_to_f16_bits(1.f + 0x1p-11f), 0x3C00);
  EXPECT_EQ(float_to_f16_bits(1.f + 3 * 0x1p-11f), 0x3C02);
  EXPECT_EQ(float_to_f16_bits(std::nextafter(1.f + 0x1p-11f, 2.f)), 0x3C01);
  // Overflow: 65520 is the tie above 65504 and goes to Inf; just below stays finite.
  EXPECT_EQ(float_to_f16_bits(65520.f), 0x7C00);
  EXPECT_EQ(float_to_f16_bits(std::nextafter(65520.f, 0.f)), 0x7BFF);
  // Subnormal ties: 2^-25 is halfway to the smallest subnormal; 1.5 * 2^-24 goes to 2 * 2^-24.
  EXPECT_EQ(float_to_f16_bits(0x1p-25f), 0x0000);
  EXPECT_EQ(float_to_f16_bits(std::nextafter(0x1p-25f, 1.f)), 0x0001);
  EXPECT_EQ(float_to_f16_bits(1.5f * 0x1p-24f), 0x0002);
  EXPECT_EQ(float_to_f16_bits(-2.5f * 0x1p-24f), 0x8002);
  // The largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(float_to_f16_bits(0x1p-14f - 0x1p-26f), 0x0400);
}

TEST(Half, F16EveryCodeRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = f16_bits_to_float(static_cast<uint16_t>(h));
    if ((h & 0x7FFF) > 0x7C00) {
      EXPECT_TRUE(std::isnan(f)) << h;
      EXPECT_GT(float_to_f16_bits(f) & 0x7FFF, 0x7C00) << h;  // NaN stays NaN
    } else {
      ASSERT_EQ(float_to_f16_bits(f), h) << h;
    }
  }
}

TEST(Half, Bf16RoundsToNearestEvenAndKeepsNaN) {
  EXPECT_EQ(float_to_bf16_bits(1.f), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(std::bit_cast<float>(0x3F808000u)), 0x3F80);  // tie to even
  EXPECT_EQ(float_to_bf16_bits(std::bit_cast<float>(0x3F818000u)), 0x3F82);  // tie to even (up)
  EXPECT_EQ(float_to_bf16_bits(std::bit_cast<float>(0x3F808001u)), 0x3F81);
  EXPECT_EQ(float_to_bf16_bits(std::numeric_limits<float>::max()), 0x7F80);  // rounds to Inf
  EXPECT_EQ(float_to_bf16_bits(-kInf), 0xFF80);
  // A NaN whose payload sits only in the dropped bits must not turn into Inf.
  const uint16_t n = float_to_bf16_bits(std::bit_cast<float>(0x7F800001u));
  EXPECT_TRUE(std::isnan(bf16_bits_to_float(n)));
  EXPECT_EQ(float_to_bf16_bits(std::bit_cast<float>(0xFFC00000u)) & 0x8000, 0x8000);  // sign kept
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7FFF) > 0x7F80) continue;
    ASSERT_EQ(float_to_bf16_bits(bf16_bits_to_float(static_cast<uint16_t>(h))), h) << h;
  }
}

TEST(Half, Tf32Roundings) {
  // 1 + 2^-11 is a tie at TF32's 10 mantissa bits: even goes down, away goes up.
  const float tie = 1.f + 0x1p-11f;
  EXPECT_EQ(round_to_tf32(tie), 1.f);
  EXPECT_EQ(round_to_tf32_rna(tie), 1.f + 0x1p-10f);
  EXPECT_EQ(truncate_to_tf32(tie), 1.f);
  const float odd_tie = 1.f + 0x1p-10f + 0x1p-11f;
  EXPECT_EQ(round_to_tf32(odd_tie), 1.f + 0x1p-9f);
  EXPECT_EQ(round_to_tf32_rna(odd_tie), 1.f + 0x1p-9f);
  EXPECT_EQ(truncate_to_tf32(odd_tie), 1.f + 0x1p-10f);
  const float above = std::nextafter(tie, 2.f);
  EXPECT_EQ(round_to_tf32(above), 1.f + 0x1p-10f);
  EXPECT_EQ(round_to_tf32(-above), -(1.f + 0x1p-10f));
  EXPECT_EQ(round_to_tf32_rna(-tie), -(1.f + 0x1p-10f));
  EXPECT_EQ(bits(round_to_tf32(0.3f)) & 0x1FFFu, 0u);
  EXPECT_EQ(round_to_tf32(kInf), kInf);
  EXPECT_EQ(round_to_tf32(std::numeric_limits<float>::max()), kInf);  // past TF32's max
  EXPECT_TRUE(std::isnan(round_to_tf32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(truncate_to_tf32(std::bit_cast<float>(0x7F800001u))));
}
