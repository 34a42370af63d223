// Per-warping data and the primal/dual state of the TV-L1 inner iterations.
#pragma once

#include <cstddef>
#include <vector>

namespace flowtune {

/// What one warping hands to the inner iterations (numerics contract, ARCHITECTURE.md):
/// grad_x/grad_y = (grad I1)(x + u0) and rho_c = I1(x + u0) - grad . u0 - I0, all
/// width x height row-major. Real is double (reference) or float (variants).
template <typename Real>
struct WarpingData {
  int width = 0;
  int height = 0;
  std::vector<Real> grad_x, grad_y, rho_c;

  WarpingData() = default;
  WarpingData(int w, int h)
      : width(w),
        height(h),
        grad_x(std::size_t(w) * h),
        grad_y(std::size_t(w) * h),
        rho_c(std::size_t(w) * h) {}
};

/// Primal flow (u1, u2) and dual variables p1 = (p11, p12) for u1, p2 = (p21, p22) for u2,
/// width x height row-major each. Flow in pixels.
template <typename Real>
struct Tvl1State {
  int width = 0;
  int height = 0;
  std::vector<Real> u1, u2, p11, p12, p21, p22;

  Tvl1State() = default;
  Tvl1State(int w, int h)
      : width(w),
        height(h),
        u1(std::size_t(w) * h),
        u2(std::size_t(w) * h),
        p11(std::size_t(w) * h),
        p12(std::size_t(w) * h),
        p21(std::size_t(w) * h),
        p22(std::size_t(w) * h) {}
};

}  // namespace flowtune
