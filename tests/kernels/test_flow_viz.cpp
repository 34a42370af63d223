#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/flow_viz.hpp"
#include "kernels/png_io.hpp"
#include "tests/kernels/test_helpers.hpp"

namespace flowtune {
namespace {

using Rgb = std::array<std::uint8_t, 3>;

// Colours computed from the wheel definition by hand; the implementation may land one unit
// lower where 255 * colour is an exact integer in real arithmetic (floating-point rounding).
void expect_rgb_near(const Rgb& got, const Rgb& want) {
  for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(int(got[c]), int(want[c]), 1) << "channel " << c;
}

TEST(FlowViz, WheelHas55ColoursWithSegmentAnchors) {
  const auto& w = middlebury_color_wheel();
  ASSERT_EQ(w.size(), 55u);
  EXPECT_EQ(w[0], (Rgb{255, 0, 0}));     // red
  EXPECT_EQ(w[15], (Rgb{255, 255, 0}));  // yellow (after RY = 15)
  EXPECT_EQ(w[21], (Rgb{0, 255, 0}));    // green (after YG = 6)
  EXPECT_EQ(w[25], (Rgb{0, 255, 255}));  // cyan (after GC = 4)
  EXPECT_EQ(w[36], (Rgb{0, 0, 255}));    // blue (after CB = 11)
  EXPECT_EQ(w[49], (Rgb{255, 0, 255}));  // magenta (after BM = 13)
  EXPECT_EQ(w[1], (Rgb{255, 17, 0}));    // floor(255 * 1 / 15)
  EXPECT_EQ(w[54], (Rgb{255, 0, 43}));   // 255 - floor(255 * 5 / 6)
}

TEST(FlowViz, KnownDirectionsAtUnitRadius) {
  // computeColor: fk = (atan2(-v, -u) / pi + 1) / 2 * 54.
  EXPECT_EQ(flow_color(1, 0), (Rgb{255, 0, 0}));  // +x: fk = 0 -> red
  // -x: atan2(0, 1) = 0 -> fk = 27 = wheel[27] = cyan->blue k = 2: g = 255 - floor(510/11) = 209.
  expect_rgb_near(flow_color(-1, 0), Rgb{0, 209, 255});
  // +y (down): atan2(-1, 0) = -pi/2 -> fk = 13.5, halfway between wheel[13] and wheel[14]
  // (g = 221 and 238): floor(255 * (221 + 238) / 510) = 229.
  expect_rgb_near(flow_color(0, 1), Rgb{255, 229, 0});
  // -y (up): fk = 40.5, between wheel[40] (r = floor(255*4/13) = 78) and wheel[41] (98).
  expect_rgb_near(flow_color(0, -1), Rgb{88, 0, 255});
}

TEST(FlowViz, SaturationGrowsWithRadiusAndZeroIsWhite) {
  EXPECT_EQ(flow_color(0, 0), (Rgb{255, 255, 255}));
  // half radius towards +x: 1 - 0.5 * (1 - c): red stays 255, green/blue = floor(127.5) = 127.
  EXPECT_EQ(flow_color(0.5, 0), (Rgb{255, 127, 127}));
  // beyond the normalising radius: colour * 0.75.
  EXPECT_EQ(flow_color(2, 0), (Rgb{191, 0, 0}));
}

TEST(FlowViz, NormalisesByMaxKnownRadiusAndBlacksOutUnknown) {
  FlowField f(4, 1);
  f.u = {2.f, 1.f, 1e10f, std::numeric_limits<float>::quiet_NaN()};
  f.v = {0.f, 0.f, 0.f, 0.f};
  const auto rgb = flow_to_rgb(f);
  ASSERT_EQ(rgb.size(), 12u);
  EXPECT_EQ((Rgb{rgb[0], rgb[1], rgb[2]}), flow_color(1, 0));    // 2 / max radius 2
  EXPECT_EQ((Rgb{rgb[3], rgb[4], rgb[5]}), flow_color(0.5, 0));  // 1 / 2
  for (std::size_t i = 6; i < 12; ++i) EXPECT_EQ(rgb[i], 0) << i;
  const auto fixed = flow_to_rgb(f, 4.0);
  EXPECT_EQ((Rgb{fixed[0], fixed[1], fixed[2]}), flow_color(0.5, 0));
}

TEST(FlowViz, WritesPng) {
  FlowField f(8, 6);
  for (std::size_t i = 0; i < f.size(); ++i) f.u[i] = float(i % 8) - 4.f;
  test::TempPath path("viz.png");
  write_flow_png(path.str(), f);
  const Image img = read_png_gray(path.str());
  EXPECT_EQ(img.width, 8);
  EXPECT_EQ(img.height, 6);
}

TEST(FlowViz, ColourWheelKeyInTheBottomRightCorner) {
  const int w = 80, h = 64;  // key radius min(80, 64) / 8 = 8, centre (80 - 12, 64 - 12)
  std::vector<std::uint8_t> rgb(std::size_t(3 * w * h), 7);
  draw_color_wheel_key(rgb, w, h);
  auto at = [&](int x, int y) {
    const std::size_t i = 3 * (std::size_t(y) * w + std::size_t(x));
    return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  };
  EXPECT_EQ(at(68, 52), flow_color(0, 0));          // the centre: no motion, white
  EXPECT_EQ(at(76, 52), flow_color(1, 0));          // right edge: +u at full saturation
  EXPECT_EQ(at(68, 48), flow_color(0, -0.5));       // half way up: -v at half saturation
  EXPECT_EQ(at(68, 52 + 9), (Rgb{0, 0, 0}));        // the black ring just outside
  EXPECT_EQ(at(10, 10), (Rgb{7, 7, 7}));            // the image elsewhere untouched
  std::vector<std::uint8_t> small(3 * 20 * 20, 7);  // too small for a key: untouched
  draw_color_wheel_key(small, 20, 20);
  EXPECT_TRUE(std::all_of(small.begin(), small.end(), [](std::uint8_t b) { return b == 7; }));
  FlowField f(2, 1);
  f.u = {3, -1};
  f.v = {4, 0};
  EXPECT_DOUBLE_EQ(flow_viz_radius(f), 5.0);
  EXPECT_DOUBLE_EQ(flow_viz_radius(f, 2.5), 2.5);
}

}  // namespace
}  // namespace flowtune

namespace flowtune {
namespace {

// 1000 vectors of radius 1 (3-4-5 scaled) and 5 outliers of radius 100: the 99th percentile
// is 1, the largest 100 (which would wash the 1000 out to 1% saturation).
TEST(FlowViz, QuantileRadiusIgnoresAFewOutliers) {
  FlowField f(1005, 1);
  for (std::size_t i = 0; i < f.size(); ++i) {
    const float r = i < 1000 ? 1.f : 100.f;
    f.u[i] = 0.6f * r;
    f.v[i] = -0.8f * r;
  }
  EXPECT_NEAR(flow_viz_quantile_radius(f, 0.99), 1.0, 1e-6);
  EXPECT_NEAR(flow_viz_quantile_radius(f, 1.0), 100.0, 1e-4);
  EXPECT_NEAR(flow_viz_radius(f), 100.0, 1e-4);
  EXPECT_EQ(flow_viz_quantile_radius(FlowField(3, 1), 0.99), 1.0);  // all zero
}

}  // namespace
}  // namespace flowtune
