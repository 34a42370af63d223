#include <gtest/gtest.h>
#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "kernels/png_io.hpp"
#include "tests/kernels/child_probe.hpp"
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

// ---- size budget (decompression bombs) ----

void put_be32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(std::uint8_t(v >> shift));
}

void put_chunk(std::vector<std::uint8_t>& png, const char* type,
               const std::vector<std::uint8_t>& data) {
  put_be32(png, std::uint32_t(data.size()));
  const std::size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  const uLong crc = crc32(0L, png.data() + start, uInt(png.size() - start));
  put_be32(png, std::uint32_t(crc));
}

// A tiny, well-formed PNG whose IHDR declares width x height and whose IDAT is a short valid
// zlib stream of zeros (filter type 0, black pixels): the shape of a decompression bomb (a
// 74-byte file that costs a reader sizing by the header 3.1 GB and 12.8 s; a 16-bit one 6.3 GB).
std::vector<std::uint8_t> bomb_png(std::uint32_t width, std::uint32_t height,
                                   std::uint8_t bit_depth, std::uint8_t color_type) {
  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> ihdr;
  put_be32(ihdr, width);
  put_be32(ihdr, height);
  ihdr.insert(ihdr.end(), {bit_depth, color_type, 0, 0, 0});
  put_chunk(png, "IHDR", ihdr);
  std::vector<std::uint8_t> zeros(1 << 16, 0);
  std::vector<std::uint8_t> idat(compressBound(uLong(zeros.size())));
  uLongf idat_size = uLongf(idat.size());
  EXPECT_EQ(compress2(idat.data(), &idat_size, zeros.data(), uLong(zeros.size()), 9), Z_OK);
  idat.resize(idat_size);
  put_chunk(png, "IDAT", idat);
  put_chunk(png, "IEND", {});
  return png;
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Reads `path` in a forked child: it must throw at once with `expected`, its peak RSS under
// 50 MB.
void expect_bomb_rejected(const std::string& path, const std::string& expected) {
  const test::ChildReport r = test::run_in_child([&] { read_png_gray(path); });
  ASSERT_TRUE(r.ran) << "the child crashed";
  ASSERT_TRUE(r.threw) << "read_png_gray accepted the bomb";
  EXPECT_EQ(r.message, expected);
  EXPECT_LT(r.seconds, 1.0);
  EXPECT_LT(r.peak_rss_kib, 50 * 1024)
      << "peak RSS " << r.peak_rss_kib << " KiB (before " << r.rss_before_kib << " KiB)";
}

TEST(PngIo, DecompressionBombFailsFastWithoutAllocating) {
  TempPath path("bomb8.png");
  const auto bytes = bomb_png(32768, 32768, 8, PNG_COLOR_TYPE_RGB);  // 3 GiB of RGB rows
  EXPECT_LT(bytes.size(), 200u);
  write_file(path.str(), bytes);
  expect_bomb_rejected(path.str(), path.str() +
                                       ": image of 32768x32768 = 1073741824 pixels exceeds the "
                                       "limit of 67108864 pixels (--max-pixels)");
}

TEST(PngIo, SixteenBitDecompressionBombFailsFastWithoutAllocating) {
  TempPath path("bomb16.png"), wide("bomb_wide.png");
  write_file(path.str(), bomb_png(32768, 32768, 16, PNG_COLOR_TYPE_RGB));  // 6 GiB of rows
  expect_bomb_rejected(path.str(), path.str() +
                                       ": image of 32768x32768 = 1073741824 pixels exceeds the "
                                       "limit of 67108864 pixels (--max-pixels)");
  // Sides past 32768: the pixel budget refuses it too, from the IHDR.
  write_file(wide.str(), bomb_png(1000000, 30000, 16, PNG_COLOR_TYPE_RGB_ALPHA));
  expect_bomb_rejected(wide.str(), wide.str() +
                                       ": image of 1000000x30000 = 30000000000 pixels exceeds "
                                       "the limit of 67108864 pixels (--max-pixels)");
}

TEST(PngIo, BombWithinTheBudgetFailsAsTruncatedNotOutOfMemory) {
  // 8000 x 8000 is within the default budget: the reader allocates the 256 MB Image and one
  // row, then libpng reports the missing data; never 8000*8000*6 bytes of rows at once.
  TempPath path("bomb_in_budget.png");
  write_file(path.str(), bomb_png(8000, 8000, 16, PNG_COLOR_TYPE_RGB));
  const test::ChildReport r = test::run_in_child([&] { read_png_gray(path.str()); });
  ASSERT_TRUE(r.ran);
  ASSERT_TRUE(r.threw);
  EXPECT_NE(r.message.find("corrupt or truncated PNG data"), std::string::npos) << r.message;
  EXPECT_LT(r.peak_rss_kib, 300 * 1024) << r.peak_rss_kib;
}

TEST(PngIo, HugeAncillaryChunkFailsFastWithoutAllocating) {
  // Found by tests/fuzz/fuzz_png: a 106-byte file whose tEXt chunk header declares 1.7 GB;
  // libpng allocated and zeroed that much before noticing the end of the file.
  std::vector<std::uint8_t> bytes = bomb_png(7, 5, 8, PNG_COLOR_TYPE_GRAY);
  std::vector<std::uint8_t> text;
  put_be32(text, 0x6a000011u);
  text.insert(text.end(), {'t', 'E', 'X', 't', 'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'x'});
  bytes.insert(bytes.begin() + 33, text.begin(), text.end());  // right after IHDR
  TempPath path("huge_text.png");
  write_file(path.str(), bytes);
  const test::ChildReport r = test::run_in_child([&] { read_png_gray(path.str()); });
  ASSERT_TRUE(r.ran);
  ASSERT_TRUE(r.threw);
  EXPECT_EQ(r.message.rfind(path.str() + ": corrupt PNG header", 0), 0u) << r.message;
  EXPECT_LT(r.seconds, 1.0);
  EXPECT_LT(r.peak_rss_kib, 50 * 1024) << r.peak_rss_kib;
}

TEST(PngIo, PixelBudgetIsConfigurable) {
  const int w = 37, h = 23;
  TempPath path("budget.png");
  write_png_rgb(path.str(), w, h, std::vector<std::uint8_t>(std::size_t(w * h * 3), 7));
  EXPECT_EQ(ImageLimits{}.max_pixels, std::size_t(8192) * 8192);
  EXPECT_EQ(read_png_gray(path.str(), ImageLimits{std::size_t(w * h)}).size(), std::size_t(w * h));
  try {
    read_png_gray(path.str(), ImageLimits{std::size_t(w * h - 1)});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path.str() +
                                         ": image of 37x23 = 851 pixels exceeds the limit of "
                                         "850 pixels (--max-pixels)");
  }
  // The process-wide default, used by the one-argument overload.
  const ImageLimits saved = default_image_limits();
  set_default_image_limits(ImageLimits{100});
  EXPECT_EQ(default_image_limits().max_pixels, 100u);
  expect_png_error(path.str(), "exceeds the limit of 100 pixels (--max-pixels)");
  set_default_image_limits(saved);
  EXPECT_EQ(read_png_gray(path.str()).size(), std::size_t(w * h));
}

TEST(PngIo, DirectoryIsNamed) {
  TempPath dir("adir.png");
  std::filesystem::create_directory(dir.str());
  expect_png_error(dir.str(), "is a directory, not a PNG file");
}

// Writes an Adam7-interlaced PNG with libpng's low-level API (rows: height rows of bytes).
void write_interlaced(const std::string& path, int w, int h, int bit_depth, int color_type,
                      std::vector<std::vector<std::uint8_t>>& rows) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_init_io(png, f);
  png_set_IHDR(png, info, png_uint_32(w), png_uint_32(h), bit_depth, color_type,
               PNG_INTERLACE_ADAM7, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<png_bytep> ptrs;
  for (auto& r : rows) ptrs.push_back(r.data());
  png_write_image(png, ptrs.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  std::fclose(f);
}

TEST(PngIo, ReadsInterlacedRowByRow) {
  // Sizes that leave some Adam7 passes empty or partial.
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{13, 11}, {1, 1}, {3, 9}, {9, 2}}) {
    TempPath g8("il_g8.png"), rgb16("il_rgb16.png");
    std::vector<std::vector<std::uint8_t>> gray_rows, rgb_rows;
    for (int y = 0; y < h; ++y) {
      gray_rows.emplace_back();
      rgb_rows.emplace_back();
      for (int x = 0; x < w; ++x) {
        gray_rows.back().push_back(std::uint8_t((x * 31 + y * 17) % 256));
        for (int c = 0; c < 3; ++c) {
          const int v = (x * 4099 + y * 257 + c * 20000) % 65536;
          rgb_rows.back().push_back(std::uint8_t(v >> 8));
          rgb_rows.back().push_back(std::uint8_t(v & 255));
        }
      }
    }
    write_interlaced(g8.str(), w, h, 8, PNG_COLOR_TYPE_GRAY, gray_rows);
    write_interlaced(rgb16.str(), w, h, 16, PNG_COLOR_TYPE_RGB, rgb_rows);
    const Image a = read_png_gray(g8.str()), b = read_png_gray(rgb16.str());
    ASSERT_EQ(a.width, w);
    ASSERT_EQ(a.height, h);
    ASSERT_EQ(b.size(), std::size_t(w * h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        EXPECT_EQ(a.at(x, y), float(gray_rows[std::size_t(y)][std::size_t(x)]))
            << w << "x" << h << " at " << x << "," << y;
        double luma = 0;
        const double weight[3] = {0.299, 0.587, 0.114};
        for (std::size_t c = 0; c < 3; ++c) {
          const auto* s = &rgb_rows[std::size_t(y)][std::size_t(x) * 6 + 2 * c];
          luma += weight[c] * ((s[0] << 8) | s[1]) * 255.0 / 65535.0;
        }
        EXPECT_NEAR(b.at(x, y), luma, 1e-3) << w << "x" << h << " at " << x << "," << y;
      }
  }
}

TEST(PngIo, PaletteWithTransparencyIsReadAsGray) {
  // A palette PNG with a tRNS chunk: libpng's palette expansion adds an alpha channel, and
  // the reader takes that layout (4 channels, 8 bits) as it takes RGBA.
  TempPath path("pal_trns.png");
  const std::vector<std::uint8_t> cmap = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0};
  const std::vector<std::uint8_t> idx = {0, 1, 2, 1};
  write_with_libpng(path.str(), 2, 2, PNG_FORMAT_RGBA_COLORMAP, idx.data(), cmap.data(), 3);
  const Image img = read_png_gray(path.str());
  ASSERT_EQ(img.size(), 4u);
  EXPECT_NEAR(img.data[0], 0.299f * 255, 1e-3);
  EXPECT_NEAR(img.data[1], 0.587f * 255, 1e-3);
}

}  // namespace
}  // namespace flowtune
