// The warping's bilinear interpolation (kernels/bilinear.hpp, warping_interp = bilinear)
// against hand-computed weights, clamp-to-edge reads, and exactness on planes that are
// linear in x and y (which bilinear interpolation reproduces and bicubic does not bend).
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/image_ops.hpp"
#include "kernels/reference_tvl1.hpp"

namespace flowtune {
namespace {

double sample(const Plane<double>& q, double x, double y) {
  return bilinear_sample<double>([&q](int a, int b) { return q.at(a, b); }, q.width, q.height, x,
                                 y);
}

// At (2.25, 3.5): tx = 1/4, ty = 1/2, so the four texels weigh (1 - tx)(1 - ty) = 3/8 at
// (2, 3), tx (1 - ty) = 1/8 at (3, 3), (1 - tx) ty = 3/8 at (2, 4), tx ty = 1/8 at (3, 4),
// and every other texel 0.
TEST(Bilinear, WeightsByHand) {
  const int nodes[4][2] = {{2, 3}, {3, 3}, {2, 4}, {3, 4}};
  const double weights[4] = {3.0 / 8, 1.0 / 8, 3.0 / 8, 1.0 / 8};
  for (int k = 0; k < 4; ++k) {
    Plane<double> impulse(8, 8, 0.0);
    impulse.at(nodes[k][0], nodes[k][1]) = 1.0;
    EXPECT_DOUBLE_EQ(sample(impulse, 2.25, 3.5), weights[k]) << "node " << k;
  }
  Plane<double> far(8, 8, 0.0);
  far.at(4, 3) = 1.0;  // outside the 2 x 2 cell
  EXPECT_EQ(sample(far, 2.25, 3.5), 0.0);
  // At a texel centre the texel itself; float coordinates give the same weights.
  Plane<double> q(8, 8, 0.0);
  q.at(5, 6) = 7.0;
  EXPECT_EQ(sample(q, 5.0, 6.0), 7.0);
  Plane<float> f(8, 8, 0.f);
  f.at(3, 4) = 8.f;
  EXPECT_FLOAT_EQ(
      bilinear_sample<float>([&f](int a, int b) { return f.at(a, b); }, 8, 8, 2.25f, 3.5f), 1.f);
}

// Outside the plane the reads clamp to the edge: at (-0.5, 1) the left column's value; at
// (9.75, 9.25) of an 8 x 8 plane the corner texel (7, 7); far away (1e30) no overflow.
TEST(Bilinear, ClampToEdge) {
  Plane<double> q(8, 8, 0.0);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) q.at(x, y) = 10.0 * y + x;
  EXPECT_DOUBLE_EQ(sample(q, -0.5, 1.0), 10.0);   // (0, 1)
  EXPECT_DOUBLE_EQ(sample(q, -0.5, 1.5), 15.0);   // between (0, 1) and (0, 2)
  EXPECT_DOUBLE_EQ(sample(q, 9.75, 9.25), 77.0);  // (7, 7)
  EXPECT_DOUBLE_EQ(sample(q, 1e30, -1e30), 7.0);  // (7, 0)
  EXPECT_DOUBLE_EQ(sample(q, 6.5, 7.5), 76.5);    // (6.5, 7) on the last row
}

// prepare_warping with bilinear interpolation on I1 = 3x + 2y + 1 (and its exact gradient
// planes 3 and 2) at flows whose x + u stays inside: I1w = 3(x + u) + 2(y + v) + 1 exactly,
// grad = (3, 2), rho_c = I1w - 3u - 2v - I0. The two interpolations differ on a quadratic:
// I1 = x^2 sampled at x + 1/2 is (x^2 + (x + 1)^2) / 2 = (x + 1/2)^2 + 1/4 bilinearly and
// (x + 1/2)^2 bicubically (Keys' a = -1/2 kernel reproduces polynomials up to degree 2).
TEST(Bilinear, PrepareWarpingOnALinearAndAQuadraticPlane) {
  const int w = 12, h = 9;
  Plane<double> i0(w, h, 5.0), i1(w, h), gx(w, h, 3.0), gy(w, h, 2.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) i1.at(x, y) = 3.0 * x + 2.0 * y + 1.0;
  Tvl1State<double> s(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      s.u1[i] = (x < w - 3) ? 1.25 + 0.125 * (x % 3) : -1.5;
      s.u2[i] = (y < h - 3) ? 0.75 : -2.25;
    }
  const WarpingData<double> b = prepare_warping(i0, i1, gx, gy, s, WarpingInterp::bilinear);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      const double u = s.u1[i], v = s.u2[i];
      const double warped = 3.0 * (x + u) + 2.0 * (y + v) + 1.0;
      EXPECT_NEAR(b.rho_c[i], warped - 3.0 * u - 2.0 * v - 5.0, 1e-12) << x << "," << y;
      EXPECT_DOUBLE_EQ(b.grad_x[i], 3.0);
      EXPECT_DOUBLE_EQ(b.grad_y[i], 2.0);
    }
  Plane<double> sq(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) sq.at(x, y) = double(x) * x;
  Tvl1State<double> half(w, h);
  for (std::size_t i = 0; i < half.u1.size(); ++i) half.u1[i] = 0.5;
  const Plane<double> zero(w, h, 0.0);
  const WarpingData<double> lin =
      prepare_warping(zero, sq, zero, zero, half, WarpingInterp::bilinear);
  const WarpingData<double> cub = prepare_warping(zero, sq, zero, zero, half);
  const int x = 5, y = 4;  // inside: the cubic stencil 4..7 needs no clamping
  const std::size_t i = std::size_t(y) * w + x;
  EXPECT_DOUBLE_EQ(lin.rho_c[i], (x + 0.5) * (x + 0.5) + 0.25);  // (25 + 36) / 2
  EXPECT_NEAR(cub.rho_c[i], (x + 0.5) * (x + 0.5), 1e-12);
}

}  // namespace
}  // namespace flowtune
