// The two Kokkos functors of one TV-L1 inner iteration (Global scheme of Romera et al. 2023):
// UpdateU (Threshold + Divergence + Estimate U) and UpdateP (Forward Gradient + Estimate P).
// Backend-agnostic: they only touch Views and are called per pixel (y, x) by an MDRange.
#pragma once

#include <Kokkos_Core.hpp>

namespace flowtune {
namespace kokkos_tvl1 {

/// A width x height plane, element (y, x) = pixel (x, y), row-major like the host vectors.
using Plane2 = Kokkos::View<float**, Kokkos::LayoutRight>;
using ConstPlane2 = Kokkos::View<const float**, Kokkos::LayoutRight>;

/// Threshold step TH (IPOL 2013, eq. 18 / Romera et al. eq. 2-3) then u = v + theta * div(p).
/// Reads p (and u at its own pixel only), writes u at its own pixel: safe in place.
/// div(p) uses backward differences with p = 0 outside the image (numerics contract).
struct UpdateU {
  ConstPlane2 grad_x, grad_y, rho_c;
  Plane2 u1, u2;
  ConstPlane2 p11, p12, p21, p22;
  float lambda_theta;  ///< lambda * theta, the threshold scale
  float theta;

  /// Updates pixel (x, y); returns |u_new - u_old|^2 for the stopping criterion.
  KOKKOS_INLINE_FUNCTION float update(const int y, const int x) const {
    const float gx = grad_x(y, x);
    const float gy = grad_y(y, x);
    const float u1_old = u1(y, x);
    const float u2_old = u2(y, x);
    const float grad_sq = gx * gx + gy * gy;
    const float rho = rho_c(y, x) + gx * u1_old + gy * u2_old;
    float d1 = 0.f;
    float d2 = 0.f;
    if (rho < -lambda_theta * grad_sq) {
      d1 = lambda_theta * gx;
      d2 = lambda_theta * gy;
    } else if (rho > lambda_theta * grad_sq) {
      d1 = -lambda_theta * gx;
      d2 = -lambda_theta * gy;
    } else if (grad_sq >= 1e-10f) {
      const float fi = -rho / grad_sq;
      d1 = fi * gx;
      d2 = fi * gy;
    }
    const float div_p1 =
        p11(y, x) - (x > 0 ? p11(y, x - 1) : 0.f) + p12(y, x) - (y > 0 ? p12(y - 1, x) : 0.f);
    const float div_p2 =
        p21(y, x) - (x > 0 ? p21(y, x - 1) : 0.f) + p22(y, x) - (y > 0 ? p22(y - 1, x) : 0.f);
    const float u1_new = u1_old + d1 + theta * div_p1;
    const float u2_new = u2_old + d2 + theta * div_p2;
    u1(y, x) = u1_new;
    u2(y, x) = u2_new;
    const float c1 = u1_new - u1_old;
    const float c2 = u2_new - u2_old;
    return c1 * c1 + c2 * c2;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int y, const int x) const { (void)update(y, x); }
};

/// UpdateU that also sums |u_new - u_old|^2 (in double) for epsilon stopping.
struct UpdateUWithChange {
  UpdateU inner;
  KOKKOS_INLINE_FUNCTION void operator()(const int y, const int x, double& change_sum) const {
    change_sum += static_cast<double>(inner.update(y, x));
  }
};

/// p = (p + tau/theta * grad u) / (1 + tau/theta * |grad u|), per flow component (IPOL 2013,
/// eq. 23). grad u by forward differences, 0 on the last column (x) / last row (y).
/// Reads u (neighbours), writes p at its own pixel: safe in place.
struct UpdateP {
  ConstPlane2 u1, u2;
  Plane2 p11, p12, p21, p22;
  float tau_theta;  ///< tau / theta
  int width;
  int height;

  KOKKOS_INLINE_FUNCTION void operator()(const int y, const int x) const {
    const bool has_right = x < width - 1;
    const bool has_below = y < height - 1;
    const float u1c = u1(y, x);
    const float u2c = u2(y, x);
    const float u1x = has_right ? u1(y, x + 1) - u1c : 0.f;
    const float u1y = has_below ? u1(y + 1, x) - u1c : 0.f;
    const float u2x = has_right ? u2(y, x + 1) - u2c : 0.f;
    const float u2y = has_below ? u2(y + 1, x) - u2c : 0.f;
    const float ng1 = 1.f + tau_theta * Kokkos::Experimental::sqrt(u1x * u1x + u1y * u1y);
    const float ng2 = 1.f + tau_theta * Kokkos::Experimental::sqrt(u2x * u2x + u2y * u2y);
    p11(y, x) = (p11(y, x) + tau_theta * u1x) / ng1;
    p12(y, x) = (p12(y, x) + tau_theta * u1y) / ng1;
    p21(y, x) = (p21(y, x) + tau_theta * u2x) / ng2;
    p22(y, x) = (p22(y, x) + tau_theta * u2y) / ng2;
  }
};

}  // namespace kokkos_tvl1
}  // namespace flowtune
