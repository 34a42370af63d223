// IEEE 754 binary16 <-> binary32 conversions in scalar code, with the rounding of CUDA's
// __float2half_rn (round to nearest, ties to even; overflow to infinity; subnormals kept).
// Used where a SIMD target has no conversion instruction (Highway 1.0.3 truncates there).
#pragma once

#include <hwy/base.h>

#include <cstdint>
#include <cstring>

namespace flowtune {

/// The binary16 bit pattern nearest to f (IEEE 754-2008 sec. 4.3.1 roundTiesToEven, as
/// __float2half_rn and x86 VCVTPS2PH / Arm FCVT with the default rounding mode): |f| >= 65520
/// gives infinity, NaN a quiet NaN, magnitudes below 2^-14 a subnormal (or zero).
inline std::uint16_t binary16_bits_rne(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t abs_bits = x & 0x7fffffffu;
  if (abs_bits >= 0x7f800000u)  // infinity or NaN
    return static_cast<std::uint16_t>(sign | (abs_bits > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (abs_bits >= 0x477ff000u)  // 65520 and above round to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (abs_bits < 0x38800000u) {  // below 2^-14: subnormal binary16, in units of 2^-24
    float a;
    std::memcpy(&a, &abs_bits, sizeof a);
    // a * 2^24 < 1024 is exact; adding 2^23 rounds it to an integer with ties to even.
    const float scaled = (a * 16777216.0f + 8388608.0f) - 8388608.0f;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(scaled));
  }
  // Normal: round the 23-bit mantissa to 10 bits (ties to even; a carry moves into the
  // exponent, which is right), then rebias the exponent from 127 to 15.
  const std::uint32_t rounded = abs_bits + 0xfffu + ((abs_bits >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - (112u << 23)) >> 13));
}

/// The binary32 value of a binary16 bit pattern (exact: every binary16 is a binary32).
inline float binary16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24
    const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);
    std::memcpy(&bits, &magnitude, sizeof bits);
    bits |= sign;
  } else if (exponent == 31) {  // infinity or NaN
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// The bit pattern of a hwy::float16_t (a struct of uint16_t on x86, __fp16 on aarch64).
inline std::uint16_t bits_of(hwy::float16_t h) {
  std::uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

/// The hwy::float16_t of a bit pattern.
inline hwy::float16_t binary16_of_bits(std::uint16_t bits) {
  hwy::float16_t h;
  std::memcpy(&h, &bits, sizeof h);
  return h;
}

}  // namespace flowtune
