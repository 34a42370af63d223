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
  FlowField big(40, 30);
  write_flow_png(path.str(), big, 0, true);             // with the key beside it
  EXPECT_EQ(read_png_gray(path.str()).width, 40 + 49);  // label "1.00 px" 41 px + 8
}

// The key stands beside the flow (never over the flow's bottom-right corner) and says
// what its rim means in px.
TEST(FlowViz, ColourWheelKeyBesideTheFlowWithItsPxLabel) {
  const int w = 80, h = 64;  // key radius min(80, 64) / 8 = 8
  FlowField flow(w, h);
  for (std::size_t i = 0; i < flow.size(); ++i) {
    flow.u[i] = float(i % w) / 16.f - 2.5f;  // |u| <= 2.5, |v| <= 2: the largest radius 3.2
    flow.v[i] = float(i / w) / 16.f - 2.f;
  }
  const std::vector<std::uint8_t> plain = flow_to_rgb(flow);
  const RgbImage keyed = flow_rgb_with_key(flow);
  EXPECT_EQ(flow_key_label(flow_viz_radius(flow)), "3.20 px");
  // Panel: max(2 * 8 + 10, label "3.20 px" 7 * 6 - 1 = 41 px + 8) = 49 px to the right.
  ASSERT_EQ(keyed.width, w + 49);
  ASSERT_EQ(keyed.height, h);
  auto at = [&](int x, int y) {
    const std::size_t i = 3 * (std::size_t(y) * std::size_t(keyed.width) + std::size_t(x));
    return Rgb{keyed.rgb[i], keyed.rgb[i + 1], keyed.rgb[i + 2]};
  };
  for (int y = 0; y < h; ++y)  // every flow pixel as flow_to_rgb made it: nothing covered
    for (int x = 0; x < w; ++x) {
      const std::size_t i = 3 * (std::size_t(y) * w + std::size_t(x));
      ASSERT_EQ(at(x, y), (Rgb{plain[i], plain[i + 1], plain[i + 2]})) << x << "," << y;
    }
  const int cx = w + 49 / 2, cy = 5 + 8;
  EXPECT_EQ(at(cx, cy), flow_color(0, 0));         // the centre: no motion, white
  EXPECT_EQ(at(cx + 8, cy), flow_color(1, 0));     // right edge: +u at full saturation
  EXPECT_EQ(at(cx, cy - 4), flow_color(0, -0.5));  // half way up: -v at half saturation
  EXPECT_EQ(at(cx, cy + 9), (Rgb{0, 0, 0}));       // the black ring just outside
  EXPECT_EQ(at(w + 1, 1), (Rgb{255, 255, 255}));   // the panel's background
  // The label's rows (7 px below the wheel) hold black glyph pixels, within the panel; the
  // first glyph is "3": its top row is 5 pixels wide (0x1F).
  const int lx = w + (49 - 41) / 2, ly = cy + 8 + 6;
  for (int col = 0; col < 5; ++col) EXPECT_EQ(at(lx + col, ly), (Rgb{0, 0, 0})) << col;
  EXPECT_EQ(at(lx + 5, ly), (Rgb{255, 255, 255}));  // the gap between glyphs
  EXPECT_EQ(flow_key_label(0.5), "0.500 px");
  EXPECT_EQ(flow_key_label(12.34), "12.3 px");
  EXPECT_EQ(flow_key_label(123.4), "123 px");
  // Too small for a key: the flow alone.
  const RgbImage small = flow_rgb_with_key(FlowField(20, 20));
  EXPECT_EQ(small.width, 20);
  EXPECT_EQ(small.rgb, flow_to_rgb(FlowField(20, 20)));
  // A flat flow (64 x 24) grows to the key's height, rows below it white.
  const RgbImage flat = flow_rgb_with_key(FlowField(64, 24));
  EXPECT_EQ(flat.height, 2 * 8 + 21);
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
