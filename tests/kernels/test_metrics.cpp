#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels/metrics.hpp"

namespace flowtune {
namespace {

TEST(Metrics, KnownFlowRule) {
  EXPECT_TRUE(is_known_flow(0.f, 0.f));
  EXPECT_TRUE(is_known_flow(-1e9f, 1e9f));
  EXPECT_FALSE(is_known_flow(1e10f, 0.f));
  EXPECT_FALSE(is_known_flow(0.f, -1666666752.f));
  EXPECT_FALSE(is_known_flow(std::numeric_limits<float>::quiet_NaN(), 0.f));
  EXPECT_FALSE(is_known_flow(0.f, std::numeric_limits<float>::infinity()));
}

TEST(Metrics, HandComputedAepeAaeWithUnknownPixelsExcluded) {
  // 2x2: pixel 0 exact, pixel 1 off by (3, 4), pixels 2 and 3 have unknown ground truth
  // (1e10 and NaN) and wildly wrong estimates that must not count.
  FlowField est(2, 2), gt(2, 2);
  est.u = {1.f, 3.f, 100.f, -50.f};
  est.v = {0.f, 4.f, 100.f, 7.f};
  gt.u = {1.f, 0.f, 1e10f, std::numeric_limits<float>::quiet_NaN()};
  gt.v = {0.f, 0.f, 0.f, 0.f};
  const FlowError e = flow_error(est, gt);
  EXPECT_EQ(e.n_valid, 2u);
  EXPECT_DOUBLE_EQ(e.aepe, (0.0 + 5.0) / 2.0);
  // Pixel 1: (3,4,1) vs (0,0,1): cos = 1 / sqrt(26).
  const double pi = std::acos(-1.0);
  const double ae1 = std::acos(1.0 / std::sqrt(26.0)) * 180.0 / pi;
  EXPECT_NEAR(e.aae_deg, (0.0 + ae1) / 2.0, 1e-9);
  EXPECT_NEAR(ae1, 78.69006752597979, 1e-9);  // independent value: atan(5) in degrees
}

TEST(Metrics, AngularErrorOfOppositeUnitFlows) {
  // (1,0,1) vs (-1,0,1): cos = 0 -> 90 degrees; EPE = 2.
  FlowField est(1, 1), gt(1, 1);
  est.u = {1.f};
  gt.u = {-1.f};
  const FlowError e = flow_error(est, gt);
  EXPECT_DOUBLE_EQ(e.aepe, 2.0);
  EXPECT_NEAR(e.aae_deg, 90.0, 1e-12);
}

TEST(Metrics, ThrowsOnSizeMismatchAndNoValidPixel) {
  FlowField a(2, 2), b(3, 2);
  try {
    flow_error(a, b);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2x2"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("3x2"), std::string::npos);
  }
  FlowField gt(2, 2);
  for (auto& x : gt.u) x = 1e10f;
  EXPECT_THROW(flow_error(a, gt), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
