// The CPU references of block matching and Lucas-Kanade (kernels/localflow/): hand-computed
// pyramid values, exact recovery of known synthetic motions, and accuracy against the
// Middlebury ground truth on crops (bounds set from measured values, README "Local flow").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cuda/bm_core.cuh"
#include "kernels/localflow/block_matching.hpp"
#include "kernels/localflow/lucas_kanade.hpp"
#include "kernels/localflow/pyramid.hpp"
#include "kernels/metrics.hpp"
#include "tests/localflow/localflow_test_data.hpp"

namespace flowtune::localflow {
namespace {

TEST(LocalFlowPyramid, BoxMeansWithClampedOddEdges) {
  Image f(3, 3);
  for (int i = 0; i < 9; ++i) f.data[std::size_t(i)] = float(i);  // rows 0 1 2 / 3 4 5 / 6 7 8
  const std::vector<Image> p = build_pyramid(f, 3);
  ASSERT_EQ(p.size(), 3u);
  ASSERT_EQ(p[1].width, 2);
  ASSERT_EQ(p[1].height, 2);
  EXPECT_FLOAT_EQ(p[1].at(0, 0), (0 + 1 + 3 + 4) / 4.f);
  EXPECT_FLOAT_EQ(p[1].at(1, 0), (2 + 2 + 5 + 5) / 4.f);  // last column clamped
  EXPECT_FLOAT_EQ(p[1].at(0, 1), (6 + 7 + 6 + 7) / 4.f);  // last row clamped
  EXPECT_FLOAT_EQ(p[1].at(1, 1), 8.f);
  ASSERT_EQ(p[2].width, 1);
  EXPECT_FLOAT_EQ(p[2].at(0, 0), (2 + 3.5f + 6.5f + 8) / 4.f);
  EXPECT_THROW(build_pyramid(f, 0), std::invalid_argument);
}

TEST(BlockMatchingCost, NccIsThePearsonCorrelationOfTheBlocks) {
  const float a[4] = {1, 2, 3, 5}, b[4] = {2, 1, 7, 9};
  const auto ra = [&](int x, int y) { return a[y * 2 + x]; };
  const auto rb = [&](int x, int y) { return b[y * 2 + x]; };
  // By hand: means 2.75 and 4.75; sum of the products of the deviations 17.75; sums of
  // their squares 8.75 and 44.75.
  const double ncc = 17.75 / std::sqrt(8.75 * 44.75);
  EXPECT_NEAR(ftflow::bm_cost(ra, rb, 2, 2, ftflow::kBmNcc), -ncc, 1e-6);
  EXPECT_FLOAT_EQ(ftflow::bm_cost(ra, rb, 2, 2, ftflow::kBmSad), 1 + 1 + 4 + 4);
  EXPECT_FLOAT_EQ(ftflow::bm_cost(ra, rb, 2, 2, ftflow::kBmSsd), 1 + 1 + 16 + 16);
  const float flat[4] = {3, 3, 3, 3};
  const auto rf = [&](int x, int y) { return flat[y * 2 + x]; };
  EXPECT_EQ(ftflow::bm_cost(ra, rf, 2, 2, ftflow::kBmNcc), 0.f);  // flat block: no correlation
}

TEST(BlockMatchingCost, TiesGoToTheCandidateNearestThePrediction) {
  std::vector<float> costs(25, 1.f);                // radius 2: every candidate ties
  EXPECT_EQ(ftflow::bm_best(costs.data(), 2), 12);  // the centre, offset (0, 0)
  costs[3] = 0.5f;
  EXPECT_EQ(ftflow::bm_best(costs.data(), 2), 3);
  EXPECT_FLOAT_EQ(ftflow::bm_parabola(2.f, 1.f, 2.f), 0.f);
  // Through (-1, 3), (0, 1), (1, 2): 1.5 t^2 - 0.5 t + 1, vertex at t = 1/6.
  EXPECT_FLOAT_EQ(ftflow::bm_parabola(3.f, 1.f, 2.f), 1.f / 6.f);
  EXPECT_FLOAT_EQ(ftflow::bm_parabola(1.f, 1.f, 1.f), 0.f);  // flat: not convex
}

/// Largest endpoint error over the pixels at least `margin` from the border.
double interior_max_error(const FlowField& f, double u, double v, int margin) {
  double worst = 0;
  for (int y = margin; y < f.height - margin; ++y)
    for (int x = margin; x < f.width - margin; ++x) {
      const std::size_t i = std::size_t(y) * f.width + x;
      worst = std::max(worst, std::hypot(f.u[i] - u, f.v[i] - v));
    }
  return worst;
}

/// Mean endpoint error over the pixels at least `margin` from the border.
double interior_mean_error(const FlowField& f, double u, double v, int margin) {
  double sum = 0;
  std::size_t n = 0;
  for (int y = margin; y < f.height - margin; ++y)
    for (int x = margin; x < f.width - margin; ++x, ++n) {
      const std::size_t i = std::size_t(y) * f.width + x;
      sum += std::hypot(f.u[i] - u, f.v[i] - v);
    }
  return sum / double(n);
}

TEST(BlockMatching, RecoversAnIntegerTranslationExactlyWithEverySimilarity) {
  const Image i0 = test::smooth_frame(96, 80, 0, 0), i1 = test::smooth_frame(96, 80, 3, -2);
  for (int similarity : {0, 1, 2}) {
    const FlowField f = block_matching(i0, i1, {2, 8, 3, similarity, 0});
    EXPECT_EQ(interior_max_error(f, 3, -2, 16), 0) << "similarity " << similarity;
  }
}

TEST(BlockMatching, SubpixelRefinementFollowsAFractionalTranslation) {
  const Image i0 = test::smooth_frame(96, 80, 0, 0), i1 = test::smooth_frame(96, 80, 1.5, 0.25);
  const FlowField integer = block_matching(i0, i1, {2, 8, 3, 2, 0});
  const FlowField refined = block_matching(i0, i1, {2, 8, 3, 2, 1});
  const double e_integer = interior_mean_error(integer, 1.5, 0.25, 16);
  const double e_refined = interior_mean_error(refined, 1.5, 0.25, 16);
  EXPECT_GE(e_integer, 0.25);  // integer candidates are at least 0.25 px from (1.5, 0.25)
  EXPECT_LT(e_refined, 0.3);   // measured 0.234 (integer: 0.405)
  EXPECT_LT(e_refined, e_integer);
}

TEST(LucasKanade, RecoversASubpixelTranslation) {
  const Image i0 = test::smooth_frame(96, 80, 0, 0), i1 = test::smooth_frame(96, 80, 0.4, -0.3);
  // Measured mean (max) errors: box 0.026 (0.079), Gaussian 0.046 (0.148); the residue is
  // the bilinear sampling of I1 and the central differences on a 2-level box pyramid.
  const double mean_bound[2] = {0.035, 0.06};
  for (int weighting : {0, 1}) {
    const FlowField f = lucas_kanade(i0, i1, {2, 9, 5, weighting});
    EXPECT_LT(interior_mean_error(f, 0.4, -0.3, 12), mean_bound[weighting]) << weighting;
    EXPECT_LT(interior_max_error(f, 0.4, -0.3, 12), 0.2) << "weighting " << weighting;
  }
}

struct CropCase {
  const char* sequence;
  double bm_bound, lk_bound;
};

TEST(LocalFlowAccuracy, MiddleburyCropsAgainstGroundTruth) {
  // 192 x 144 crops at (200, 150), default parameters. Measured AEPE (zero flow, BM, LK):
  // RubberWhale 1.422, 0.532, 0.518; Grove2 3.538, 0.486, 0.808. Bounds: about 1.2x.
  for (const CropCase& c : {CropCase{"RubberWhale", 0.65, 0.65}, CropCase{"Grove2", 0.6, 0.95}}) {
    const test::FramePair f =
        test::load_pair(test::repo_middlebury_dir(), c.sequence, 200, 150, 192, 144);
    const double zero = flow_error(FlowField(192, 144), f.gt).aepe;
    const double bm = flow_error(block_matching(f.i0, f.i1, BmParams{}), f.gt).aepe;
    const double lk = flow_error(lucas_kanade(f.i0, f.i1, LkParams{}), f.gt).aepe;
    EXPECT_LT(bm, c.bm_bound) << c.sequence;
    EXPECT_LT(lk, c.lk_bound) << c.sequence;
    EXPECT_LT(bm, 0.5 * zero) << c.sequence;
    EXPECT_LT(lk, 0.6 * zero) << c.sequence;
  }
}

TEST(LocalFlowParams, InvalidValuesAreNamed) {
  EXPECT_EQ(bm_params_invalid_reason(BmParams{}), std::nullopt);
  EXPECT_EQ(*bm_params_invalid_reason({4, 1, 4, 0, 1}), "block=1 outside [2, 64]");
  EXPECT_EQ(*bm_params_invalid_reason({4, 8, 4, 3, 1}),
            "similarity=3 outside {0 ncc, 1 sad, 2 ssd}");
  EXPECT_EQ(lk_params_invalid_reason(LkParams{}), std::nullopt);
  EXPECT_EQ(*lk_params_invalid_reason({3, 8, 3, 0}), "window=8 is even");
  EXPECT_EQ(*lk_params_invalid_reason({3, 17, 3, 0}), "window=17 outside [3, 15]");
  const Image a(8, 8), b(9, 8);
  EXPECT_THROW(block_matching(a, b, BmParams{}), std::invalid_argument);
  EXPECT_THROW(lucas_kanade(a, b, LkParams{}), std::invalid_argument);
}

TEST(LocalFlowHalf, RoundTripsEveryBinary16AndRoundsToNearestEven) {
  for (unsigned h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu)) continue;  // NaN
    ASSERT_EQ(ftflow::half_bits(ftflow::half_value((unsigned short)h)), h) << std::hex << h;
  }
  EXPECT_EQ(ftflow::half_bits(1.f), 0x3c00);
  EXPECT_EQ(ftflow::half_bits(65504.f), 0x7bff);         // the largest half
  EXPECT_EQ(ftflow::half_bits(65520.f), 0x7c00);         // halfway to 2^16: rounds to infinity
  EXPECT_EQ(ftflow::half_bits(0.1f), 0x2e66);            // 0.0999755859375
  EXPECT_EQ(ftflow::half_bits(2049.f), 0x6800);          // tie between 2048 and 2050: even 2048
  EXPECT_EQ(ftflow::half_bits(2051.f), 0x6802);          // tie between 2050 and 2052: even 2052
  EXPECT_EQ(ftflow::half_bits(-5.9604645e-8f), 0x8001);  // the smallest subnormal, negative
  EXPECT_EQ(ftflow::half_value(0x3555), 0.33325195f);
}

TEST(LucasKanade, F16StorageStaysCloseToF32) {
  const test::FramePair f =
      test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 200, 150, 192, 144);
  const FlowField a = lucas_kanade(f.i0, f.i1, LkParams{});
  const FlowField b = lucas_kanade(f.i0, f.i1, LkParams{}, LkStorage::f16);
  const double d = test::mean_endpoint_difference(a, b);
  EXPECT_GT(d, 0);     // the storage really is binary16
  EXPECT_LT(d, 0.02);  // intensities in [0, 255] keep 3 significant digits
  EXPECT_LT(std::fabs(flow_error(b, f.gt).aepe - flow_error(a, f.gt).aepe), 0.01);
}

TEST(LucasKanade, GaussianTapsFollowTheStatedRule) {
  const std::vector<float> box = lk_window_taps({3, 5, 3, 0});
  EXPECT_EQ(box, std::vector<float>(5, 1.f));
  const std::vector<float> g = lk_window_taps({3, 5, 3, 1});
  ASSERT_EQ(g.size(), 5u);
  const double s = 0.3 * (2 - 1) + 0.8;  // r = 2
  EXPECT_FLOAT_EQ(g[2], 1.f);
  EXPECT_FLOAT_EQ(g[0], float(std::exp(-4 / (2 * s * s))));
  EXPECT_FLOAT_EQ(g[3], float(std::exp(-1 / (2 * s * s))));
}

}  // namespace
}  // namespace flowtune::localflow
