// The median filter of the flow (kernels/median_filter.hpp; Wedel et al. 2009, sec. 3) against
// hand-computed medians, and its place in the multiscale driver (after each warping).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/median_filter.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "tests/kernels/textured_image.hpp"

namespace flowtune {
namespace {

// 4 x 3, row-major:  9 1  5  7 /  2 8 3 6 / 4 0 11 10.
const std::vector<double> kPlane = {9, 1, 5, 7, 2, 8, 3, 6, 4, 0, 11, 10};

// Hand-computed (clamp-to-edge windows, sorted by hand):
//  3x3 at (1,1): {9,1,5,2,8,3,4,0,11} -> 0 1 2 3 [4] 5 8 9 11 -> 4
//  3x3 at (0,0): {9,9,1, 9,9,1, 2,2,8} -> 1 1 2 2 [8] 9 9 9 9 -> 8
//  3x3 at (3,2): {3,6,6, 11,10,10, 11,10,10} -> 3 6 6 10 [10] 10 10 11 11 -> 10
//  3x3 at (2,1): {1,5,7,8,3,6,0,11,10} -> 0 1 3 5 [6] 7 8 10 11 -> 6
//  5x5 at (1,1): rows 0,0,1,2,2 x cols 0,0,1,2,3 -> 25 values, the 13th is 5
TEST(MedianFilter, HandComputedMedians) {
  const std::vector<double> m3 = median_filter(kPlane, 4, 3, 3);
  EXPECT_EQ(m3[1 * 4 + 1], 4);
  EXPECT_EQ(m3[0], 8);
  EXPECT_EQ(m3[2 * 4 + 3], 10);
  EXPECT_EQ(m3[1 * 4 + 2], 6);
  const std::vector<double> m5 = median_filter(kPlane, 4, 3, 5);
  EXPECT_EQ(m5[1 * 4 + 1], 5);
}

// The forgetful selection against a full sort (std::nth_element) on random values with ties,
// for the two sizes the filter uses and one more.
template <int N>
void check_select(std::mt19937& rng) {
  std::uniform_int_distribution<int> val(-6, 6);
  for (int trial = 0; trial < 500; ++trial) {
    double s[N];
    std::vector<double> sorted(N);
    for (int i = 0; i < N; ++i) sorted[std::size_t(i)] = s[i] = val(rng) * 0.5;
    std::nth_element(sorted.begin(), sorted.begin() + N / 2, sorted.end());
    ASSERT_EQ((median_select<double, N>(s)), sorted[std::size_t(N / 2)]) << N << " " << trial;
  }
}

TEST(MedianFilter, SelectionEqualsSorting) {
  std::mt19937 rng(5);
  check_select<3>(rng);
  check_select<9>(rng);
  check_select<25>(rng);
  check_select<49>(rng);
}

TEST(MedianFilter, OffCopiesAndBadWindowsThrow) {
  EXPECT_EQ(median_filter(kPlane, 4, 3, 0), kPlane);
  EXPECT_THROW(median_filter(kPlane, 4, 3, 4), std::invalid_argument);
  EXPECT_THROW(median_filter(kPlane, 4, 3, 7), std::invalid_argument);
  EXPECT_THROW(median_filter(kPlane, 5, 3, 3), std::invalid_argument);  // wrong shape
}

// Removes an isolated outlier completely (the property the flow filter is used for) and
// keeps a constant plane.
TEST(MedianFilter, RemovesAnImpulseKeepsConstants) {
  std::vector<float> p(7 * 6, 2.5f);
  EXPECT_EQ(median_filter(p, 7, 6, 5), p);
  p[3 * 7 + 3] = 100.f;
  const std::vector<float> m = median_filter(p, 7, 6, 3);
  for (float v : m) EXPECT_EQ(v, 2.5f);
}

using test::textured;

// On one scale with one warping the median is the driver's last step, so the flow with
// median_window = 3 is exactly the 3x3 median of the flow without it (each component; the
// float cast is monotone, so it commutes with the median).
TEST(MedianFilter, IsTheLastStepOfAMonoscaleWarping) {
  const Image i0 = textured(24, 20, 0, 3), i1 = textured(24, 20, 0.7, 3);
  Tvl1Params p;
  p.n_scales = 1;
  p.n_warpings = 1;
  p.iterations = 20;
  const FlowField plain = tvl1_reference(i0, i1, p);
  p.median_window = 3;
  const FlowField filtered = tvl1_reference(i0, i1, p);
  EXPECT_EQ(filtered.u, median_filter(plain.u, 24, 20, 3));
  EXPECT_EQ(filtered.v, median_filter(plain.v, 24, 20, 3));
  EXPECT_NE(filtered.u, plain.u);  // the filter did something on this input
}

TEST(MedianFilter, DriverRejectsBadParameters) {
  const Image i0 = textured(16, 16, 0, 1), i1 = textured(16, 16, 0.5, 1);
  Tvl1Params p;
  p.median_window = 4;
  EXPECT_THROW(tvl1_reference(i0, i1, p), std::invalid_argument);
  p.median_window = 0;
  p.epsilon_check_every = 0;
  EXPECT_THROW(tvl1_reference(i0, i1, p), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
