// The register selection of the weighted median (kernels/weighted_median.hpp: a stable
// odd-even transposition sort on fixed indices, then the running sum) against a plain
// implementation, the oracle (tests/kernels/weighted_median_oracle.hpp: an
// insertion sort of (value, weight) pairs by value and the same running sum). Both are stable sorts
// followed by the same additions in the same order, so the results must be equal bit for bit
// (float and double), on windows with ties, signed zeros, equal and zero weights and running
// sums that meet half the total exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/weighted_median.hpp"
#include "tests/kernels/weighted_median_oracle.hpp"

namespace flowtune {
namespace {

using test::sorting_select;

// The oracle's filter: sorting_px at every pixel (tests/kernels/weighted_median_oracle.hpp).
template <class Real>
void sorting_filter(const std::vector<Real>& u1, const std::vector<Real>& u2,
                    const std::vector<Real>& g, int w, int h, int window, Real ss, Real sc,
                    std::vector<Real>* o1, std::vector<Real>* o2) {
  o1->assign(u1.size(), 0);
  o2->assign(u2.size(), 0);
  const auto flow = [&](int i, int j, int c) { return (c ? u2 : u1)[std::size_t(j) * w + i]; };
  const auto guide = [&](int i, int j) { return g[std::size_t(j) * w + i]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      test::sorting_px<Real, kMaxNlMedianWindow>(flow, guide, w, h, x, y, window, ss, sc, &(*o1)[i],
                                                 &(*o2)[i]);
    }
}

template <class Real>
bool same_bits(Real a, Real b) {
  return std::memcmp(&a, &b, sizeof(Real)) == 0;
}

// One random window of n samples; `kind` picks the weights: 0 random in (0, 2], 1 all equal,
// 2 dyadic (0.25, 0.5, 1: running sums are exact, so they meet half the total exactly), 3 with
// zeros, 4 of the filter's form exp(-t) with t up to 700 (tiny and underflowing weights).
template <class Real>
void random_window(std::mt19937& rng, int n, int kind, std::vector<Real>* v, std::vector<Real>* w) {
  std::uniform_int_distribution<int> level(-4, 4), pick(0, 3);
  std::uniform_real_distribution<double> u01(0, 1);
  v->resize(std::size_t(n));
  w->resize(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    const int l = level(rng);
    // Few distinct values (ties), both signed zeros, and some unrounded ones.
    Real x = l == 0 ? (pick(rng) % 2 ? Real(-0.0) : Real(0.0)) : Real(l) / 4;
    if (pick(rng) == 0) x = Real(8 * u01(rng) - 4);
    (*v)[std::size_t(i)] = x;
    Real wt = Real(2 * u01(rng) + 1e-3);
    if (kind == 1) wt = 1;
    if (kind == 2) wt = Real(0.25) * Real(1 << pick(rng) % 3);
    if (kind == 3 && pick(rng) == 0) wt = 0;
    if (kind == 4) wt = Real(std::exp(-700 * u01(rng) * u01(rng)));
    (*w)[std::size_t(i)] = wt;
  }
  if (kind == 3) (*w)[std::size_t(n) / 2] = 1;  // the sum stays > 0
}

template <class Real, int N>
void check_select_equals_sorting(unsigned seed, int trials) {
  std::mt19937 rng(seed);
  int mismatches = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<Real> v, w;
    random_window(rng, N, t % 5, &v, &w);
    std::vector<Real> v1 = v, w1 = w, v2 = v, w2 = w;
    const Real want = sorting_select(v.data(), w.data(), N);
    const Real fixed = weighted_median_select<Real, N>(v1.data(), w1.data());
    const Real runtime = weighted_median_select(v2.data(), w2.data(), N);
    if (!same_bits(fixed, want) || !same_bits(runtime, want)) ++mismatches;
    if (t < 3 || !same_bits(fixed, want)) {
      // The sorted pairs themselves: the same stable order.
      ASSERT_EQ(std::memcmp(v1.data(), v.data(), N * sizeof(Real)), 0) << "trial " << t;
      ASSERT_EQ(std::memcmp(w1.data(), w.data(), N * sizeof(Real)), 0) << "trial " << t;
    }
  }
  EXPECT_EQ(mismatches, 0) << "N = " << N << ", " << trials << " windows";
}

// Every window size of the filter (3 x 3 .. 11 x 11) and a few small counts, in float and
// double: 1000 windows each (200 of each weight kind), equal to the oracle bit for bit.
TEST(WeightedMedianOracle, SelectionEqualsTheSortingImplementation) {
  check_select_equals_sorting<float, 9>(1, 1000);
  check_select_equals_sorting<float, 25>(2, 1000);
  check_select_equals_sorting<float, 49>(3, 1000);
  check_select_equals_sorting<float, 81>(4, 1000);
  check_select_equals_sorting<float, 121>(5, 1000);
  check_select_equals_sorting<double, 9>(6, 1000);
  check_select_equals_sorting<double, 25>(7, 1000);
  check_select_equals_sorting<double, 49>(8, 1000);
  check_select_equals_sorting<double, 81>(9, 1000);
  check_select_equals_sorting<double, 121>(10, 1000);
  check_select_equals_sorting<double, 1>(11, 100);
  check_select_equals_sorting<double, 2>(12, 100);
  check_select_equals_sorting<float, 4>(13, 100);
}

// The cumulative-weight formulation W_le(x_i) = sum_{j: x_j <= x_i} w_j, summed in input order
// (the smallest x_i with W_le(x_i) >= half): the same weighted median in exact arithmetic, but
// not in float where the sums meet half at the rounding level.
float cumulative_weight_select(const std::vector<float>& v, const std::vector<float>& w) {
  float total = 0;
  for (float x : w) total += x;
  const float half = total / 2;
  float best = v[0];
  bool have = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    float s = 0;
    for (std::size_t j = 0; j < v.size(); ++j)
      if (v[j] <= v[i]) s += w[j];
    if (s >= half && (!have || v[i] < best)) {
      best = v[i];
      have = true;
    }
  }
  return best;
}

// By hand, where the order of the additions decides: v = 3 2 1 4, w = 2^-24 2^-24 1 (1 +
// 2^-23). total (input order) = 2 + 2^-22 exactly, half = 1 + 2^-23. Sorted: 1 (1), 2 (2^-24),
// 3 (2^-24), 4: running sums 1, 1 + 2^-24 -> 1 (rounds to even), 1 -> none reaches half before
// the last: 4. W_le(3) in input order = 2^-24 + 2^-24 + 1 = 1 + 2^-23 >= half: 3. The selection
// keeps the sorted order's sums: 4, like the oracle. Signed zeros: v = +0 -0 1, w = 1 1 1,
// half 1.5: the stable order +0, -0, 1 reaches 2 at -0: -0 (an unstable sort would give +0).
TEST(WeightedMedianOracle, SummationOrderAndTiesByHand) {
  const float e = std::ldexp(1.f, -24);
  const std::vector<float> v = {3, 2, 1, 4}, w = {e, e, 1, 1 + 2 * e};
  std::vector<float> v0 = v, w0 = w, v1 = v, w1 = w;
  EXPECT_EQ(sorting_select(v0.data(), w0.data(), 4), 4.f);
  EXPECT_EQ((weighted_median_select<float, 4>(v1.data(), w1.data())), 4.f);
  EXPECT_EQ(cumulative_weight_select(v, w), 3.f);  // the formulation the test must tell apart
  std::vector<float> z = {0.f, -0.f, 1.f}, zw = {1, 1, 1};
  const float m = weighted_median_select<float, 3>(z.data(), zw.data());
  EXPECT_TRUE(std::signbit(m)) << "the stable order returns the -0 sample";
  std::vector<float> z0 = {0.f, -0.f, 1.f}, zw0 = {1, 1, 1};
  EXPECT_TRUE(same_bits(m, sorting_select(z0.data(), zw0.data(), 3)));
}

// The filter (weighted_median_filter -> weighted_median_px_window, one component at a time,
// weights recomputed) against the oracle's filter on a random field with quantised flow
// (ties), a quantised guide (equal weights) and clamped borders: every pixel equal, bit for bit.
template <class Real>
void check_filter_equals_sorting(unsigned seed) {
  const int w = 23, h = 17;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> q(-6, 6), gq(0, 12);
  std::uniform_real_distribution<double> u01(0, 1);
  std::vector<Real> u1(std::size_t(w * h)), u2(u1.size()), g(u1.size());
  for (std::size_t i = 0; i < u1.size(); ++i) {
    u1[i] = i % 7 ? Real(q(rng)) / 2 : Real(6 * u01(rng) - 3);
    u2[i] = Real(q(rng)) / 4;
    g[i] = Real(20 * gq(rng));
  }
  for (int window : {3, 5, 7, 9, 11})
    for (double sc : {7.0, 40.0}) {
      std::vector<Real> o1, o2, e1, e2;
      weighted_median_filter(u1, u2, g, w, h, window, 2.0, sc, &o1, &o2);
      sorting_filter(u1, u2, g, w, h, window, Real(2.0), Real(sc), &e1, &e2);
      int off = 0;
      for (std::size_t i = 0; i < u1.size(); ++i)
        if (!same_bits(o1[i], e1[i]) || !same_bits(o2[i], e2[i])) ++off;
      EXPECT_EQ(off, 0) << "window " << window << ", sigma_color " << sc;
    }
}

TEST(WeightedMedianOracle, FilterEqualsTheSortingImplementation) {
  check_filter_equals_sorting<float>(15);
  check_filter_equals_sorting<double>(16);
}

}  // namespace
}  // namespace flowtune
