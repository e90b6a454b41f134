// float <-> bf16 / fp16 bit conversions and TF32 rounding, host and device, without CUDA headers
// (the host-only core library and the CPU reference use them). Rounding is to nearest even,
// matching cvt.rn.{bf16,f16}.f32 for every finite input.
#pragma once

#include <cstdint>

#include "tcgemm/hd.hpp"

namespace tcgemm {

// NaN keeps its sign and top payload bits and is made quiet, so it can never become Inf by
// truncation. (The hardware cvt returns a canonical NaN instead; only NaN-ness is promised.)
TCGEMM_HD inline uint16_t float_to_bf16_bits(float x) {
  const uint32_t u = detail::float_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

TCGEMM_HD inline float bf16_bits_to_float(uint16_t h) {
  return detail::bits_float(static_cast<uint32_t>(h) << 16);
}

TCGEMM_HD inline uint16_t float_to_f16_bits(float x) {
  const uint32_t u = detail::float_bits(x);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u | ((a >> 13) & 0x3FFu));
  // 65520 = 65504 + ulp/2 is a tie whose even neighbour is 2^16, i.e. Inf.
  if (a >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);
  // Below 2^-25 (half the smallest subnormal, a tie to even zero) everything is zero.
  if (a <= 0x33000000u) return sign;
  const int e = static_cast<int>(a >> 23) - 127;
  const uint32_t sig = (a & 0x7FFFFFu) | 0x800000u;
  const int shift = 13 + (e < -14 ? -14 - e : 0);
  uint32_t q = sig >> shift;
  const uint32_t rem = sig & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  if (e < -14) return static_cast<uint16_t>(sign | q);
  return static_cast<uint16_t>(sign | (((static_cast<uint32_t>(e + 15) << 10) + q - 0x400u)));
}

TCGEMM_HD inline float f16_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
  if (exp == 0x1F) return detail::bits_float(sign | 0x7F800000u | (man << 13));
  if (exp == 0) {
    const float v = static_cast<float>(man) * 5.9604644775390625e-08f;  // man * 2^-24, exact
    return detail::bits_float(detail::float_bits(v) | sign);
  }
  return detail::bits_float(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

// TF32 keeps float's 8 exponent bits and the top 10 of its 23 mantissa bits. Three roundings
// meet in practice:
//  - round_to_tf32: nearest, ties to even. cvt.rn.tf32.f32 (PTX 7.8, sm_90) and the reference's
//    default: the most accurate model of "the inputs were TF32".
//  - round_to_tf32_rna: nearest, ties away from zero. cvt.rna.tf32.f32, the only rounding sm_80
//    offers, and what CUTLASS's float -> tfloat32 converter emits by default; the mma.sync
//    kernels use it when they convert in registers.
//  - truncate_to_tf32: the model for raw f32 bits handed to a tf32 MMA unconverted (wgmma
//    reading f32 tiles straight from shared memory), on the understanding that the Tensor Core
//    ignores the low 13 bits. Not yet confirmed bit for bit on an H200.
// They differ only on the 13 dropped bits, so the choice moves results by at most 2^-11 relative
// per input: enough to matter for bit-exact checks, not for tolerance-based verification.
TCGEMM_HD inline float round_to_tf32(float x) {
  const uint32_t u = detail::float_bits(x);
  if ((u & 0x7F800000u) == 0x7F800000u) return x;  // Inf and NaN pass through
  return detail::bits_float((u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u);
}

TCGEMM_HD inline float round_to_tf32_rna(float x) {
  const uint32_t u = detail::float_bits(x);
  if ((u & 0x7F800000u) == 0x7F800000u) return x;
  return detail::bits_float((u + 0x1000u) & 0xFFFFE000u);
}

TCGEMM_HD inline float truncate_to_tf32(float x) {
  const uint32_t u = detail::float_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return x;  // keep NaN a NaN even if its payload is low
  return detail::bits_float(u & 0xFFFFE000u);
}

}  // namespace tcgemm
