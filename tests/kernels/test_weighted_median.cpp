// The weighted non-local median of the flow (kernels/weighted_median.hpp; Sun, Roth, Black 2010,
// sec. 4) against hand-computed weighted medians, the definition (the minimiser of
// sum_j w_j |m - v_j|, by brute force), the plain median (equal weights) and its place in the
// multiscale driver (after each warping, guided by the level's I0).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/image_ops.hpp"
#include "kernels/median_filter.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "kernels/weighted_median.hpp"
#include "tests/kernels/textured_image.hpp"

namespace flowtune {
namespace {

double select(std::vector<double> v, std::vector<double> w) {
  return weighted_median_select(v.data(), w.data(), int(v.size()));
}

// By hand: sorted (value: weight), total, half, the first value whose running sum >= half.
TEST(WeightedMedian, HandComputedSelections) {
  // 1: 1, 2: 5, 3: 1; total 7, half 3.5; sums 1, 6 -> 2.
  EXPECT_EQ(select({3, 1, 2}, {1, 1, 5}), 2);
  // 0: 1, 5: 1, 7: 1, 10: 4; total 7, half 3.5; sums 1, 2, 3, 7 -> 10 (the plain median is 6).
  EXPECT_EQ(select({10, 0, 5, 7}, {4, 1, 1, 1}), 10);
  // equal weights, n odd: the plain median.
  EXPECT_EQ(select({4, -1, 9, 2, 7}, {2, 2, 2, 2, 2}), 4);
  // exactly half at 1 (1 of 2): the lower one.
  EXPECT_EQ(select({2, 1}, {1, 1}), 1);
  // a zero weight does not count: 1: 0, 2: 1, 3: 1; half 1 -> 2.
  EXPECT_EQ(select({1, 2, 3}, {0, 1, 1}), 2);
}

// The independent oracle: the definition, min over candidate m of sum_j w_j |m - v_j| (one of
// the values minimises it); the selection's objective equals the minimum.
TEST(WeightedMedian, MinimisesTheWeightedL1Objective) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> val(-5, 5), wt(0.01, 2);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 49;
    std::vector<double> v(static_cast<std::size_t>(n)), w(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      v[std::size_t(i)] = std::round(val(rng) * 4) / 4;  // ties happen
      w[std::size_t(i)] = wt(rng);
    }
    auto objective = [&](double m) {
      double s = 0;
      for (int i = 0; i < n; ++i) s += w[std::size_t(i)] * std::fabs(m - v[std::size_t(i)]);
      return s;
    };
    double best = objective(v[0]);
    for (double c : v) best = std::min(best, objective(c));
    const double m = select(v, w);
    EXPECT_LE(objective(m), best * (1 + 1e-12) + 1e-12) << "trial " << trial;
  }
}

// 3 x 3 field, centre (1, 1). Guide: columns 0 and 1 at 0, column 2 at 100 (an edge);
// u1 = 1 1 9 / 2 9 9 / 3 9 9 (rows). sigma_spatial huge (spatial weights 1), sigma_color 10:
// column 2 weighs exp(-100^2 / 200) = exp(-50) ~ 2e-22, the others 1. By hand: values of
// columns 0-1 sorted 1 1 2 3 9 9, total 6 (+ 3 exp(-50)), half 3: sums 1 2 3 -> 2; the plain
// 3x3 median is 9. u2 = -u1: sorted -9 (x5, weight 2 + 3 exp(-50)), -3, ...: sums 2, 3 -> -3.
TEST(WeightedMedian, AnImageEdgeSeparatesTheFlow) {
  const std::vector<double> guide = {0, 0, 100, 0, 0, 100, 0, 0, 100};
  const std::vector<double> u1 = {1, 1, 9, 2, 9, 9, 3, 9, 9};
  std::vector<double> u2(u1.size());
  for (std::size_t i = 0; i < u1.size(); ++i) u2[i] = -u1[i];
  std::vector<double> o1, o2;
  weighted_median_filter(u1, u2, guide, 3, 3, 3, 1e12, 10.0, &o1, &o2);
  EXPECT_EQ(o1[4], 2);
  EXPECT_EQ(o2[4], -3);
  EXPECT_EQ(median_filter(u1, 3, 3, 3)[4], 9);
}

// Spatial weights alone (constant guide, sigma_spatial 1): centre 1, edge neighbours
// exp(-1/2) = 0.6065, corners exp(-1) = 0.3679. u1 = 10 0 10 / 0 5 0 / 10 10 10: value 0 weighs
// 3 x 0.6065 = 1.8196, 5 weighs 1, 10 weighs 4 x 0.3679 + 0.6065 = 2.0781; total 4.8977, half
// 2.4489; sums 1.8196, 2.8196 -> 5. With equal weights (sigma_spatial huge) the plain median 10.
TEST(WeightedMedian, SpatialWeightsByHand) {
  const std::vector<double> guide(9, 50.0);
  const std::vector<double> u1 = {10, 0, 10, 0, 5, 0, 10, 10, 10};
  std::vector<double> o1, o2;
  weighted_median_filter(u1, u1, guide, 3, 3, 3, 1.0, 1e12, &o1, &o2);
  EXPECT_EQ(o1[4], 5);
  EXPECT_EQ(o2[4], 5);
  weighted_median_filter(u1, u1, guide, 3, 3, 3, 1e12, 1e12, &o1, &o2);
  EXPECT_EQ(o1[4], 10);
}

// With every weight 1 (both sigmas huge) the weighted median is the plain median, border
// clamping included (the same clamp-to-edge windows as median_filter).
TEST(WeightedMedian, EqualWeightsGiveThePlainMedian) {
  const int w = 9, h = 7;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> val(-3, 3);
  std::vector<double> u1(std::size_t(w * h)), u2(u1.size()), guide(u1.size());
  for (std::size_t i = 0; i < u1.size(); ++i) {
    u1[i] = val(rng);
    u2[i] = val(rng);
    guide[i] = 100 * val(rng);
  }
  for (int window : {3, 5}) {
    std::vector<double> o1, o2;
    weighted_median_filter(u1, u2, guide, w, h, window, 1e12, 1e12, &o1, &o2);
    EXPECT_EQ(o1, median_filter(u1, w, h, window)) << window;
    EXPECT_EQ(o2, median_filter(u2, w, h, window)) << window;
  }
}

TEST(WeightedMedian, BadParametersThrow) {
  const std::vector<double> p(12, 1.0);
  std::vector<double> o1, o2;
  weighted_median_filter(p, p, p, 4, 3, 0, 7, 7, &o1, &o2);  // 0: a copy
  EXPECT_EQ(o1, p);
  EXPECT_THROW(weighted_median_filter(p, p, p, 4, 3, 4, 7, 7, &o1, &o2), std::invalid_argument);
  EXPECT_THROW(weighted_median_filter(p, p, p, 4, 3, 1, 7, 7, &o1, &o2), std::invalid_argument);
  EXPECT_THROW(weighted_median_filter(p, p, p, 4, 3, 13, 7, 7, &o1, &o2), std::invalid_argument);
  EXPECT_THROW(weighted_median_filter(p, p, p, 4, 3, 3, 0, 7, &o1, &o2), std::invalid_argument);
  EXPECT_THROW(weighted_median_filter(p, p, p, 5, 3, 3, 7, 7, &o1, &o2), std::invalid_argument);
}

using test::textured;

// On one scale with one warping the weighted median is the driver's last step, guided by the
// normalised, presmoothed I0: the flow with nl_median_window = 5 is the weighted median of the
// flow without it (to float rounding: the driver filters the double flow).
TEST(WeightedMedian, IsTheLastStepOfAMonoscaleWarping) {
  const int w = 24, h = 20;
  const Image i0 = textured(w, h, 0, 3), i1 = textured(w, h, 0.7, 3);
  Tvl1Params p;
  p.n_scales = 1;
  p.n_warpings = 1;
  p.iterations = 20;
  const FlowField plain = tvl1_reference(i0, i1, p);
  p.nl_median_window = 5;
  p.nl_sigma_spatial = 2;
  p.nl_sigma_color = 5;
  const FlowField filtered = tvl1_reference(i0, i1, p);
  Plane<double> a = plane_cast<double>(i0), b = plane_cast<double>(i1);
  normalize_pair(a, b);
  const Plane<double> guide = gaussian_smooth(a, p.presmoothing_sigma);
  const std::vector<double> u1(plain.u.begin(), plain.u.end()), u2(plain.v.begin(), plain.v.end());
  std::vector<double> o1, o2;
  weighted_median_filter(u1, u2, guide.data, w, h, 5, 2.0, 5.0, &o1, &o2);
  double max_diff = 0, changed = 0;
  for (std::size_t i = 0; i < o1.size(); ++i) {
    max_diff = std::max(max_diff, std::fabs(double(filtered.u[i]) - o1[i]));
    max_diff = std::max(max_diff, std::fabs(double(filtered.v[i]) - o2[i]));
    changed = std::max(changed, std::fabs(double(plain.u[i]) - o1[i]));
  }
  EXPECT_LT(max_diff, 1e-6);
  EXPECT_GT(changed, 1e-3);  // the filter did something on this input
}

TEST(WeightedMedian, DriverRejectsBadParameters) {
  const Image i0 = textured(16, 16, 0, 1), i1 = textured(16, 16, 0.5, 1);
  Tvl1Params p;
  p.nl_median_window = 6;
  EXPECT_THROW(tvl1_reference(i0, i1, p), std::invalid_argument);
  p.nl_median_window = 3;
  p.nl_sigma_color = -1;
  EXPECT_THROW(tvl1_reference(i0, i1, p), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
