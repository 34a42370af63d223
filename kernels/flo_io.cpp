#include "kernels/flo_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "kernels/file_error.hpp"

namespace flowtune {

namespace {

constexpr float kFloTag = 202021.25f;
constexpr std::int64_t kMaxSide = 1 << 15;  // for writing: what other .flo tools accept
// Hard cap whatever ImageLimits says: keeps 12 + 8 * pixels far from int64 overflow.
constexpr std::uint64_t kMaxPixels = std::uint64_t(1) << 56;

static_assert(sizeof(float) == 4, ".flo needs 32-bit floats");

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
  return read_flo(path, default_image_limits());
}

FlowField read_flo(const std::string& path, const ImageLimits& limits) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_file_error(path, "is a directory, not a .flo file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_file_error(path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff file_bytes = in.tellg();
  in.seekg(0, std::ios::beg);
  if (file_bytes < 0 || !in)
    throw_file_error(path, "cannot determine the file size (not a regular file?)");

  unsigned char header[12];
  if (file_bytes < 12 || !in.read(reinterpret_cast<char*>(header), 12))
    throw_file_error(path,
                     "truncated .flo header (" + std::to_string(file_bytes) + " bytes, need 12)");
  const float tag = bits_to_float(load_le32(header));
  if (tag != kFloTag) throw_file_error(path, "bad .flo magic (expected 202021.25, \"PIEH\")");
  const auto width = static_cast<std::int32_t>(load_le32(header + 4));
  const auto height = static_cast<std::int32_t>(load_le32(header + 8));
  if (width <= 0 || height <= 0)
    throw_file_error(path, "unsupported .flo dimensions " + std::to_string(width) + "x" +
                               std::to_string(height) + " (each side must be at least 1)");
  // Both sides < 2^31, so the product fits; so does 12 + 8 * it once under the budget check
  // below (which also caps it at 2^56 pixels whatever max_pixels says).
  const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
  if (pixels > limits.max_pixels || pixels > kMaxPixels)
    throw_file_error(
        path, "flow field of " + std::to_string(width) + "x" + std::to_string(height) + " = " +
                  std::to_string(pixels) + " pixels exceeds the limit of " +
                  std::to_string(std::min<std::uint64_t>(limits.max_pixels, kMaxPixels)) +
                  " pixels (--max-pixels)");
  const std::int64_t expected = 12 + 8 * std::int64_t(width) * height;
  if (file_bytes != expected)
    throw_file_error(path, std::string(file_bytes < expected ? "truncated" : "oversized") +
                               " .flo file: " + std::to_string(file_bytes) + " bytes, expected " +
                               std::to_string(expected) + " for " + std::to_string(width) + "x" +
                               std::to_string(height));

  // Decoded in chunks of 64 Ki pixels, so the peak is the FlowField plus 512 KiB.
  FlowField flow(width, height);
  constexpr std::size_t kChunkPixels = std::size_t(1) << 16;
  std::vector<unsigned char> chunk(8 * std::min<std::size_t>(kChunkPixels, flow.size()));
  for (std::size_t first = 0; first < flow.size(); first += kChunkPixels) {
    const std::size_t n = std::min(kChunkPixels, flow.size() - first);
    if (!in.read(reinterpret_cast<char*>(chunk.data()), static_cast<std::streamsize>(8 * n)))
      throw_file_error(path, "read error in .flo data");
    for (std::size_t i = 0; i < n; ++i) {
      flow.u[first + i] = bits_to_float(load_le32(chunk.data() + 8 * i));
      flow.v[first + i] = bits_to_float(load_le32(chunk.data() + 8 * i + 4));
    }
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
  if (!out) throw_file_error(path, std::string("cannot open for writing: ") + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw_file_error(path, "write error");
}

}  // namespace flowtune
