// Arithmetic and image sampling shared, as one source, by the CPU references of the local
// flow workloads (kernels/localflow/*.cpp, compiled by the host compiler) and their CUDA
// kernels (kernels/cuda/bm_match.cuh, lk_dense.cuh, compiled per config by NVRTC). Every
// float operation goes through add/sub/mul/div/sqrt_rn, which are __f*_rn intrinsics on the
// device (no FMA contraction) and plain IEEE operations on the host (the host files are
// compiled with -ffp-contract=off: GCC otherwise fuses a * b + c into one FMA in C++, ISO mode
// included, wherever the target has FMA, e.g. every aarch64 CPU): the same operations in the
// same order give the same float result on both sides, which is what the CUDA-vs-CPU tests
// check.
//
// Planes are row-major float arrays of w x h (element (x, y) at y * w + x), intensities in
// [0, 255] (ARCHITECTURE.md numerics contract), flows in pixels of the plane's level.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define FT_FLOW_HD __host__ __device__ __forceinline__
#else
#define FT_FLOW_HD inline
#endif
#ifndef __CUDACC_RTC__
#include <cmath>
#endif

// The dynamic shared memory of a kernel (a host emulation of the kernels, tests/localflow/,
// defines it to a buffer of its own).
#ifndef FT_FLOW_DYNAMIC_SHARED
#define FT_FLOW_DYNAMIC_SHARED(name) extern __shared__ float name[]
#endif

namespace ftflow {

/// Threads per block of the element-wise kernels (flow_downsample, bm_densify, lk_gradients).
constexpr int kFlowThreads = 256;

// The device pass (__CUDA_ARCH__: NVRTC, or nvcc's device side) uses the round-to-nearest
// intrinsics, which the compiler never fuses; the host pass plain IEEE operations.
#ifdef __CUDA_ARCH__
#define FT_FLOW_OP(device, host) return device
#else
#define FT_FLOW_OP(device, host) return host
#endif
FT_FLOW_HD float add(float a, float b) {
  FT_FLOW_OP(__fadd_rn(a, b), a + b);
}
FT_FLOW_HD float sub(float a, float b) {
  FT_FLOW_OP(__fsub_rn(a, b), a - b);
}
FT_FLOW_HD float mul(float a, float b) {
  FT_FLOW_OP(__fmul_rn(a, b), a * b);
}
FT_FLOW_HD float div(float a, float b) {
  FT_FLOW_OP(__fdiv_rn(a, b), a / b);
}
FT_FLOW_HD float sqrt_rn(float a) {
  FT_FLOW_OP(__fsqrt_rn(a), std::sqrt(a));
}
FT_FLOW_HD float floor_(float a) {
  FT_FLOW_OP(floorf(a), std::floor(a));
}
#undef FT_FLOW_OP

FT_FLOW_HD int mini(int a, int b) {
  return a < b ? a : b;
}
FT_FLOW_HD int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
FT_FLOW_HD float clampf(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
FT_FLOW_HD float absf(float v) {
  return v < 0.f ? -v : v;
}

/// Side of the next pyramid level: ceil(n / 2) (at least 1), so that a pixel x of a level
/// maps to (x + 0.5) / 2 - 0.5 of the next and flows scale by exactly 2.
FT_FLOW_HD int half_size(int n) {
  return n > 1 ? (n + 1) / 2 : 1;
}

/// Pixel (x, y) of the next (coarser) pyramid level of `in` (w x h): the mean of the 2 x 2
/// pixels (2x, 2y) .. (2x+1, 2y+1), clamped at the last row and column (a box pyramid; Marras
/// et al. sec. 3.2 resample by a factor 2 per level).
FT_FLOW_HD float downsample_at(const float* in, int w, int h, int x, int y) {
  const int x0 = clampi(2 * x, 0, w - 1), x1 = clampi(2 * x + 1, 0, w - 1);
  const int y0 = clampi(2 * y, 0, h - 1), y1 = clampi(2 * y + 1, 0, h - 1);
  const float top = add(in[y0 * w + x0], in[y0 * w + x1]);
  const float bottom = add(in[y1 * w + x0], in[y1 * w + x1]);
  return mul(0.25f, add(top, bottom));
}

/// IEEE binary16 storage (precision "f16" of lk): the bits of the half nearest to f (round to
/// nearest even; overflow to infinity; values up to 2^-25 round to zero), from integer
/// operations only, so the host and the device round identically.
FT_FLOW_HD unsigned short half_bits(float f) {
  union {
    float f;
    unsigned u;
  } in;
  in.f = f;
  const unsigned sign = (in.u >> 16) & 0x8000u;
  const unsigned abs = in.u & 0x7fffffffu;
  if (abs >= 0x47800000u) return (unsigned short)(sign | 0x7c00u);  // overflow (or inf/nan)
  if (abs < 0x33000000u) return (unsigned short)sign;  // below half the smallest subnormal
  const int exponent = int(abs >> 23) - 127;
  unsigned mantissa = (abs & 0x7fffffu) | 0x800000u;  // with the implicit 1
  // Normal halves keep 10 fraction bits (shift 13); subnormals (exponent < -14) fewer.
  const int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
  const unsigned rest = mantissa & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
  mantissa >>= shift;
  if (rest > halfway || (rest == halfway && (mantissa & 1u))) ++mantissa;  // may carry
  const unsigned biased = exponent < -14 ? 0u : unsigned(exponent + 15);
  return (unsigned short)(sign |
                          ((biased << 10) + (exponent < -14 ? mantissa : mantissa - 0x400u)));
}

/// The float value of binary16 bits h (exact).
FT_FLOW_HD float half_value(unsigned short h) {
  const unsigned sign = unsigned(h & 0x8000u) << 16;
  const unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  union {
    unsigned u;
    float f;
  } out;
  if (e == 0) {
    out.f = float(m) * (1.f / 16777216.f);  // m 2^-24, exact
    out.u |= sign;
    return out.f;
  }
  out.u = sign | (e == 31 ? 0x7f800000u | (m << 13) : ((e + 112u) << 23) | (m << 13));
  return out.f;
}

/// A plane element as float: float as is, binary16 bits (unsigned short) through half_value.
FT_FLOW_HD float load(float v) {
  return v;
}
FT_FLOW_HD float load(unsigned short v) {
  return half_value(v);
}
/// Stores v into a plane element: as is, or rounded to binary16 bits.
FT_FLOW_HD void store(float& d, float v) {
  d = v;
}
FT_FLOW_HD void store(unsigned short& d, float v) {
  d = half_bits(v);
}
/// v as the element type stores it (a binary16 round trip for unsigned short).
template <class T>
FT_FLOW_HD float stored(float v) {
  T t;
  store(t, v);
  return load(t);
}

/// Bilinear interpolation of `in` (w x h, float or binary16 bits) at real (x, y), pixel
/// centres at integers, the position clamped to the plane first (clamp-to-edge).
template <class T>
FT_FLOW_HD float bilinear(const T* in, int w, int h, float x, float y) {
  x = clampf(x, 0.f, float(w - 1));
  y = clampf(y, 0.f, float(h - 1));
  const int x0 = int(floor_(x)), y0 = int(floor_(y));
  const int x1 = x0 + 1 < w ? x0 + 1 : w - 1, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
  const float ax = sub(x, float(x0)), ay = sub(y, float(y0));
  const float a00 = load(in[y0 * w + x0]), a10 = load(in[y0 * w + x1]);
  const float a01 = load(in[y1 * w + x0]), a11 = load(in[y1 * w + x1]);
  const float top = add(a00, mul(ax, sub(a10, a00)));
  const float bottom = add(a01, mul(ax, sub(a11, a01)));
  return add(top, mul(ay, sub(bottom, top)));
}

/// The position in the coarser level (half_size) of pixel coordinate x of a level:
/// (x + 0.5) / 2 - 0.5.
FT_FLOW_HD float to_coarse(int x) {
  return sub(mul(add(float(x), 0.5f), 0.5f), 0.5f);
}

}  // namespace ftflow
