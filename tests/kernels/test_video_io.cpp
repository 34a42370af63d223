// Video input (kernels/video_io.hpp): a lossless video written by FFmpeg's encoder API reads
// back, frame by frame, to the gray levels OpenCV's cvtColor gives its RGB pixels (0.299 R +
// 0.587 G + 0.114 B, computed here by hand); the frames asked for only, at most max_frames;
// a file that is no video is refused with its name. Skipped in a build without FFmpeg.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/video_io.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::string video_temp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("flowtune_video_" + std::to_string(getpid()) + "_" + name))
      .string();
}

// Frame k: pixel (x, y) = (R, G, B) = (10 k + x, 200 - y, 7 x y) on a 6 x 4 frame.
std::vector<RgbImage> colour_frames(int n) {
  std::vector<RgbImage> frames;
  for (int k = 0; k < n; ++k) {
    RgbImage f{6, 4, std::vector<std::uint8_t>(6 * 4 * 3)};
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) {
        std::uint8_t* p = f.rgb.data() + (y * 6 + x) * 3;
        p[0] = std::uint8_t(10 * k + x);
        p[1] = std::uint8_t(200 - y);
        p[2] = std::uint8_t(7 * x * y);
      }
    frames.push_back(f);
  }
  return frames;
}

class VideoIo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!video_reader_available()) GTEST_SKIP() << "built without FFmpeg's libraries";
  }
};

TEST_F(VideoIo, ReadsTheFramesAsOpenCvGray) {
  const std::string path = video_temp_file("colour.mkv");
  write_video_rgb(path, colour_frames(5), 25);
  const auto frames = read_video_gray(
      path, [](int i) { return i != 2; }, 0, std::size_t(1) << 26);
  fs::remove(path);
  ASSERT_EQ(frames.size(), 4u);  // 0, 1, 3, 4: frame 2 not asked for
  EXPECT_EQ(frames[2].first, 3);
  for (const auto& [k, im] : frames) {
    ASSERT_EQ(im.width, 6);
    ASSERT_EQ(im.height, 4);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) {
        const double gray = 0.299 * (10 * k + x) + 0.587 * (200 - y) + 0.114 * (7 * x * y);
        EXPECT_NEAR(im.at(x, y), gray, 1e-3) << "frame " << k << " at " << x << "," << y;
      }
  }
}

TEST_F(VideoIo, StopsAfterMaxFrames) {
  const std::string path = video_temp_file("five.mkv");
  write_video_rgb(path, colour_frames(5), 25);
  const auto frames = read_video_gray(
      path, [](int) { return true; }, 2, std::size_t(1) << 26);
  fs::remove(path);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].first, 1);
}

TEST_F(VideoIo, RefusesAFileThatIsNoVideoNamingIt) {
  const std::string path = video_temp_file("text.mp4");
  std::ofstream(path) << "not a video\n";
  try {
    read_video_gray(
        path, [](int) { return true; }, 0, std::size_t(1) << 26);
    ADD_FAILURE() << "a text file was read as a video";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
  }
  fs::remove(path);
  EXPECT_THROW(read_video_gray(
                   video_temp_file("missing.mkv"), [](int) { return true; }, 0, 1 << 20),
               std::runtime_error);
}

}  // namespace
}  // namespace flowtune
