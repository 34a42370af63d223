// TV-L1 inner-iteration math over one pixel, written once for every schedule and precision.
// Numerics contract (ARCHITECTURE.md); Zach et al. 2007 / IPOL 2013 (Sanchez Perez et al.), the
// five steps of Romera et al. 2023, Algorithm 1 (Threshold, Divergence, Estimate U, Forward
// Gradient, Estimate P). Compiled by NVRTC (or nvcc for deployment) with exactly one of
//   FT_PRECISION_F32   float2 storage, float math
//   FT_PRECISION_F16   half2 storage, half2 math (sub-word parallelism: __hfma2, h2sqrt...)
//   FT_PRECISION_MIXED half2 storage, float math
// Pairs are packed as in variants/cuda/device_fields.hpp: grad = (I1x, I1y), u = (u1, u2),
// p1 = (p11, p12), p2 = (p21, p22).
#pragma once

#include <cuda_fp16.h>

#include "grid_dependency.cuh"

#if defined(FT_PRECISION_F32) + defined(FT_PRECISION_F16) + defined(FT_PRECISION_MIXED) != 1
#error "define exactly one of FT_PRECISION_F32, FT_PRECISION_F16, FT_PRECISION_MIXED"
#endif

namespace ft {

/// Algorithm parameters as the kernels take them (kernel arguments, float):
/// lt = lambda * theta, theta, taut = tau / theta.
struct Params {
  float lt;
  float theta;
  float taut;
};

/// float math on float2 pairs.
struct MathF32 {
  typedef float S;
  typedef float2 V;
  static __device__ __forceinline__ V make(S x, S y) { return make_float2(x, y); }
  static __device__ __forceinline__ V zero() { return make_float2(0.f, 0.f); }
  static __device__ __forceinline__ S s(float x) { return x; }
  static __device__ __forceinline__ V add(V a, V b) { return make_float2(a.x + b.x, a.y + b.y); }
  static __device__ __forceinline__ V sub(V a, V b) { return make_float2(a.x - b.x, a.y - b.y); }
  static __device__ __forceinline__ V mul(V a, V b) { return make_float2(a.x * b.x, a.y * b.y); }
  static __device__ __forceinline__ V fma(V a, V b, V c) {
    return make_float2(fmaf(a.x, b.x, c.x), fmaf(a.y, b.y, c.y));
  }
  static __device__ __forceinline__ V splat(S a) { return make_float2(a, a); }
  static __device__ __forceinline__ V lows(V a, V b) { return make_float2(a.x, b.x); }
  static __device__ __forceinline__ V highs(V a, V b) { return make_float2(a.y, b.y); }
  static __device__ __forceinline__ V low2(V a) { return make_float2(a.x, a.x); }
  static __device__ __forceinline__ V high2(V a) { return make_float2(a.y, a.y); }
  static __device__ __forceinline__ S lo(V a) { return a.x; }
  static __device__ __forceinline__ S hi(V a) { return a.y; }
  /// Approximate square root and reciprocal (MUFU, relative error ~2^-22, i.e. ~1 ulp): the
  /// IEEE-rounded versions expand to ~10-20 instructions with slow paths each, and this
  /// math is instruction-bound in the pipelined schemes. Well inside the 1e-4 relative L2
  /// contract (ARCHITECTURE.md).
  static __device__ __forceinline__ S sqrts(S a) {
    float r;
    asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
    return r;
  }
  static __device__ __forceinline__ S rcps(S a) {
    float r;
    asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
    return r;
  }
  static __device__ __forceinline__ V sqrt2(V a) { return make_float2(sqrts(a.x), sqrts(a.y)); }
  static __device__ __forceinline__ V rcp2(V a) { return make_float2(rcps(a.x), rcps(a.y)); }
  static __device__ __forceinline__ S mins(S a, S b) { return fminf(a, b); }
  static __device__ __forceinline__ S maxs(S a, S b) { return fmaxf(a, b); }
  static __device__ __forceinline__ S abss(S a) { return fabsf(a); }
  static __device__ __forceinline__ S fmas(S a, S b, S c) { return fmaf(a, b, c); }
  static __device__ __forceinline__ S adds(S a, S b) { return a + b; }
  static __device__ __forceinline__ S muls(S a, S b) { return a * b; }
  static __device__ __forceinline__ S neg(S a) { return -a; }
  /// fi, or 0 where |grad|^2 is ~0 and |rho| <= lt |grad|^2 (v = u there).
  static __device__ __forceinline__ S zero_where_flat(S fi, S grad2, S ltg, S rho) {
    return (grad2 < grad_zero() && !(ltg < fabsf(rho))) ? 0.f : fi;
  }
  /// |grad|^2 below this counts as zero (v = u): the reference's 1e-10.
  static __device__ __forceinline__ S grad_zero() { return 1e-10f; }
};

/// half2 math: every pair operation is one half2 instruction.
struct MathF16 {
  typedef __half S;
  typedef __half2 V;
  static __device__ __forceinline__ V make(S x, S y) { return __halves2half2(x, y); }
  static __device__ __forceinline__ V zero() { return __float2half2_rn(0.f); }
  static __device__ __forceinline__ S s(float x) { return __float2half_rn(x); }
  static __device__ __forceinline__ V add(V a, V b) { return __hadd2(a, b); }
  static __device__ __forceinline__ V sub(V a, V b) { return __hsub2(a, b); }
  static __device__ __forceinline__ V mul(V a, V b) { return __hmul2(a, b); }
  static __device__ __forceinline__ V fma(V a, V b, V c) { return __hfma2(a, b, c); }
  static __device__ __forceinline__ V splat(S a) { return __half2half2(a); }
  static __device__ __forceinline__ V lows(V a, V b) { return __lows2half2(a, b); }
  static __device__ __forceinline__ V highs(V a, V b) { return __highs2half2(a, b); }
  static __device__ __forceinline__ V low2(V a) { return __low2half2(a); }
  static __device__ __forceinline__ V high2(V a) { return __high2half2(a); }
  static __device__ __forceinline__ S lo(V a) { return __low2half(a); }
  static __device__ __forceinline__ S hi(V a) { return __high2half(a); }
  static __device__ __forceinline__ V sqrt2(V a) { return h2sqrt(a); }
  static __device__ __forceinline__ V rcp2(V a) { return h2rcp(a); }
  static __device__ __forceinline__ S rcps(S a) { return hrcp(a); }
  static __device__ __forceinline__ S mins(S a, S b) { return __hmin(a, b); }
  static __device__ __forceinline__ S maxs(S a, S b) { return __hmax(a, b); }
  static __device__ __forceinline__ S abss(S a) { return __habs(a); }
  static __device__ __forceinline__ S fmas(S a, S b, S c) { return __hfma(a, b, c); }
  static __device__ __forceinline__ S adds(S a, S b) { return __hadd(a, b); }
  static __device__ __forceinline__ S muls(S a, S b) { return __hmul(a, b); }
  static __device__ __forceinline__ S neg(S a) { return __hneg(a); }
  static __device__ __forceinline__ S zero_where_flat(S fi, S grad2, S ltg, S rho) {
    return (__hlt(grad2, grad_zero()) && !__hlt(ltg, __habs(rho))) ? __float2half_rn(0.f) : fi;
  }
  /// 1e-10 underflows in half: the smallest normal half (6.1e-5) is the stand-in. Inside
  /// the thresholds |rho| <= lt |grad|^2, so the step it drops is below lt * 1e-2 * |grad|.
  static __device__ __forceinline__ S grad_zero() { return __float2half_rn(6.1035156e-05f); }
};

/// Two adjacent pixels of a pair field: c1 = (component 1 of pixel a, of pixel b), c2 the same
/// for component 2 (e.g. u1 and u2 of two pixels).
struct HalfPixelPair {
  __half2 c1, c2;
};

/// half2 math across two adjacent pixels (the pipelines' f16 layout, sub-word parallelism
/// over pixels): a scalar S is one value of each of the two pixels (__half2) and a pair V
/// is HalfPixelPair, so every operation of update_u / update_p is one half2 instruction
/// per component for two pixels, without shuffles between the lanes.
struct MathF16Pair {
  typedef __half2 S;
  typedef HalfPixelPair V;
  static __device__ __forceinline__ V make(S x, S y) { return {x, y}; }
  static __device__ __forceinline__ V zero() {
    return {__float2half2_rn(0.f), __float2half2_rn(0.f)};
  }
  static __device__ __forceinline__ S s(float x) { return __float2half2_rn(x); }
  static __device__ __forceinline__ V add(V a, V b) {
    return {__hadd2(a.c1, b.c1), __hadd2(a.c2, b.c2)};
  }
  static __device__ __forceinline__ V sub(V a, V b) {
    return {__hsub2(a.c1, b.c1), __hsub2(a.c2, b.c2)};
  }
  static __device__ __forceinline__ V mul(V a, V b) {
    return {__hmul2(a.c1, b.c1), __hmul2(a.c2, b.c2)};
  }
  static __device__ __forceinline__ V fma(V a, V b, V c) {
    return {__hfma2(a.c1, b.c1, c.c1), __hfma2(a.c2, b.c2, c.c2)};
  }
  static __device__ __forceinline__ V splat(S a) { return {a, a}; }
  static __device__ __forceinline__ V lows(V a, V b) { return {a.c1, b.c1}; }
  static __device__ __forceinline__ V highs(V a, V b) { return {a.c2, b.c2}; }
  static __device__ __forceinline__ V low2(V a) { return {a.c1, a.c1}; }
  static __device__ __forceinline__ V high2(V a) { return {a.c2, a.c2}; }
  static __device__ __forceinline__ S lo(V a) { return a.c1; }
  static __device__ __forceinline__ S hi(V a) { return a.c2; }
  static __device__ __forceinline__ V sqrt2(V a) { return {h2sqrt(a.c1), h2sqrt(a.c2)}; }
  static __device__ __forceinline__ V rcp2(V a) { return {h2rcp(a.c1), h2rcp(a.c2)}; }
  static __device__ __forceinline__ S fmas(S a, S b, S c) { return __hfma2(a, b, c); }
  static __device__ __forceinline__ S adds(S a, S b) { return __hadd2(a, b); }
  static __device__ __forceinline__ S muls(S a, S b) { return __hmul2(a, b); }
  static __device__ __forceinline__ S neg(S a) { return __hneg2(a); }
  static __device__ __forceinline__ S rcps(S a) { return h2rcp(a); }
  static __device__ __forceinline__ S mins(S a, S b) { return __hmin2(a, b); }
  static __device__ __forceinline__ S maxs(S a, S b) { return __hmax2(a, b); }
  static __device__ __forceinline__ S abss(S a) { return __habs2(a); }
  static __device__ __forceinline__ S grad_zero() { return __float2half2_rn(6.1035156e-05f); }
  /// Per pixel: fi, or 0 where |grad|^2 is ~0 and |rho| <= lt |grad|^2. The masks are 1 / 0
  /// per lane and fi is finite (see update_u), so the product is an exact select.
  static __device__ __forceinline__ S zero_where_flat(S fi, S grad2, S ltg, S rho) {
    const S flat = __hmul2(__hlt2(grad2, grad_zero()), __hle2(__habs2(rho), ltg));
    return __hmul2(fi, __hsub2(__float2half2_rn(1.f), flat));
  }
};

#if defined(FT_PRECISION_F32) || defined(FT_PRECISION_F16)
#if defined(FT_PRECISION_F32)
typedef float2 Store2;
typedef float Store1;
typedef MathF32 Math;
#else
typedef __half2 Store2;
typedef __half Store1;
typedef MathF16 Math;
#endif
// Storage is the math type: loads and stores are plain accesses.
__device__ __forceinline__ Math::V load2(const Store2* a, int i) {
  return a[i];
}
__device__ __forceinline__ Math::S load1(const Store1* a, int i) {
  return a[i];
}
__device__ __forceinline__ void store2(Store2* a, int i, Math::V v) {
  a[i] = v;
}
#else  // FT_PRECISION_MIXED
typedef __half2 Store2;
typedef __half Store1;
typedef MathF32 Math;
__device__ __forceinline__ Math::V load2(const Store2* a, int i) {
  return __half22float2(a[i]);
}
__device__ __forceinline__ Math::S load1(const Store1* a, int i) {
  return __half2float(a[i]);
}
__device__ __forceinline__ void store2(Store2* a, int i, Math::V v) {
  a[i] = __float22half2_rn(v);
}
#endif

/// Steps 1-3 (Threshold, Divergence, Estimate U) at one pixel:
///   rho = rho_c + grad.u; v = u + TH(rho, grad) (thresholds +-lt |grad|^2; v = u where
///   |grad|^2 is ~0); u_new = v + theta * div(p), div by backward differences.
/// p1l/p2l: p at (x-1, y), p1u/p2u: p at (x, y-1); the caller passes zero outside the image.
template <class M>
__device__ __forceinline__ typename M::V update_u(typename M::V u, typename M::V g,
                                                  typename M::S rho_c, typename M::V p1,
                                                  typename M::V p2, typename M::V p1l,
                                                  typename M::V p2l, typename M::V p1u,
                                                  typename M::V p2u, const Params& prm) {
  typedef typename M::S S;
  typedef typename M::V V;
  // Threshold (paper eq. 2-3): v = u + fi * grad.
  const V gu = M::mul(g, u);
  const S rho = M::adds(M::adds(rho_c, M::lo(gu)), M::hi(gu));
  const V gg = M::mul(g, g);
  const S grad2 = M::adds(M::lo(gg), M::hi(gg));
  const S lt = M::s(prm.lt);
  const S ltg = M::muls(lt, grad2);
  // The three cases rho < -lt |grad|^2 -> lt, rho > lt |grad|^2 -> -lt, else -rho / |grad|^2
  // are one clamp of -rho / |grad|^2 to [-lt, lt]; the divisor is at least grad_zero, so fi
  // is finite (a flat pixel with lt |grad|^2 < |rho| < lt grad_zero, i.e. |rho| below 5e-12
  // in f32, gets -rho / grad_zero instead of +-lt). The fourth case, |grad|^2 ~ 0 with
  // |rho| <= lt |grad|^2, is v = u. Branch-free: no divergence.
  S fi = M::mins(M::maxs(M::muls(M::neg(rho), M::rcps(M::maxs(grad2, M::grad_zero()))), M::neg(lt)),
                 lt);
  fi = M::zero_where_flat(fi, grad2, ltg, rho);
  const V v = M::fma(M::splat(fi), g, u);
  // Divergence (backward differences): (div p1, div p2) = (p11 - p11l + p12 - p12u, ...).
  const V div = M::add(M::sub(M::lows(p1, p2), M::lows(p1l, p2l)),
                       M::sub(M::highs(p1, p2), M::highs(p1u, p2u)));
  // Estimate U.
  return M::fma(M::splat(M::s(prm.theta)), div, v);
}

/// Steps 4-5 (Forward Gradient, Estimate P) at one pixel, in place on p1, p2:
///   p = (p + taut * grad u) / (1 + taut * |grad u|), per component u1 -> p1, u2 -> p2.
/// ur: u at (x+1, y), ud: u at (x, y+1); the caller passes u itself on the last column / row
/// (forward gradient 0 there).
template <class M>
__device__ __forceinline__ void update_p(typename M::V u, typename M::V ur, typename M::V ud,
                                         typename M::V& p1, typename M::V& p2, const Params& prm) {
  typedef typename M::V V;
  const V ux = M::sub(ur, u);  // (u1x, u2x)
  const V uy = M::sub(ud, u);  // (u1y, u2y)
  const V taut = M::splat(M::s(prm.taut));
  const V norm = M::sqrt2(M::fma(ux, ux, M::mul(uy, uy)));  // (|grad u1|, |grad u2|)
  const V inv = M::rcp2(M::fma(taut, norm, M::splat(M::s(1.f))));
  p1 = M::mul(M::fma(taut, M::lows(ux, uy), p1), M::low2(inv));
  p2 = M::mul(M::fma(taut, M::highs(ux, uy), p2), M::high2(inv));
}

}  // namespace ft
