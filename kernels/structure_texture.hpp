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
// structure_texture below) and the GPU frame (kernels/cuda/frame/structure_texture.cu, float)
// call them.
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

/// Divergence of p at (x, y) of a w x h grid: backward differences, p = 0 outside the image
/// (and p1 on the last column, p2 on the last row, stay 0 because grad is 0 there).
template <class Real>
FT_ROF_HD Real rof_div_px(const Real* p1, const Real* p2, int w, int x, int y) {
  const std::size_t i = std::size_t(y) * w + x;
  const Real west = x > 0 ? p1[i - 1] : Real(0);
  const Real north = y > 0 ? p2[i - std::size_t(w)] : Real(0);
  return (p1[i] - west) + (p2[i] - north);
}

/// Step 1 of an iteration at (x, y): v = div p - f / theta.
template <class Real>
FT_ROF_HD void rof_v_px(const Real* f, const Real* p1, const Real* p2, Real* v, int w, int x, int y,
                        Real inv_theta) {
  const std::size_t i = std::size_t(y) * w + x;
  v[i] = rof_div_px(p1, p2, w, x, y) - f[i] * inv_theta;
}

/// Step 2 at (x, y): p = (p + tau grad v) / (1 + tau |grad v|), forward differences.
template <class Real>
FT_ROF_HD void rof_p_px(const Real* v, Real* p1, Real* p2, int w, int h, int x, int y, Real tau) {
  const std::size_t i = std::size_t(y) * w + x;
  const Real gx = x < w - 1 ? v[i + 1] - v[i] : Real(0);
  const Real gy = y < h - 1 ? v[i + std::size_t(w)] - v[i] : Real(0);
  const Real n = Real(1) + tau * std::sqrt(gx * gx + gy * gy);
  p1[i] = (p1[i] + tau * gx) / n;
  p2[i] = (p2[i] + tau * gy) / n;
}

/// The result at (x, y): structure S = f - theta div p, texture T = f - alpha S.
template <class Real>
FT_ROF_HD Real texture_px(const Real* f, const Real* p1, const Real* p2, int w, int x, int y,
                          Real theta, Real alpha) {
  const std::size_t i = std::size_t(y) * w + x;
  const Real s = f[i] - theta * rof_div_px(p1, p2, w, x, y);
  return f[i] - alpha * s;
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
