// Pairs resampled to a deployment resolution (workloads/tvl1/resolution.hpp): the parser,
// the frames against hand-computed values (a constant stays constant, a ramp stays the ramp
// the bicubic reproduces exactly inside the frame), the ground truth's vectors scaled by the
// size ratio with unknown vectors kept unknown, and the dataset key of the new size.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "workloads/tvl1/resolution.hpp"

namespace flowtune {
namespace {

Sequence ramp_pair(int w, int h) {
  Sequence s;
  s.name = "ramp";
  s.i0 = Image(w, h);
  s.i1 = Image(w, h, 100.f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) s.i0.at(x, y) = 10.f + 2.f * float(x) + 0.5f * float(y);
  s.ground_truth = FlowField(w, h);
  for (std::size_t i = 0; i < s.ground_truth.size(); ++i) {
    s.ground_truth.u[i] = 2.f;
    s.ground_truth.v[i] = -1.f;
  }
  s.ground_truth.u[std::size_t(w)] = 1e10f;  // unknown at pixel (0, 1)
  return s;
}

TEST(Resolution, ParsesWidthByHeightAndRefusesTheRestNamingTheText) {
  const Resolution r = parse_resolution("1280x720");
  EXPECT_EQ(r.width, 1280);
  EXPECT_EQ(r.height, 720);
  EXPECT_EQ(parse_resolution("64X48").width, 64);
  EXPECT_EQ(resolution_text(r), "1280x720");
  for (const char* bad : {"", "1280", "1280x", "x720", "-5x10", "4x4", "100000x10", "12a4x10"}) {
    try {
      parse_resolution(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Resolution, UpsamplingKeepsAConstantAndReproducesARampInside) {
  Sequence s = ramp_pair(40, 30);
  resample_sequence(s, {80, 45});
  ASSERT_EQ(s.i0.width, 80);
  ASSERT_EQ(s.i0.height, 45);
  for (float v : s.i1.data) EXPECT_FLOAT_EQ(v, 100.f);
  // Output pixel x samples the input at (x + 0.5) * 40 / 80 - 0.5; 4 pixels from the border
  // the cubic's support is inside, where Keys' kernel reproduces a linear function exactly.
  for (int y = 6; y < 39; ++y)
    for (int x = 8; x < 72; ++x) {
      const double xs = (x + 0.5) * 0.5 - 0.5, ys = (y + 0.5) * 30.0 / 45.0 - 0.5;
      EXPECT_NEAR(s.i0.at(x, y), 10 + 2 * xs + 0.5 * ys, 1e-3) << x << "," << y;
    }
}

TEST(Resolution, DownsamplingFiltersFirstAndStaysInRange) {
  Sequence s = ramp_pair(64, 64);
  // A checkerboard of 0 / 255 shrunk by 4 would alias to any grey without the pre-filter;
  // with it every pixel is close to the mean.
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) s.i0.at(x, y) = ((x + y) % 2) ? 255.f : 0.f;
  resample_sequence(s, {16, 16});
  for (int y = 2; y < 14; ++y)
    for (int x = 2; x < 14; ++x) EXPECT_NEAR(s.i0.at(x, y), 127.5, 2.0) << x << "," << y;
  for (float v : s.i0.data) {
    EXPECT_GE(v, 0.f);
    EXPECT_LE(v, 255.f);
  }
}

TEST(Resolution, GroundTruthVectorsScaleWithTheSizeAndUnknownStaysUnknown) {
  Sequence s = ramp_pair(40, 30);
  resample_sequence(s, {80, 15});
  ASSERT_EQ(s.ground_truth.width, 80);
  ASSERT_EQ(s.ground_truth.height, 15);
  // Output (0, 0) and (1, 0) take input (0, 1), the unknown vector: the nearest input row of
  // output row 0 is floor(0.5 x 30 / 15) = 1, the nearest column of 0 and 1 is 0.
  EXPECT_GT(std::fabs(s.ground_truth.u[0]), 1e9f);
  EXPECT_GT(std::fabs(s.ground_truth.u[1]), 1e9f);
  for (std::size_t i = 2; i < s.ground_truth.size(); ++i) {
    EXPECT_FLOAT_EQ(s.ground_truth.u[i], 4.f);    // 2 px x 80 / 40
    EXPECT_FLOAT_EQ(s.ground_truth.v[i], -0.5f);  // -1 px x 15 / 30
  }
}

TEST(Resolution, TheDatasetKeyNamesTheSizeOnlyWhenAPairWasResampled) {
  FlowDataset d;
  d.key = "middlebury:ramp";
  d.description = "1 pair";
  d.sequences.push_back(ramp_pair(40, 30));
  resample_dataset(d, {40, 30});
  EXPECT_EQ(d.key, "middlebury:ramp");
  resample_dataset(d, {});
  EXPECT_EQ(d.key, "middlebury:ramp");
  resample_dataset(d, {20, 16});
  EXPECT_EQ(d.key, "middlebury:ramp@20x16");
  EXPECT_NE(d.description.find("resampled to 20x16"), std::string::npos);
  EXPECT_EQ(d.sequences[0].i0.width, 20);
  EXPECT_THROW(resample_sequence(d.sequences[0], {}), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
