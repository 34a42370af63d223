// A host emulator of the GPU's f16 TV-L1 iterations, the oracle of precision f16 of
// simd_fused (tests/variants/test_simd_f16.cpp): kernels/cuda/tvl1_math.cuh's update_u and
// update_p with MathF16 transcribed operation by operation, each operation computed exactly
// (integers in units of 2^-48: every binary16 is an integer multiple of 2^-24 below 2^16, a
// product of two an integer multiple of 2^-48 below 2^32) and rounded once to binary16 with
// ties to even; division and square root in double, then rounded (53 >= 2 x 11 + 2 bits:
// double rounding is innocuous). Written independently of kernels/simd (no shared code).
// Deviation from the GPU, stated: hrcp / h2sqrt round rcp.approx / sqrt.approx.f32 results,
// this rounds the exact ones (one binary16 ulp apart where the exact value lies within
// ~2^-23 relative of a rounding boundary).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace flowtune {
namespace gpu_f16_emu {

__extension__ typedef __int128 Int;
__extension__ typedef unsigned __int128 UInt;

/// The binary16 value (as float) of magnitude m x 2^-48 with sign `negative`, rounded to
/// nearest, ties to even; infinity from 65520 on (IEEE 754 overflow under roundTiesToEven).
inline float round_units(UInt m, bool negative) {
  if (m == 0) return negative ? -0.f : 0.f;
  int msb = 127;
  while (!((m >> msb) & 1)) --msb;
  const int e = msb - 48;                  // floor(log2 |value|)
  const int k = (e < -14 ? -14 : e) + 38;  // quantum 2^(max(e, -14) - 10) in units 2^-48
  UInt r = m >> k;
  const UInt rem = m & (((UInt)1 << k) - 1), half = (UInt)1 << (k - 1);
  if (rem > half || (rem == half && (r & 1))) ++r;
  const double v = std::ldexp(double(r), k - 48);
  const float out = v > 65504.0 ? std::numeric_limits<float>::infinity() : float(v);
  return negative ? -out : out;
}
inline float round_units(Int s) {
  return s < 0 ? round_units((UInt)(-s), true) : round_units((UInt)s, false);
}

/// x (a binary16 value) in units of 2^-24 (exact: |x| < 2^16, x a multiple of 2^-24).
inline Int units24(float x) {
  return Int(std::llround(double(x) * 16777216.0));
}

/// A double rounded to the nearest binary16 (ties to even), as float.
inline float round_double(double x) {
  if (x == 0 || !std::isfinite(x)) return float(x);
  if (std::fabs(x) >= 65520.0)
    return x > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  const int e = std::ilogb(x);
  const double q = std::ldexp(1.0, (e < -14 ? -14 : e) - 10);
  return float(std::nearbyint(x / q) * q);  // x / q exact (power of two), nearbyint: ties even
}

// The operations of MathF16 (cuda_fp16: __hadd, __hsub, __hmul, __hfma: one rounding each).
inline float add(float a, float b) {
  return round_units((units24(a) + units24(b)) << 24);
}
inline float sub(float a, float b) {
  return round_units((units24(a) - units24(b)) << 24);
}
inline float mul(float a, float b) {
  return round_units(units24(a) * units24(b));
}
inline float fma(float a, float b, float c) {
  return round_units(units24(a) * units24(b) + (units24(c) << 24));
}
inline float rcp(float a) {
  return round_double(1.0 / double(a));
}
inline float sqrt(float a) {
  return round_double(std::sqrt(double(a)));
}
inline float h(float x) {  // __float2half_rn of a float parameter
  return round_double(double(x));
}

/// update_u<MathF16> at one pixel (tvl1_math.cuh, same order of operations); returns
/// (u1, u2) new. p11l / p21l: p at (x-1, y), p12u / p22u at (x, y-1), 0 outside the image.
inline void update_u(float gx, float gy, float rho_c, float& u1, float& u2, float p11, float p12,
                     float p21, float p22, float p11l, float p21l, float p12u, float p22u,
                     float lambda_theta, float theta_f) {
  const float lt = h(lambda_theta), theta = h(theta_f), gz = h(6.1035156e-05f);
  const float rho = add(add(rho_c, mul(gx, u1)), mul(gy, u2));  // gu = g * u; lo, then hi
  const float grad2 = add(mul(gx, gx), mul(gy, gy));
  const float ltg = mul(lt, grad2);
  float fi = std::fmin(std::fmax(mul(-rho, rcp(std::fmax(grad2, gz))), -lt), lt);
  if (grad2 < gz && !(ltg < std::fabs(rho))) fi = 0.f;  // zero_where_flat
  const float v1 = fma(fi, gx, u1), v2 = fma(fi, gy, u2);
  const float div1 = add(sub(p11, p11l), sub(p12, p12u));
  const float div2 = add(sub(p21, p21l), sub(p22, p22u));
  u1 = fma(theta, div1, v1);
  u2 = fma(theta, div2, v2);
}

/// update_p<MathF16> at one pixel: ur = u at (x+1, y), ud = u at (x, y+1) (u itself on the
/// last column / row).
inline void update_p(float u1, float u2, float u1r, float u2r, float u1d, float u2d, float& p11,
                     float& p12, float& p21, float& p22, float tau_theta) {
  const float taut = h(tau_theta), one = 1.f;
  const float u1x = sub(u1r, u1), u2x = sub(u2r, u2), u1y = sub(u1d, u1), u2y = sub(u2d, u2);
  const float n1 = sqrt(fma(u1x, u1x, mul(u1y, u1y))), n2 = sqrt(fma(u2x, u2x, mul(u2y, u2y)));
  const float inv1 = rcp(fma(taut, n1, one)), inv2 = rcp(fma(taut, n2, one));
  p11 = mul(fma(taut, u1x, p11), inv1);
  p12 = mul(fma(taut, u1y, p12), inv1);
  p21 = mul(fma(taut, u2x, p21), inv2);
  p22 = mul(fma(taut, u2y, p22), inv2);
}

/// The fields (binary16 values as float), row-major width x height.
struct Fields {
  int width = 0, height = 0;
  std::vector<float> grad_x, grad_y, rho_c, u1, u2, p11, p12, p21, p22;
};

/// `iterations` iterations as the GPU's plain schedule runs them: "update u" on every pixel,
/// then "update p" on every pixel (the order every fused / pipelined scheme reproduces).
inline void iterate(Fields& f, double lambda, double theta, double tau, int iterations) {
  const float lt = float(lambda * theta), th = float(theta), taut = float(tau / theta);
  const int w = f.width, hgt = f.height;
  for (int k = 0; k < iterations; ++k) {
    for (int y = 0; y < hgt; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        update_u(f.grad_x[i], f.grad_y[i], f.rho_c[i], f.u1[i], f.u2[i], f.p11[i], f.p12[i],
                 f.p21[i], f.p22[i], x > 0 ? f.p11[i - 1] : 0.f, x > 0 ? f.p21[i - 1] : 0.f,
                 y > 0 ? f.p12[i - w] : 0.f, y > 0 ? f.p22[i - w] : 0.f, lt, th);
      }
    for (int y = 0; y < hgt; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        const std::size_t r = x + 1 < w ? i + 1 : i, d = y + 1 < hgt ? i + w : i;
        update_p(f.u1[i], f.u2[i], f.u1[r], f.u2[r], f.u1[d], f.u2[d], f.p11[i], f.p12[i], f.p21[i],
                 f.p22[i], taut);
      }
  }
}

}  // namespace gpu_f16_emu
}  // namespace flowtune
