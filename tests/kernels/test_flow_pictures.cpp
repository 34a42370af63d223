// kernels/flow_pictures and the in-memory PNG codec: the report's pictures of a flow.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/flow_pictures.hpp"
#include "kernels/flow_viz.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {
namespace {

std::array<std::uint8_t, 3> pixel(const RgbImage& im, int x, int y) {
  const std::size_t i = 3 * (std::size_t(y) * std::size_t(im.width) + std::size_t(x));
  return {im.rgb[i], im.rgb[i + 1], im.rgb[i + 2]};
}

TEST(FlowPictures, SampledPixelsFollowTheColourWheelAndTheErrorRamp) {
  const int w = 40, h = 30;
  FlowField flow(w, h), truth(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + std::size_t(x);
      truth.u[i] = float(0.1 * (x - 20));
      truth.v[i] = float(0.05 * (y - 15));
      flow.u[i] = truth.u[i] + float(0.01 * x);
      flow.v[i] = truth.v[i] - float(0.02 * y);
    }
  truth.u[5 * w + 7] = 1e10f;  // no ground truth at (7, 5), a pixel no picture pixel samples
  double radius = 0;           // the oracle: the largest known ground-truth radius, by hand
  for (std::size_t i = 0; i < truth.size(); ++i)
    if (std::abs(truth.u[i]) < 1e9)
      radius = std::max(radius, std::hypot(double(truth.u[i]), double(truth.v[i])));

  const std::vector<FlowPicture> p = flow_pictures(flow, truth, 16);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(picture_step(w, h, 16), 3);  // ceil(40 / 16)
  EXPECT_EQ(p[0].kind, "flow");
  EXPECT_EQ(p[1].kind, "ground_truth");
  EXPECT_EQ(p[2].kind, "endpoint_error");
  EXPECT_DOUBLE_EQ(p[0].scale_px, radius);
  EXPECT_DOUBLE_EQ(p[2].scale_px, 2.0);
  for (const FlowPicture& q : p) {
    EXPECT_EQ(q.image.width, 14);  // ceil(40 / 3)
    EXPECT_EQ(q.image.height, 10);
  }
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 14; ++x) {
      const int sx = std::min(3 * x + 1, w - 1), sy = std::min(3 * y + 1, h - 1);
      const std::size_t i = std::size_t(sy) * w + std::size_t(sx);
      SCOPED_TRACE(std::to_string(x) + "," + std::to_string(y));
      EXPECT_EQ(pixel(p[0].image, x, y), flow_color(flow.u[i] / radius, flow.v[i] / radius));
      EXPECT_EQ(pixel(p[1].image, x, y), flow_color(truth.u[i] / radius, truth.v[i] / radius));
      const double epe = std::hypot(0.01 * sx, 0.02 * sy);  // |flow - truth| by construction
      const auto g = std::uint8_t(std::lround(255 * std::min(1.0, epe / 2.0)));
      EXPECT_EQ(pixel(p[2].image, x, y), (std::array<std::uint8_t, 3>{g, g, g}));
    }
  // Picture pixel (2, 1) samples (7, 4): without ground truth there it is black / dark blue.
  truth.u[5 * w + 7] = truth.u[4 * w + 7];
  truth.u[4 * w + 7] = 1e10f;
  const std::vector<FlowPicture> q = flow_pictures(flow, truth, 16);
  EXPECT_EQ(pixel(q[1].image, 2, 1), (std::array<std::uint8_t, 3>{0, 0, 0}));
  EXPECT_EQ(pixel(q[2].image, 2, 1), (std::array<std::uint8_t, 3>{0, 0, 160}));
  EXPECT_THROW(flow_pictures(FlowField(4, 4), FlowField(4, 5), 16), std::invalid_argument);
}

TEST(PngMemory, EncodeDecodeRoundTripsAndBadDataIsRefused) {
  RgbImage im{5, 3, {}};
  for (int k = 0; k < 5 * 3 * 3; ++k) im.rgb.push_back(std::uint8_t(17 * k));
  const std::vector<std::uint8_t> png = encode_png_rgb(im.width, im.height, im.rgb);
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(std::string(png.begin(), png.begin() + 8), "\x89PNG\r\n\x1a\n");
  const RgbImage back = decode_png_rgb(png);
  EXPECT_EQ(back.width, 5);
  EXPECT_EQ(back.height, 3);
  EXPECT_EQ(back.rgb, im.rgb);
  EXPECT_THROW(decode_png_rgb({1, 2, 3, 4}), std::runtime_error);
  EXPECT_THROW(encode_png_rgb(5, 3, {1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
