// Structure-texture decomposition (kernels/structure_texture.hpp; Wedel et al. 2009, sec. 2.3)
// against the closed-form ROF solution of a step, and its place in the multiscale driver.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "kernels/image_ops.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/structure_texture.hpp"

namespace flowtune {
namespace {

// A step constant along y: f = 100 on the a = 16 left columns, 20 on the b = 24 right ones.
// The discrete ROF  min sum |u(x+1) - u(x)| + 1/(2 theta) sum (u - f)^2  of a step keeps it a
// step (one jump J per row); with the plateaus moved by d1 (left, down) and d2 (right, up),
// J = 80 - d1 - d2 and optimality in d1, d2 gives -1 + a d1 / theta = 0 and -1 + b d2 / theta
// = 0 per row: d1 = theta / a, d2 = theta / b (while J > 0). theta = 8: d1 = 0.5, d2 = 1/3.
TEST(StructureTexture, StepMatchesTheClosedFormRof) {
  const int a = 16, b = 24, w = a + b, h = 3;
  Plane<double> f(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = x < a ? 100.0 : 20.0;
  const double theta = 8;
  // alpha = 1: the texture is f - ROF(f) = +d1 on the left, -d2 on the right.
  const Plane<double> t = structure_texture(f, 1.0, theta, 20000);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      EXPECT_NEAR(t.at(x, y), x < a ? theta / a : -theta / b, 1e-6) << x << "," << y;
  // alpha = 0.95: f - 0.95 ROF(f) = 0.05 f + 0.95 (f - ROF(f)).
  const Plane<double> t95 = structure_texture(f, 0.95, theta, 20000);
  EXPECT_NEAR(t95.at(0, 1), 0.05 * 100 + 0.95 * theta / a, 1e-6);
  EXPECT_NEAR(t95.at(w - 1, 1), 0.05 * 20 - 0.95 * theta / b, 1e-6);
}

TEST(StructureTexture, ConstantHasNoTextureAndAlphaZeroIsIdentity) {
  Plane<double> c(9, 7, 42.0);
  const Plane<double> t = structure_texture(c, 1.0, 0.125, 50);
  for (double v : t.data) EXPECT_NEAR(v, 0.0, 1e-12);
  Plane<double> r(9, 7);
  for (std::size_t i = 0; i < r.size(); ++i) r.data[i] = double((i * 37) % 11);
  EXPECT_EQ(structure_texture(r, 0.0, 0.125, 50).data, r.data);
  EXPECT_THROW(structure_texture(r, 1.5, 0.125, 10), std::invalid_argument);
  EXPECT_THROW(structure_texture(r, 0.5, 0.0, 10), std::invalid_argument);
}

// The driver uses the texture frames: with texture_alpha > 0 the flow differs, and a bad
// parameter is rejected.
TEST(StructureTexture, DriverUsesAndChecksIt) {
  Image i0(32, 24), i1(32, 24);
  for (int y = 0; y < 24; ++y)
    for (int x = 0; x < 32; ++x) {
      i0.at(x, y) = float(128 + 60 * std::sin(0.5 * x) * std::cos(0.4 * y) + 2 * y);
      i1.at(x, y) = float(128 + 60 * std::sin(0.5 * (x - 0.6)) * std::cos(0.4 * y) + 2 * y);
    }
  Tvl1Params p;
  const FlowField plain = tvl1_reference(i0, i1, p);
  p.texture_alpha = 0.95;
  const FlowField tex = tvl1_reference(i0, i1, p);
  EXPECT_NE(plain.u, tex.u);
  p.rof_theta = 0;
  EXPECT_THROW(tvl1_reference(i0, i1, p), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
