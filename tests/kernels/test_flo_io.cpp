#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kernels/flo_io.hpp"
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
  expect_rejected(b.str(), "dimensions");
  write_bytes(c.str(), header(202021.25f, 0, 10));
  expect_rejected(c.str(), "dimensions");
  write_bytes(d.str(), header(202021.25f, 32768, 32768));  // each side ok, area 2^30 too big
  expect_rejected(d.str(), "dimensions");
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
