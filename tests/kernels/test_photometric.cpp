// Accuracy without ground truth (kernels/photometric.hpp) and the benchmarks' own metrics
// (kernels/metrics.hpp: KITTI's Fl, Sintel's EPE over a mask), on fields whose values are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "kernels/kitti_flow_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/photometric.hpp"

namespace flowtune {
namespace {

FlowField constant_flow(int w, int h, float u, float v) {
  FlowField f(w, h);
  for (std::size_t i = 0; i < f.size(); ++i) {
    f.u[i] = u;
    f.v[i] = v;
  }
  return f;
}

// Forward (2, 0) and backward (-2, 0) agree: every pixel whose target x + 2 stays inside an
// 8-wide frame (x <= 5) is kept, columns 6 and 7 leave it.
TEST(ForwardBackward, ConsistentFlowsKeepThePixelsThatStayInside) {
  const Plane<std::uint8_t> m =
      forward_backward_visible(constant_flow(8, 3, 2, 0), constant_flow(8, 3, -2, 0));
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 8; ++x) EXPECT_EQ(m.at(x, y), x <= 5 ? 1 : 0) << x << "," << y;
}

// Backward (1, 0) against forward (2, 0): |2 + 1|^2 = 9 > 0.01 (4 + 1) + 0.5 = 0.55 at every
// pixel: all occluded. Backward (-1.5, 0): |0.5|^2 = 0.25 <= 0.01 (4 + 2.25) + 0.5 = 0.5625:
// kept (the tolerance of Sundaram et al. absorbs half a pixel).
TEST(ForwardBackward, InconsistentFlowsAreOccluded) {
  const FlowField fwd = constant_flow(8, 3, 2, 0);
  const Plane<std::uint8_t> occluded = forward_backward_visible(fwd, constant_flow(8, 3, 1, 0));
  for (std::uint8_t v : occluded.data) EXPECT_EQ(v, 0);
  const Plane<std::uint8_t> kept = forward_backward_visible(fwd, constant_flow(8, 3, -1.5f, 0));
  EXPECT_EQ(kept.at(0, 0), 1);
  EXPECT_EQ(kept.at(5, 2), 1);
  EXPECT_THROW(forward_backward_visible(fwd, constant_flow(7, 3, 0, 0)), std::invalid_argument);
}

// I0(x, y) = 10 x, I1(x, y) = 10 (x - 1): I1(x + 1) = I0(x). With u = 1 the residual is 0 and
// the Charbonnier penalty is eps = 1e-3; with u = 0 it is |-10| -> sqrt(100 + 1e-6). Pixels off
// the mask do not count.
TEST(Photometric, TheWarpedFrameMatchesWhereTheFlowIsRight) {
  const int w = 6, h = 2;
  Image i0(w, h), i1(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      i0.at(x, y) = float(10 * x);
      i1.at(x, y) = float(10 * (x - 1));
    }
  Plane<std::uint8_t> visible(w, h, 1);
  for (int y = 0; y < h; ++y) visible.at(w - 1, y) = 0;  // x + 1 would leave the frame
  const PhotometricError right = photometric_error(i0, i1, constant_flow(w, h, 1, 0), visible);
  EXPECT_NEAR(right.mean, 1e-3, 1e-9);
  EXPECT_EQ(right.n_pixels, std::size_t(10));
  const PhotometricError wrong = photometric_error(i0, i1, constant_flow(w, h, 0, 0), visible);
  EXPECT_NEAR(wrong.mean, std::sqrt(100 + 1e-6), 1e-9);
  Plane<std::uint8_t> none(w, h, 0);
  EXPECT_THROW(photometric_error(i0, i1, constant_flow(w, h, 0, 0), none), std::invalid_argument);
}

// Four pixels: gt (10, 0) est (10, 0): EPE 0; gt (10, 0) est (14, 0): EPE 4 > 3 and > 0.5, an
// outlier; gt (100, 0) est (104, 0): EPE 4 > 3 but < 5 (5% of 100), not one; the fourth has no
// ground truth. Fl = 1 / 3 = 33.33%.
TEST(KittiOutliers, CountsEndpointErrorsOverThreePixelsAndFivePercent) {
  FlowField gt(4, 1), est(4, 1);
  gt.u = {10, 10, 100, kUnknownFlow};
  gt.v = {0, 0, 0, kUnknownFlow};
  est.u = {10, 14, 104, 0};
  est.v = {0, 0, 0, 0};
  EXPECT_NEAR(kitti_outlier_percent(est, gt), 100.0 / 3, 1e-9);
  EXPECT_THROW(kitti_outlier_percent(FlowField(3, 1), gt), std::invalid_argument);
}

// EPE over the mask: pixels 0 and 2 (EPE 3 and 1) are counted, pixel 1 (EPE 5) is masked out:
// (3 + 1) / 2 = 2.
TEST(MaskedEndpointError, AveragesOnlyTheIncludedPixels) {
  FlowField gt(3, 1), est(3, 1);
  est.u = {3, 3, 0};
  est.v = {4, 0, 1};
  gt.u = {3, 0, 0};
  gt.v = {1, 4, 0};
  Plane<std::uint8_t> include(3, 1, 1);
  include.at(1, 0) = 0;
  const FlowError e = masked_endpoint_error(est, gt, include);
  EXPECT_DOUBLE_EQ(e.aepe, 2.0);
  EXPECT_EQ(e.n_valid, std::size_t(2));
}

}  // namespace
}  // namespace flowtune
