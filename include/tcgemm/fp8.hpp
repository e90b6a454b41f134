// FP8 E4M3 and E5M2 (the OCP 8-bit formats Hopper's Tensor Cores read), bit-exact with CUDA's
// conversions so that data quantized on the host and on the device agree byte for byte.
//
// E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits. No infinities; S.1111.111 is NaN, so the
//       largest finite value is 1.75 * 2^8 = 448. Smallest subnormal 2^-9.
// E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-like: exponent 31 is Inf (mantissa 0)
//       or NaN. Largest finite 1.75 * 2^15 = 57344. Smallest subnormal 2^-16.
//
// Encoding rounds to nearest, ties to even, with exact subnormals. Special cases follow
// __nv_cvt_float_to_fp8 (cuda_fp8.hpp) for float input:
//   NaN of either sign      -> 0x7F in both formats (the sign is dropped: CUDA first replaces any
//                              NaN with the canonical 0x7FFFFFFF)
//   saturate (== __NV_SATFINITE == PTX cvt.rn.satfinite): |x| past the rounding threshold,
//                              and +-Inf, -> +-max finite (0x7E/0xFE, 0x7B/0xFB)
//   !saturate (== __NV_NOSAT): E4M3 overflow -> 0x7F|sign (NaN), E5M2 overflow -> +-Inf
//   Results that round to zero keep the sign (-tiny -> 0x80).
// The overflow thresholds are max + ulp/2 of the format: 464 for E4M3 (a tie, which rounds to
// even 448, so only values above 464 overflow) and 61440 for E5M2 (a tie that rounds to even,
// i.e. away from 57344's odd mantissa, so 61440 itself overflows).
#pragma once

#include <cstdint>

#include "tcgemm/hd.hpp"

namespace tcgemm::fp8 {

inline constexpr float kE4M3Max = 448.f;
inline constexpr float kE5M2Max = 57344.f;

namespace detail {

// |x| (as float bits, finite, below the overflow threshold) to the unsigned FP8 code with kMant
// mantissa bits and exponent bias kBias.
template <int kMant, int kBias>
TCGEMM_HD inline uint8_t encode_finite(uint32_t abs_bits) {
  constexpr int kEmin = 1 - kBias;
  // Below half the smallest subnormal (2^(kEmin-kMant-1)) everything rounds to zero, and the
  // shift below would pass 24 bits.
  constexpr uint32_t kHalfMinSub = static_cast<uint32_t>(127 + kEmin - kMant - 1) << 23;
  if (abs_bits <= kHalfMinSub) return 0;
  const int e = static_cast<int>(abs_bits >> 23) - 127;  // float is normal here
  const uint32_t sig = (abs_bits & 0x7FFFFFu) | 0x800000u;
  // Subnormal targets lose (kEmin - e) more bits than normal ones.
  const int shift = 23 - kMant + (e < kEmin ? kEmin - e : 0);
  uint32_t q = sig >> shift;
  const uint32_t rem = sig & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  if (e < kEmin) return static_cast<uint8_t>(q);  // a carry into 1<<kMant is the min normal code
  // q holds the implicit bit; a rounding carry to 2<<kMant bumps the exponent field by itself.
  return static_cast<uint8_t>((static_cast<uint32_t>(e + kBias) << kMant) + q - (1u << kMant));
}

}  // namespace detail

TCGEMM_HD inline uint8_t encode_e4m3(float x, bool saturate = true) {
  const uint32_t bits = tcgemm::detail::float_bits(x);
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  const uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80u);
  if (abs_bits > 0x7F800000u) return 0x7F;
  if (abs_bits > 0x43E80000u)  // 464.0f
    return static_cast<uint8_t>(sign | (saturate ? 0x7Eu : 0x7Fu));
  return static_cast<uint8_t>(sign | detail::encode_finite<3, 7>(abs_bits));
}

TCGEMM_HD inline uint8_t encode_e5m2(float x, bool saturate = true) {
  const uint32_t bits = tcgemm::detail::float_bits(x);
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  const uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80u);
  if (abs_bits > 0x7F800000u) return 0x7F;
  if (abs_bits >= 0x47700000u)  // 61440.0f
    return static_cast<uint8_t>(sign | (saturate ? 0x7Bu : 0x7Cu));
  return static_cast<uint8_t>(sign | detail::encode_finite<2, 15>(abs_bits));
}

// Decoding is exact (every FP8 value is a float). NaN codes decode to a positive quiet NaN, as
// CUDA's conversion through f16 returns its canonical NaN regardless of sign.
TCGEMM_HD inline float decode_e4m3(uint8_t c) {
  const uint32_t sign = static_cast<uint32_t>(c & 0x80u) << 24;
  const uint32_t exp = (c >> 3) & 0xFu, man = c & 0x7u;
  if (exp == 0xF && man == 0x7) return tcgemm::detail::bits_float(0x7FFFFFFFu);
  if (exp == 0) {
    // man * 2^-9, built as a float whose exponent is exact: at most 7 * 2^-9.
    const float v = static_cast<float>(man) * 0.001953125f;
    return tcgemm::detail::bits_float(tcgemm::detail::float_bits(v) | sign);
  }
  return tcgemm::detail::bits_float(sign | ((exp - 7 + 127) << 23) | (man << 20));
}

TCGEMM_HD inline float decode_e5m2(uint8_t c) {
  const uint32_t sign = static_cast<uint32_t>(c & 0x80u) << 24;
  const uint32_t exp = (c >> 2) & 0x1Fu, man = c & 0x3u;
  if (exp == 0x1F)
    return man == 0 ? tcgemm::detail::bits_float(sign | 0x7F800000u)
                    : tcgemm::detail::bits_float(0x7FFFFFFFu);
  if (exp == 0) {
    const float v = static_cast<float>(man) * 1.52587890625e-05f;  // 2^-16
    return tcgemm::detail::bits_float(tcgemm::detail::float_bits(v) | sign);
  }
  return tcgemm::detail::bits_float(sign | ((exp - 15 + 127) << 23) | (man << 21));
}

TCGEMM_HD inline bool is_nan_e4m3(uint8_t c) { return (c & 0x7Fu) == 0x7Fu; }
TCGEMM_HD inline bool is_nan_e5m2(uint8_t c) { return (c & 0x7Fu) > 0x7Cu; }

}  // namespace tcgemm::fp8
