// The CPU reference of flow from tracked features (kernels/localflow/features.hpp, Kim,
// Hwangbo and Kanade sec. 4): the exp of the likelihoods against std::exp, Shi-Tomasi corners
// of a drawn square, the KLT on a known sub-pixel translation, methods 1 and 2 on hand-made
// features and on a known translation, and accuracy against Middlebury ground truth on crops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/localflow/features.hpp"
#include "kernels/metrics.hpp"
#include "tests/localflow/localflow_test_data.hpp"

namespace flowtune::localflow {
namespace {

TEST(FeatureFlowMath, ExpNegMatchesStdExp) {
  EXPECT_EQ(ftflow::exp_neg(0.f), 1.f);
  EXPECT_EQ(ftflow::exp_neg(-100.f), 0.f);
  double worst = 0;
  for (float x = 0; x > -80; x -= 0.0173f)
    worst = std::max(worst, std::fabs(ftflow::exp_neg(x) / std::exp(double(x)) - 1));
  EXPECT_LT(worst, 5e-6);  // the float rounding of x / ln 2 dominates at x = -80
}

TEST(FeatureFlowMath, InterpolationIsTheLikelihoodWeightedMean) {
  // Two features at equal intensity, 3 px and 5 px from the pixel (s_s = 4): weights
  // exp(-9/32) and exp(-25/32), by hand.
  const ftflow::Feature fs[2] = {{13, 10, 100, 1, 0}, {5, 10, 100, 3, 2}};
  float u = 0, v = 0;
  const float inv2ss = 1.f / 32, inv2sc = 1.f / 50;
  ftflow::feat_interpolate(fs, 2, 10, 10, 100, inv2ss, inv2sc, &u, &v);
  const double w1 = std::exp(-9.0 / 32), w2 = std::exp(-25.0 / 32);
  EXPECT_NEAR(u, (w1 * 1 + w2 * 3) / (w1 + w2), 1e-5);
  EXPECT_NEAR(v, (w2 * 2) / (w1 + w2), 1e-5);
  // An intensity 10 levels away (s_c = 5) divides the first weight by exp(2).
  const ftflow::Feature dark[2] = {{13, 10, 110, 1, 0}, {5, 10, 100, 3, 2}};
  ftflow::feat_interpolate(dark, 2, 10, 10, 100, inv2ss, inv2sc, &u, &v);
  const double d1 = w1 * std::exp(-2.0);
  EXPECT_NEAR(u, (d1 * 1 + w2 * 3) / (d1 + w2), 1e-5);
}

TEST(FeatureFlowCorners, FindTheCornersOfADrawnSquare) {
  Image f(64, 48, 20.f);
  for (int y = 14; y < 34; ++y)
    for (int x = 20; x < 44; ++x) f.at(x, y) = 200.f;
  const std::vector<Corner> cs = shi_tomasi_corners(f, 4);
  ASSERT_EQ(cs.size(), 4u);
  for (const auto& [cx, cy] :
       std::vector<std::pair<int, int>>{{20, 14}, {43, 14}, {20, 33}, {43, 33}})
    EXPECT_TRUE(std::any_of(
        cs.begin(), cs.end(),
        [&](const Corner& c) { return std::abs(c.x - cx) <= 2 && std::abs(c.y - cy) <= 2; }))
        << cx << "," << cy;
  EXPECT_TRUE(shi_tomasi_corners(Image(32, 32, 7.f), 10).empty());  // flat: no corner
}

TEST(FeatureFlowKlt, TracksASubpixelTranslation) {
  const Image i0 = test::smooth_frame(128, 96, 0, 0), i1 = test::smooth_frame(128, 96, 1.3, -0.7);
  const std::vector<ftflow::Feature> fs = track_corners(i0, i1, shi_tomasi_corners(i0, 60));
  ASSERT_GE(fs.size(), 20u);
  std::vector<double> err;
  for (const auto& f : fs)
    if (f.x >= 16 && f.y >= 16 && f.x < 112 && f.y < 80)
      err.push_back(std::hypot(f.u - 1.3, f.v + 0.7));
  ASSERT_GE(err.size(), 10u);
  std::sort(err.begin(), err.end());
  EXPECT_LT(err[err.size() / 2], 0.05);  // median; measured 0.01 to 0.02
}

TEST(FeatureFlow, BothMethodsRecoverAnIntegerTranslation) {
  const Image i0 = test::smooth_frame(128, 96, 0, 0), i1 = test::smooth_frame(128, 96, 2, -1);
  for (int method : {1, 2}) {
    FeatParams p;
    p.method = method;
    const FeatureFlow r = feature_flow(i0, i1, p);
    double err = 0;
    std::size_t n = 0;
    for (int y = 16; y < 80; ++y)
      for (int x = 16; x < 112; ++x, ++n) {
        const std::size_t i = std::size_t(y) * 128 + x;
        err += std::hypot(r.flow.u[i] - 2.0, r.flow.v[i] + 1.0);
      }
    EXPECT_LT(err / double(n), 0.05) << "method " << method;
    EXPECT_LT(double(r.unclassified) / double(r.flow.size()), 0.05) << "method " << method;
  }
}

TEST(FeatureFlow, MiddleburyCropsAgainstGroundTruth) {
  // 192 x 144 crops at (200, 150), default parameters. Measured AEPE (zero flow, method 1,
  // method 2): RubberWhale 1.422, 0.433, 0.413; Grove2 3.538, 0.714, 0.759. Bounds ~1.2x.
  struct Case {
    const char* sequence;
    double bound1, bound2;
  };
  for (const Case& c : {Case{"RubberWhale", 0.52, 0.5}, Case{"Grove2", 0.86, 0.91}}) {
    const test::FramePair f =
        test::load_pair(test::repo_middlebury_dir(), c.sequence, 200, 150, 192, 144);
    const double zero = flow_error(FlowField(192, 144), f.gt).aepe;
    FeatParams p;
    p.method = 1;
    const double m1 = flow_error(feature_flow(f.i0, f.i1, p).flow, f.gt).aepe;
    p.method = 2;
    const double m2 = flow_error(feature_flow(f.i0, f.i1, p).flow, f.gt).aepe;
    EXPECT_LT(m1, c.bound1) << c.sequence;
    EXPECT_LT(m2, c.bound2) << c.sequence;
    EXPECT_LT(m1, 0.5 * zero) << c.sequence;
    EXPECT_LT(m2, 0.5 * zero) << c.sequence;
  }
}

TEST(FeatureFlow, InvalidParametersAreNamed) {
  FeatParams p;
  EXPECT_EQ(feat_params_invalid_reason(p), std::nullopt);
  p.method = 3;
  EXPECT_NE(feat_params_invalid_reason(p)->find("method=3"), std::string::npos);
  p = FeatParams{};
  p.sigma_space = 0;
  EXPECT_NE(feat_params_invalid_reason(p)->find("sigma_space"), std::string::npos);
  EXPECT_THROW(feature_flow(Image(8, 8), Image(9, 8), FeatParams{}), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune::localflow
