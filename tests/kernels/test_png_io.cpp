#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "kernels/png_io.hpp"
#include "tests/kernels/test_helpers.hpp"

namespace flowtune {
namespace {

using test::TempPath;

void expect_png_error(const std::string& path, const std::string& what) {
  try {
    read_png_gray(path);
    FAIL() << "read_png_gray accepted " << path;
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(PngIo, ReadsMiddleburyFrameAsGray) {
  const Image img = read_png_gray(test::repo_middlebury() + "/RubberWhale/frame10.png");
  EXPECT_EQ(img.width, 584);
  EXPECT_EQ(img.height, 388);
  ASSERT_EQ(img.size(), 584u * 388u);
  const auto [lo, hi] = std::minmax_element(img.data.begin(), img.data.end());
  EXPECT_GE(*lo, 0.f);
  EXPECT_LE(*hi, 255.f);
  EXPECT_GT(*hi - *lo, 100.f);  // a real, textured photograph
}

TEST(PngIo, RgbRoundTripGivesBt601Luma) {
  // Pure primaries and a few mixtures; read back must be 0.299 R + 0.587 G + 0.114 B.
  const std::vector<std::array<int, 3>> colours = {{255, 0, 0},     {0, 255, 0},   {0, 0, 255},
                                                   {255, 255, 255}, {10, 200, 30}, {0, 0, 0}};
  const int w = int(colours.size()), h = 2;
  std::vector<std::uint8_t> rgb;
  for (int y = 0; y < h; ++y)
    for (const auto& c : colours)
      for (int k = 0; k < 3; ++k) rgb.push_back(static_cast<std::uint8_t>(c[std::size_t(k)]));
  TempPath path("rgb.png");
  write_png_rgb(path.str(), w, h, rgb);
  const Image img = read_png_gray(path.str());
  ASSERT_EQ(img.width, w);
  ASSERT_EQ(img.height, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto& c = colours[std::size_t(x)];
      EXPECT_NEAR(img.at(x, y), 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2], 1e-3);
    }
}

TEST(PngIo, GrayRoundTripIsExact) {
  const int w = 37, h = 23;
  std::vector<std::uint8_t> rgb;
  std::vector<int> gray;
  for (int i = 0; i < w * h; ++i) {
    const int g = (i * 97 + 13) % 256;
    gray.push_back(g);
    for (int k = 0; k < 3; ++k) rgb.push_back(static_cast<std::uint8_t>(g));
  }
  TempPath path("gray.png");
  write_png_rgb(path.str(), w, h, rgb);
  const Image img = read_png_gray(path.str());
  ASSERT_EQ(img.size(), std::size_t(w * h));
  for (int i = 0; i < w * h; ++i) EXPECT_NEAR(img.data[std::size_t(i)], gray[std::size_t(i)], 1e-4);
}

// Writes a PNG with libpng's simplified API (an encoder independent of write_png_rgb).
void write_with_libpng(const std::string& path, int w, int h, png_uint_32 format,
                       const void* pixels, const void* colormap = nullptr,
                       png_uint_32 colormap_entries = 0) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = png_uint_32(w);
  image.height = png_uint_32(h);
  image.format = format;
  image.colormap_entries = colormap_entries;
  ASSERT_NE(png_image_write_to_file(&image, path.c_str(), 0, pixels, 0, colormap), 0)
      << image.message;
}

TEST(PngIo, ReadsGrayGrayAlphaRgbaAndPalette) {
  TempPath gray("g8.png"), ga("ga.png"), rgba("rgba.png"), pal("pal.png");
  const std::vector<std::uint8_t> g8 = {0, 64, 128, 255};
  write_with_libpng(gray.str(), 2, 2, PNG_FORMAT_GRAY, g8.data());
  const std::vector<std::uint8_t> ga8 = {10, 0, 20, 255, 30, 128, 40, 7};  // alpha ignored
  write_with_libpng(ga.str(), 2, 2, PNG_FORMAT_GA, ga8.data());
  const std::vector<std::uint8_t> rgba8 = {255, 0, 0, 0, 0, 255, 0, 255, 0, 0, 255, 9, 9, 9, 9, 9};
  write_with_libpng(rgba.str(), 2, 2, PNG_FORMAT_RGBA, rgba8.data());
  const std::vector<std::uint8_t> cmap = {255, 0, 0, 0, 255, 0, 0, 0, 255};  // R, G, B entries
  const std::vector<std::uint8_t> idx = {0, 1, 2, 1};
  write_with_libpng(pal.str(), 2, 2, PNG_FORMAT_RGB_COLORMAP, idx.data(), cmap.data(), 3);

  const Image a = read_png_gray(gray.str());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(a.data[i], float(g8[i]));
  const Image b = read_png_gray(ga.str());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(b.data[i], float(ga8[2 * i]));
  const Image c = read_png_gray(rgba.str());
  const float want_c[4] = {0.299f * 255, 0.587f * 255, 0.114f * 255, 9.f};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(c.data[i], want_c[i], 1e-3);
  const Image d = read_png_gray(pal.str());
  const float want_d[4] = {0.299f * 255, 0.587f * 255, 0.114f * 255, 0.587f * 255};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(d.data[i], want_d[i], 1e-3);
}

TEST(PngIo, Reads16BitGrayScaledTo255) {
  TempPath path("g16.png");
  const std::vector<std::uint16_t> g16 = {0, 257, 32768, 65535};
  write_with_libpng(path.str(), 2, 2, PNG_FORMAT_LINEAR_Y, g16.data());
  const Image img = read_png_gray(path.str());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(img.data[i], g16[i] * 255.0 / 65535.0, 1e-3);
}

TEST(PngIo, MissingFileNamesPath) {
  expect_png_error("/nonexistent/flowtune/frame.png", "cannot open");
}

TEST(PngIo, NotAPngNamesPath) {
  TempPath path("text.png");
  std::ofstream(path.str()) << "this is not a PNG file at all\n";
  expect_png_error(path.str(), "not a PNG");
}

TEST(PngIo, TruncatedPngNamesPath) {
  const std::string src = test::repo_middlebury() + "/RubberWhale/frame10.png";
  std::ifstream in(src, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_GT(bytes.size(), 1000u);
  TempPath half("half.png"), header_only("hdr.png");
  std::ofstream(half.str(), std::ios::binary)
      .write(bytes.data(), std::streamsize(bytes.size() / 2));
  expect_png_error(half.str(), "truncated");
  std::ofstream(header_only.str(), std::ios::binary).write(bytes.data(), 20);  // mid-IHDR
  expect_png_error(header_only.str(), "corrupt");
}

TEST(PngIo, CorruptDataNamesPath) {
  const std::string src = test::repo_middlebury() + "/RubberWhale/frame10.png";
  std::ifstream in(src, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  for (std::size_t i = 200; i < 400; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  TempPath path("corrupt.png");
  std::ofstream(path.str(), std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  expect_png_error(path.str(), "corrupt");
}

TEST(PngIo, WriteRejectsWrongBufferAndUnwritablePath) {
  EXPECT_THROW(write_png_rgb("/tmp/x.png", 2, 2, std::vector<std::uint8_t>(11)),
               std::invalid_argument);
  try {
    write_png_rgb("/nonexistent/dir/out.png", 1, 1, {1, 2, 3});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/out.png"), std::string::npos);
  }
}

}  // namespace
}  // namespace flowtune
