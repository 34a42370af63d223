#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernels/flo_io.hpp"
#include "tests/kernels/child_probe.hpp"
#include "tests/kernels/test_helpers.hpp"

namespace flowtune {
namespace {

using test::TempPath;

void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<unsigned char> header(float tag, std::int32_t w, std::int32_t h) {
  std::vector<unsigned char> b(12);
  std::memcpy(b.data(), &tag, 4);  // test host is little-endian like the format
  std::memcpy(b.data() + 4, &w, 4);
  std::memcpy(b.data() + 8, &h, 4);
  return b;
}

// Expects read_flo(path) to throw std::runtime_error whose message names the path and
// contains `what`.
void expect_rejected(const std::string& path, const std::string& what) {
  try {
    read_flo(path);
    FAIL() << "read_flo accepted " << path;
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(FloIo, RoundTripIsBitExactIncludingUnknownAndNaN) {
  FlowField f(7, 5);
  for (std::size_t i = 0; i < f.size(); ++i) {
    f.u[i] = 0.1f * float(i) - 1.7f;
    f.v[i] = -0.37f * float(i * i % 11);
  }
  f.u[3] = 1e10f;
  f.v[4] = std::numeric_limits<float>::quiet_NaN();
  TempPath path("roundtrip.flo");
  write_flo(path.str(), f);
  EXPECT_EQ(read_bytes(path.str()).size(), 12u + 8u * 35u);
  const FlowField g = read_flo(path.str());
  ASSERT_EQ(g.width, 7);
  ASSERT_EQ(g.height, 5);
  ASSERT_EQ(g.size(), f.size());
  EXPECT_EQ(std::memcmp(g.u.data(), f.u.data(), 4 * f.size()), 0);
  EXPECT_EQ(std::memcmp(g.v.data(), f.v.data(), 4 * f.size()), 0);
}

TEST(FloIo, ReadsMiddleburyGroundTruth) {
  const std::string path = test::repo_middlebury() + "/RubberWhale/flow10.flo";
  const FlowField f = read_flo(path);
  EXPECT_EQ(f.width, 584);
  EXPECT_EQ(f.height, 388);
  std::size_t unknown = 0;
  for (std::size_t i = 0; i < f.size(); ++i) unknown += std::fabs(f.u[i]) > 1e9f ? 1 : 0;
  EXPECT_EQ(unknown, 3622u);  // ../shared/data/README.md
}

TEST(FloIo, RejectsBadMagic) {
  TempPath path("badmagic.flo");
  auto b = header(123.0f, 1, 1);
  b.resize(20, 0);
  write_bytes(path.str(), b);
  expect_rejected(path.str(), "magic");
}

TEST(FloIo, RejectsTruncatedAndOversized) {
  TempPath trunc("trunc.flo"), over("over.flo"), hdr("hdr.flo");
  auto b = header(202021.25f, 3, 2);
  auto full = b;
  full.resize(12 + 8 * 6, 0);
  auto cut = full;
  cut.resize(cut.size() - 1);
  write_bytes(trunc.str(), cut);
  expect_rejected(trunc.str(), "truncated");
  auto big = full;
  big.push_back(0);
  write_bytes(over.str(), big);
  expect_rejected(over.str(), "oversized");
  write_bytes(hdr.str(), {0x50, 0x49, 0x45});
  expect_rejected(hdr.str(), "truncated");
}

TEST(FloIo, RejectsAbsurdDimensionsBeforeAllocating) {
  TempPath a("neg.flo"), b("huge.flo"), c("zero.flo"), d("area.flo");
  write_bytes(a.str(), header(202021.25f, -4, 4));
  expect_rejected(a.str(), "dimensions");
  // 2^31-1 x 2^31-1 would need exabytes; must be refused from the header alone.
  write_bytes(b.str(), header(202021.25f, 2147483647, 2147483647));
  expect_rejected(b.str(),
                  ": flow field of 2147483647x2147483647 = 4611686014132420609 pixels "
                  "exceeds the limit of 67108864 pixels (--max-pixels)");
  write_bytes(c.str(), header(202021.25f, 0, 10));
  expect_rejected(c.str(), "dimensions");
  write_bytes(d.str(), header(202021.25f, 32768, 32768));  // 2^30 pixels, over the budget
  expect_rejected(d.str(), "exceeds the limit of 67108864 pixels (--max-pixels)");
}

TEST(FloIo, BombsFailFastWithoutAllocating) {
  // A 12-byte file declaring 2^30 pixels (over the budget) and one declaring 8000 x 8000
  // (within it, 512 MB as a FlowField): both refused from the header and the file size.
  TempPath big("bomb_big.flo"), trunc("bomb_trunc.flo");
  write_bytes(big.str(), header(202021.25f, 32768, 32768));
  write_bytes(trunc.str(), header(202021.25f, 8000, 8000));
  for (const auto& [path, what] :
       {std::pair{big.str(), std::string("exceeds the limit")}, {trunc.str(), "truncated"}}) {
    const test::ChildReport r = test::run_in_child([&, p = path] { read_flo(p); });
    ASSERT_TRUE(r.ran);
    ASSERT_TRUE(r.threw);
    EXPECT_NE(r.message.find(what), std::string::npos) << r.message;
    EXPECT_LT(r.seconds, 1.0);
    EXPECT_LT(r.peak_rss_kib, 50 * 1024) << r.peak_rss_kib;
  }
}

TEST(FloIo, PixelBudgetIsConfigurable) {
  TempPath path("budget.flo");
  write_flo(path.str(), FlowField(3, 2));
  EXPECT_EQ(read_flo(path.str(), ImageLimits{6}).size(), 6u);
  try {
    read_flo(path.str(), ImageLimits{5});
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path.str() +
                                         ": flow field of 3x2 = 6 pixels exceeds the limit of 5 "
                                         "pixels (--max-pixels)");
  }
  const ImageLimits saved = default_image_limits();
  set_default_image_limits(ImageLimits{5});
  expect_rejected(path.str(), "exceeds the limit of 5 pixels");
  set_default_image_limits(saved);
  EXPECT_EQ(read_flo(path.str()).size(), 6u);
}

TEST(FloIo, DirectoryIsNamed) {
  TempPath dir("adir.flo");
  std::filesystem::create_directory(dir.str());
  try {
    read_flo(dir.str());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.str() + ": is a directory, not a .flo file");
  }
}

TEST(FloIo, ReadsMoreThanOneChunk) {
  // 300 x 250 = 75000 pixels: more than the reader's 65536-pixel chunk.
  FlowField f(300, 250);
  for (std::size_t i = 0; i < f.size(); ++i) {
    f.u[i] = float(i) * 0.5f;
    f.v[i] = -float(i);
  }
  TempPath path("chunks.flo");
  write_flo(path.str(), f);
  const FlowField g = read_flo(path.str());
  ASSERT_EQ(g.size(), f.size());
  EXPECT_EQ(g.u, f.u);
  EXPECT_EQ(g.v, f.v);
}

TEST(FloIo, MissingFileNamesPath) {
  expect_rejected("/nonexistent/flowtune/none.flo", "cannot open");
}

TEST(FloIo, WriteRejectsInconsistentField) {
  FlowField f(4, 4);
  f.v.pop_back();
  TempPath path("bad_write.flo");
  EXPECT_THROW(write_flo(path.str(), f), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
