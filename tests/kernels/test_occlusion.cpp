// The occlusion factor of the weighted median (Sun, Roth, Black 2010, sec. 4, eq. 10;
// kernels/occlusion.hpp, kernels/weighted_median.hpp): o(x) by hand on a 4 x 3 flow (the
// divergence and the warped residual worked out below), a weighted median that the factor
// changes by hand, the weighted median with the factor against the definition (brute-force
// minimiser of sum_j w_j o_j / o_i |m - v_j| with the weights computed directly), a zero cost
// giving the weights without the factor bit for bit, and the parameter in the driver.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/occlusion.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "kernels/weighted_median.hpp"
#include "tests/kernels/textured_image.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

// A 4 x 3 level (x right, y down), row-major:
//   u1 = [0 1 0 0 ; 0 2 -2 0 ; 0 0 0 0.5]   u2 = [0 0 0 0 ; 0 0 0.5 0 ; 0 0 0 0]
//   I0 = 50 everywhere except I0(1, 1) = 100, I0(2, 1) = 80;  I1(i, j) = 10 i + 100 j
// (linear, so its bilinear sample at (x, y) is 10 x + 100 y). sigma_d 0.3, sigma_e 20:
// kd = 1 / 0.18, ke = 1 / 800.
struct Tiny {
  int w = 4, h = 3;
  std::vector<double> u1 = {0, 1, 0, 0, 0, 2, -2, 0, 0, 0, 0, 0.5};
  std::vector<double> u2 = {0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0};
  std::vector<double> i0 = {50, 50, 50, 50, 50, 100, 80, 50, 50, 50, 50, 50};
  std::vector<double> i1;
  Tiny() {
    for (int j = 0; j < h; ++j)
      for (int i = 0; i < w; ++i) i1.push_back(10.0 * i + 100.0 * j);
  }
};

TEST(Occlusion, CostByHand) {
  const Tiny t;
  const std::vector<double> q = occlusion_cost_map(
      t.u1, t.u2, t.i0, t.i1, t.w, t.h, kOcclusionSigmaDivergence, kOcclusionSigmaResidual);
  ASSERT_EQ(q.size(), 12u);
  const auto at = [&](int x, int y) { return q[std::size_t(y) * 4 + x]; };
  const double kd = 1 / 0.18, ke = 1 / 800.0;
  // (1, 1): d = (u1(2,1) - u1(0,1)) / 2 + (u2(1,2) - u2(1,0)) / 2 = -1; lands on (3, 1):
  // I1 = 130, e = 100 - 130 = -30.
  EXPECT_NEAR(at(1, 1), 1 * kd + 900 * ke, 1e-12);
  // (2, 1): d = (0 - 2) / 2 + (0 - 0) / 2 = -1; lands on (0, 1.5): I1 = 150, e = -70.
  EXPECT_NEAR(at(2, 1), 1 * kd + 4900 * ke, 1e-12);
  // (2, 0), first row: d = (0 - 1) / 2 + (u2(2,1) - u2(2,0)) = -0.5 + 0.5 = 0 (not
  // negative); lands on (2, 0): e = 50 - 20 = 30.
  EXPECT_NEAR(at(2, 0), 900 * ke, 1e-12);
  // (2, 2), last row: d = (u1(3,2) - u1(1,2)) / 2 + (u2(2,2) - u2(2,1)) = 0.25 - 0.5 = -0.25;
  // lands on (2, 2): e = 50 - 220 = -170.
  EXPECT_NEAR(at(2, 2), 0.0625 * kd + 28900 * ke, 1e-12);
  // (0, 0), first column: d = u1(1,0) - u1(0,0) = 1 > 0 -> 0; e = 50 - 0.
  EXPECT_NEAR(at(0, 0), 2500 * ke, 1e-12);
  // (3, 1), last column: d = u1(3,1) - u1(2,1) = 2 > 0 -> 0; lands on (3, 1): e = 50 - 130.
  EXPECT_NEAR(at(3, 1), 6400 * ke, 1e-12);
  // (3, 2): d = 0.5 > 0; lands on (3.5, 2), outside the level: e = 0, so q = 0 and o = 1.
  EXPECT_EQ(at(3, 2), 0.0);
  // o = exp(-q): at (1, 1) exp(-(1 / 0.18 + 9 / 8)).
  EXPECT_NEAR(std::exp(-at(1, 1)), 0.00125508, 1e-8);
}

TEST(Occlusion, RejectsBadSigmasAndSizes) {
  const Tiny t;
  EXPECT_THROW(occlusion_cost_map(t.u1, t.u2, t.i0, t.i1, t.w, t.h, 0.0, 20.0),
               std::invalid_argument);
  EXPECT_THROW(occlusion_cost_map(t.u1, t.u2, t.i0, t.i1, t.w, t.h, 0.3, -1.0),
               std::invalid_argument);
  EXPECT_THROW(occlusion_cost_map(t.u1, t.u2, t.i0, t.i1, 3, 3, 0.3, 20.0), std::invalid_argument);
}

// 3 x 3, uniform guide, sigma_spatial huge (the weights without occlusion are all 1): u =
// 1 1 1 / 1 5 9 / 9 9 9, the plain median at the centre is 5. With the four 1s occluded
// (q = 10, o = e^-10) and the rest q = 0: weights 4 x e^-10, 1 (centre), 4 x 1; total
// 5 + 4e^-10, half 2.5 + 2e^-10; sorted sums 4e^-10, 1 + 4e^-10, 2 + ..., 3 + ... -> 9.
TEST(Occlusion, ChangesTheWeightedMedianByHand) {
  const std::vector<double> u = {1, 1, 1, 1, 5, 9, 9, 9, 9}, guide(9, 10.0);
  const std::vector<double> q = {10, 10, 10, 10, 0, 0, 0, 0, 0};
  std::vector<double> o1, o2;
  weighted_median_filter(u, u, guide, 3, 3, 3, 1e12, 7.0, &o1, &o2);
  EXPECT_EQ(o1[4], 5);
  weighted_median_filter(u, u, guide, 3, 3, 3, 1e12, 7.0, &o1, &o2, &q);
  EXPECT_EQ(o1[4], 9);
  EXPECT_EQ(o2[4], 9);
  // An occluded centre (q = 10), the 1s at q = 0, the 9s at q = 1: relative to the centre's
  // weight 1 the 1s weigh e^10 each, the 9s e^9; total 4e^10 + 4e^9 + 1, half of it is
  // 2e^10 + 2e^9 + 0.5 < 4e^10, the sum after the four 1s -> 1.
  const std::vector<double> qc = {0, 0, 0, 0, 10, 1, 1, 1, 1};
  weighted_median_filter(u, u, guide, 3, 3, 3, 1e12, 7.0, &o1, &o2, &qc);
  EXPECT_EQ(o1[4], 1);
}

// The definition: at every pixel the result minimises sum_j w_ij |m - v_j| over the window
// (clamp-to-edge), w_ij = exp(-|dx|^2 / (2 ss^2)) exp(-dg^2 / (2 sc^2)) o_j / o_i with
// o = exp(-q) computed here, directly as eq. 10 writes it.
TEST(Occlusion, WeightedMedianMinimisesTheOccludedObjective) {
  const int w = 13, h = 9;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> flow(-3, 3), grey(0, 255), cost(0, 6);
  std::vector<double> u1, u2, g, q;
  for (int i = 0; i < w * h; ++i) {
    u1.push_back(std::round(flow(rng) * 8) / 8);
    u2.push_back(flow(rng));
    g.push_back(grey(rng));
    q.push_back(cost(rng));
  }
  for (int window : {3, 5, 7}) {
    const double ss = 3, sc = 30;
    std::vector<double> o1, o2;
    weighted_median_filter(u1, u2, g, w, h, window, ss, sc, &o1, &o2, &q);
    const int r = window / 2;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = std::size_t(y) * w + x;
        std::vector<double> wt, v1, v2;
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx) {
            const int xx = std::min(std::max(x + dx, 0), w - 1);
            const int yy = std::min(std::max(y + dy, 0), h - 1);
            const std::size_t j = std::size_t(yy) * w + xx;
            const double dg = g[j] - g[i];
            wt.push_back(std::exp(-(dx * dx + dy * dy) / (2 * ss * ss)) *
                         std::exp(-dg * dg / (2 * sc * sc)) * std::exp(-q[j]) / std::exp(-q[i]));
            v1.push_back(u1[j]);
            v2.push_back(u2[j]);
          }
        const auto objective = [&](const std::vector<double>& v, double m) {
          double s = 0;
          for (std::size_t k = 0; k < v.size(); ++k) s += wt[k] * std::fabs(m - v[k]);
          return s;
        };
        double b1 = objective(v1, v1[0]), b2 = objective(v2, v2[0]);
        for (double c : v1) b1 = std::min(b1, objective(v1, c));
        for (double c : v2) b2 = std::min(b2, objective(v2, c));
        EXPECT_LE(objective(v1, o1[i]), b1 * (1 + 1e-12) + 1e-12) << window << " " << x << "," << y;
        EXPECT_LE(objective(v2, o2[i]), b2 * (1 + 1e-12) + 1e-12) << window << " " << x << "," << y;
      }
  }
}

// A zero occlusion cost everywhere (o = 1) gives exactly the weights without the factor: the
// results equal the plain weighted median's bit for bit (float and double, every window).
template <class Real>
void check_zero_cost_is_identity() {
  const int w = 17, h = 11;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> flow(-3, 3), grey(0, 255);
  std::vector<Real> u1, u2, g, q(std::size_t(w * h), Real(0));
  for (int i = 0; i < w * h; ++i) {
    u1.push_back(Real(flow(rng)));
    u2.push_back(Real(flow(rng)));
    g.push_back(Real(grey(rng)));
  }
  for (int window : {3, 5, 7, 9, 11}) {
    std::vector<Real> a1, a2, b1, b2;
    weighted_median_filter(u1, u2, g, w, h, window, 2.0, 9.0, &a1, &a2);
    weighted_median_filter(u1, u2, g, w, h, window, 2.0, 9.0, &b1, &b2, &q);
    EXPECT_EQ(std::memcmp(a1.data(), b1.data(), a1.size() * sizeof(Real)), 0) << window;
    EXPECT_EQ(std::memcmp(a2.data(), b2.data(), a2.size() * sizeof(Real)), 0) << window;
  }
}

TEST(Occlusion, ZeroCostEqualsNoOcclusionBitForBit) {
  check_zero_cost_is_identity<double>();
  check_zero_cost_is_identity<float>();
}

// The weight's exponent is capped (kMaxOccludedWeightExponent): a centre far more occluded than
// its neighbours gives finite weights.
TEST(Occlusion, WeightIsFiniteForAVeryOccludedCentre) {
  const float wf = weighted_median_weight_occluded<float>(1, 0, 0.f, -1e6f, 0.5f, 0.01f);
  EXPECT_TRUE(std::isfinite(wf));
  EXPECT_EQ(wf, std::exp(80.f));
  EXPECT_EQ(weighted_median_weight_occluded<double>(0, 0, 0.0, 0.0, 0.5, 0.01), 1.0);
}

using test::textured;

// In the driver: off (the default) ignores its sigmas, bit for bit; on changes the flow; bad
// sigmas are rejected only when on; the config round trip (absent = off, 2 rejected).
TEST(Occlusion, DriverParameter) {
  const Image i0 = textured(40, 32, 0, 3), i1 = textured(40, 32, 1.3, 3);
  Tvl1Params p;
  p.n_scales = 2;
  p.n_warpings = 2;
  p.iterations = 15;
  p.nl_median_window = 5;
  p.nl_sigma_spatial = 3;
  p.nl_sigma_color = 7;
  const FlowField base = tvl1_reference(i0, i1, p);
  Tvl1Params off = p;
  off.nl_sigma_divergence = -1;  // ignored while nl_occlusion is off
  off.nl_sigma_residual = 3;
  const FlowField same = tvl1_reference(i0, i1, off);
  EXPECT_EQ(std::memcmp(base.u.data(), same.u.data(), base.u.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(base.v.data(), same.v.data(), base.v.size() * sizeof(float)), 0);
  Tvl1Params on = p;
  on.nl_occlusion = true;
  const FlowField occl = tvl1_reference(i0, i1, on);
  double changed = 0;
  for (std::size_t i = 0; i < base.size(); ++i)
    changed = std::max(changed, double(std::fabs(occl.u[i] - base.u[i])));
  EXPECT_GT(changed, 1e-4);
  on.nl_sigma_divergence = 0;
  EXPECT_THROW(tvl1_reference(i0, i1, on), std::invalid_argument);

  Config c;
  c.params = param_values_of(Tvl1Params{});
  EXPECT_FALSE(tvl1_params_of(c).nl_occlusion);
  c.params.erase("nl_occlusion");
  c.params.erase("nl_sigma_divergence");
  c.params.erase("nl_sigma_residual");
  const Tvl1Params absent = tvl1_params_of(c);
  EXPECT_FALSE(absent.nl_occlusion);
  EXPECT_EQ(absent.nl_sigma_divergence, 0.3);
  EXPECT_EQ(absent.nl_sigma_residual, 20.0);
  c.params["nl_occlusion"] = 1;
  EXPECT_TRUE(tvl1_params_of(c).nl_occlusion);
  c.params["nl_occlusion"] = 2;
  EXPECT_THROW(tvl1_params_of(c), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
