// Structure-texture decomposition of the input frames (Wedel, Pock, Zach, Bischof, Cremers,
// "An improved algorithm for TV-L1 optical flow", 2009, sec. 2.3; Sun, Roth, Black 2010,
// sec. 3.1): the structure part is the ROF denoising of the frame (Rudin, Osher, Fatemi 1992),
//   S = argmin_u  sum |grad u| + 1 / (2 rof_theta) sum (u - I)^2,
// solved by Chambolle's projection algorithm (Chambolle 2004, "An algorithm for total
// variation minimization and applications", eq. 9 and Theorem 3.1): with p = (p1, p2) = 0,
//   v = div p - I / theta;  p = (p + tau grad v) / (1 + tau |grad v|)   (repeated),
//   S = I - theta div p,
// grad by forward differences (0 on the last column / row), div by backward differences with
// p = 0 outside the image (its negative adjoint), tau = kRofTau; the texture frame is
//   T = I - alpha S.
// The per-pixel steps are written once for the host and the device: the CPU driver (double,
// structure_texture below) and the GPU frame (kernels/cuda/frame/texture_kernels.cu, float:
// per-iteration kernels and temporally blocked tiles) call them.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/image.hpp"

#if defined(__CUDACC__)
#define FT_ROF_HD __host__ __device__ inline
#else
#define FT_ROF_HD inline
#endif

namespace flowtune {

/// Time step of Chambolle's projection: 1/4 (Chambolle 2004 proves convergence for
/// tau <= 1/8 and observes it up to 1/4; Wedel et al. 2009 use 1/4).
constexpr double kRofTau = 0.25;

/// a * b rounded on its own: on the device never contracted into an FMA with the add that
/// follows (__fmul_rn), so each step below rounds the same way in every kernel that inlines
/// it, whatever the compiler hoists (the blocked ROF computes f / theta once per launch, the
/// per-iteration kernels at every iteration). The host compile of kernels/cuda/frame has
/// -ffp-contract=off for the same reason.
FT_ROF_HD float rof_mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
FT_ROF_HD double rof_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// Value-level steps: the arithmetic of one pixel on values already read (a neighbour outside
// the image passed as 0, a forward difference at the last column / row passed as 0). The
// pointer-level *_px helpers below and the GPU's temporally blocked tiles
// (kernels/cuda/frame/texture_kernels.cu) both call these, so both round identically.

/// Backward-difference divergence from p1, p2 at the pixel and p1 west, p2 north of it.
template <class Real>
FT_ROF_HD Real rof_div_value(Real p1, Real p1_west, Real p2, Real p2_north) {
  return (p1 - p1_west) + (p2 - p2_north);
}

/// f / theta as the v step subtracts it: f * (1 / theta), the product rounded on its own (the
/// blocked ROF keeps it in a register for all its iterations).
template <class Real>
FT_ROF_HD Real rof_f_over_theta(Real f, Real inv_theta) {
  return rof_mul(f, inv_theta);
}

/// v = div p - f / theta (Chambolle 2004, eq. 9, the argument of the gradient).
template <class Real>
FT_ROF_HD Real rof_v_value(Real div, Real f_over_theta) {
  return div - f_over_theta;
}

/// The projection step on p = (p1, p2) in place, from the forward differences gx, gy of v:
/// p = (p + tau grad v) / (1 + tau |grad v|) (Chambolle 2004, eq. 9 with tau = kRofTau).
template <class Real>
FT_ROF_HD void rof_p_value(Real& p1, Real& p2, Real gx, Real gy, Real tau) {
  const Real n = Real(1) + rof_mul(tau, Real(std::sqrt(rof_mul(gx, gx) + rof_mul(gy, gy))));
  p1 = (p1 + rof_mul(tau, gx)) / n;
  p2 = (p2 + rof_mul(tau, gy)) / n;
}

/// Texture T = f - alpha S of the structure S = f - theta div p.
template <class Real>
FT_ROF_HD Real texture_value(Real f, Real div, Real theta, Real alpha) {
  const Real s = f - rof_mul(theta, div);
  return f - rof_mul(alpha, s);
}

/// Divergence of p at (x, y) of a w x h grid: backward differences, p = 0 outside the image
/// (and p1 on the last column, p2 on the last row, stay 0 because grad is 0 there).
template <class Real>
FT_ROF_HD Real rof_div_px(const Real* p1, const Real* p2, int w, int x, int y) {
  const std::size_t i = std::size_t(y) * w + x;
  const Real west = x > 0 ? p1[i - 1] : Real(0);
  const Real north = y > 0 ? p2[i - std::size_t(w)] : Real(0);
  return rof_div_value(p1[i], west, p2[i], north);
}

/// Step 1 of an iteration at (x, y): v = div p - f / theta.
template <class Real>
FT_ROF_HD void rof_v_px(const Real* f, const Real* p1, const Real* p2, Real* v, int w, int x, int y,
                        Real inv_theta) {
  const std::size_t i = std::size_t(y) * w + x;
  v[i] = rof_v_value(rof_div_px(p1, p2, w, x, y), rof_f_over_theta(f[i], inv_theta));
}

/// Step 2 at (x, y): p = (p + tau grad v) / (1 + tau |grad v|), forward differences.
template <class Real>
FT_ROF_HD void rof_p_px(const Real* v, Real* p1, Real* p2, int w, int h, int x, int y, Real tau) {
  const std::size_t i = std::size_t(y) * w + x;
  const Real gx = x < w - 1 ? v[i + 1] - v[i] : Real(0);
  const Real gy = y < h - 1 ? v[i + std::size_t(w)] - v[i] : Real(0);
  Real a = p1[i], b = p2[i];
  rof_p_value(a, b, gx, gy, tau);
  p1[i] = a;
  p2[i] = b;
}

/// The result at (x, y): structure S = f - theta div p, texture T = f - alpha S.
template <class Real>
FT_ROF_HD Real texture_px(const Real* f, const Real* p1, const Real* p2, int w, int x, int y,
                          Real theta, Real alpha) {
  return texture_value(f[std::size_t(y) * w + x], rof_div_px(p1, p2, w, x, y), theta, alpha);
}

/// Throws std::invalid_argument naming `who` unless alpha in [0, 1], theta > 0 and
/// iterations >= 0.
inline void check_structure_texture(double alpha, double theta, int iterations, const char* who) {
  if (!(alpha >= 0 && alpha <= 1) || !(theta > 0) || iterations < 0)
    throw std::invalid_argument(std::string(who) +
                                ": structure-texture needs texture_alpha in [0, 1], rof_theta > 0 "
                                "and rof_iterations >= 0, got " +
                                std::to_string(alpha) + ", " + std::to_string(theta) + ", " +
                                std::to_string(iterations));
}

/// The texture frame T = f - alpha ROF(f) of a w x h plane, ROF by `iterations` of
/// Chambolle's projection with weight theta (header comment). alpha = 0 returns f; alpha = 1
/// the pure texture. Throws std::invalid_argument for invalid arguments.
template <class Real>
Plane<Real> structure_texture(const Plane<Real>& f, double alpha, double theta, int iterations) {
  check_structure_texture(alpha, theta, iterations, "structure_texture");
  const int w = f.width, h = f.height;
  const std::size_t n = std::size_t(w) * h;
  std::vector<Real> p1(n, Real(0)), p2(n, Real(0)), v(n);
  const Real inv_theta = Real(1 / theta), tau = Real(kRofTau);
  for (int k = 0; k < iterations; ++k) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        rof_v_px(f.data.data(), p1.data(), p2.data(), v.data(), w, x, y, inv_theta);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) rof_p_px(v.data(), p1.data(), p2.data(), w, h, x, y, tau);
  }
  Plane<Real> out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out.data[std::size_t(y) * w + x] =
          texture_px(f.data.data(), p1.data(), p2.data(), w, x, y, Real(theta), Real(alpha));
  return out;
}

}  // namespace flowtune
