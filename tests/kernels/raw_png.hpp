// Test-only: PNG files written byte by byte (signature, IHDR, one zlib-compressed IDAT, IEND,
// each chunk with its CRC-32), independently of libpng, as the oracle of the readers.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune::test {

namespace detail {
inline void put32(std::vector<unsigned char>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
}
inline void chunk(std::vector<unsigned char>& file, const char* type,
                  const std::vector<unsigned char>& data) {
  put32(file, std::uint32_t(data.size()));
  std::vector<unsigned char> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  file.insert(file.end(), body.begin(), body.end());
  put32(file, std::uint32_t(crc32(0, body.data(), uInt(body.size()))));
}
}  // namespace detail

/// Writes a w x h PNG of `channels` samples per pixel (1 gray, 3 RGB) of `bit_depth` 8 or 16:
/// samples row-major, channel-interleaved (16-bit samples stored big-endian, as PNG does),
/// filter type 0 on every row, no interlace.
inline void write_raw_png(const std::string& path, int w, int h, int channels, int bit_depth,
                          const std::vector<std::uint16_t>& samples) {
  if (samples.size() != std::size_t(w) * h * channels)
    throw std::invalid_argument("write_raw_png: wrong number of samples");
  std::vector<unsigned char> raw;
  for (int y = 0; y < h; ++y) {
    raw.push_back(0);  // filter: none
    for (int i = 0; i < w * channels; ++i) {
      const std::uint16_t s = samples[std::size_t(y) * w * channels + i];
      if (bit_depth == 16) raw.push_back(static_cast<unsigned char>(s >> 8));
      raw.push_back(static_cast<unsigned char>(s & 0xff));
    }
  }
  uLongf n = compressBound(uLong(raw.size()));
  std::vector<unsigned char> z(n);
  if (compress(z.data(), &n, raw.data(), uLong(raw.size())) != Z_OK)
    throw std::runtime_error("write_raw_png: zlib failed");
  z.resize(n);
  std::vector<unsigned char> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<unsigned char> ihdr;
  detail::put32(ihdr, std::uint32_t(w));
  detail::put32(ihdr, std::uint32_t(h));
  ihdr.push_back(static_cast<unsigned char>(bit_depth));
  ihdr.push_back(channels == 3 ? 2 : 0);  // colour type: RGB or gray
  ihdr.push_back(0);
  ihdr.push_back(0);
  ihdr.push_back(0);
  detail::chunk(file, "IHDR", ihdr);
  detail::chunk(file, "IDAT", z);
  detail::chunk(file, "IEND", {});
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
}

}  // namespace flowtune::test
