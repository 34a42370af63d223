#include "kernels/flo_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace flowtune {

namespace {

constexpr float kFloTag = 202021.25f;
constexpr std::int64_t kMaxSide = 1 << 15;
constexpr std::int64_t kMaxPixels = std::int64_t(1) << 28;

static_assert(sizeof(float) == 4, ".flo needs 32-bit floats");

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw std::runtime_error(path + ": " + problem);
}

// The format is little-endian; convert explicitly so the code is right on any host.
std::uint32_t load_le32(const unsigned char* b) {
  return std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 8) | (std::uint32_t(b[2]) << 16) |
         (std::uint32_t(b[3]) << 24);
}
void store_le32(unsigned char* b, std::uint32_t v) {
  b[0] = static_cast<unsigned char>(v);
  b[1] = static_cast<unsigned char>(v >> 8);
  b[2] = static_cast<unsigned char>(v >> 16);
  b[3] = static_cast<unsigned char>(v >> 24);
}
float bits_to_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
std::uint32_t float_to_bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

}  // namespace

FlowField read_flo(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff file_bytes = in.tellg();
  in.seekg(0, std::ios::beg);
  if (file_bytes < 0) fail(path, "cannot determine the file size");

  unsigned char header[12];
  if (file_bytes < 12 || !in.read(reinterpret_cast<char*>(header), 12))
    fail(path, "truncated .flo header (" + std::to_string(file_bytes) + " bytes, need 12)");
  const float tag = bits_to_float(load_le32(header));
  if (tag != kFloTag) fail(path, "bad .flo magic (expected 202021.25, \"PIEH\")");
  const auto width = static_cast<std::int32_t>(load_le32(header + 4));
  const auto height = static_cast<std::int32_t>(load_le32(header + 8));
  if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide ||
      std::int64_t(width) * height > kMaxPixels)
    fail(path, "unsupported .flo dimensions " + std::to_string(width) + "x" +
                   std::to_string(height) + " (each side in 1..32768, at most 2^28 pixels)");
  const std::int64_t expected = 12 + 8 * std::int64_t(width) * height;
  if (file_bytes != expected)
    fail(path, std::string(file_bytes < expected ? "truncated" : "oversized") + " .flo file: " +
                   std::to_string(file_bytes) + " bytes, expected " + std::to_string(expected) +
                   " for " + std::to_string(width) + "x" + std::to_string(height));

  FlowField flow(width, height);
  std::vector<unsigned char> body(static_cast<std::size_t>(expected - 12));
  if (!in.read(reinterpret_cast<char*>(body.data()), static_cast<std::streamsize>(body.size())))
    fail(path, "read error in .flo data");
  for (std::size_t i = 0; i < flow.size(); ++i) {
    flow.u[i] = bits_to_float(load_le32(body.data() + 8 * i));
    flow.v[i] = bits_to_float(load_le32(body.data() + 8 * i + 4));
  }
  return flow;
}

void write_flo(const std::string& path, const FlowField& flow) {
  const std::size_t n =
      std::size_t(std::max(flow.width, 0)) * std::size_t(std::max(flow.height, 0));
  if (flow.width <= 0 || flow.height <= 0 || flow.width > kMaxSide || flow.height > kMaxSide ||
      flow.u.size() != n || flow.v.size() != n)
    throw std::invalid_argument(path + ": cannot write a " + std::to_string(flow.width) + "x" +
                                std::to_string(flow.height) + " flow with " +
                                std::to_string(flow.u.size()) + "/" +
                                std::to_string(flow.v.size()) + " values");
  std::vector<unsigned char> bytes(12 + 8 * n);
  store_le32(bytes.data(), float_to_bits(kFloTag));
  store_le32(bytes.data() + 4, static_cast<std::uint32_t>(flow.width));
  store_le32(bytes.data() + 8, static_cast<std::uint32_t>(flow.height));
  for (std::size_t i = 0; i < n; ++i) {
    store_le32(bytes.data() + 12 + 8 * i, float_to_bits(flow.u[i]));
    store_le32(bytes.data() + 16 + 8 * i, float_to_bits(flow.v[i]));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, std::string("cannot open for writing: ") + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail(path, "write error");
}

}  // namespace flowtune
