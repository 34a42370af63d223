// Test-only: the files of the optical-flow datasets, written in their exact formats (8-bit
// PNG frames, Middlebury .flo, KITTI's 16-bit flow PNG byte by byte, Sintel's occlusion PNGs)
// into a per-test folder.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "kernels/png_io.hpp"
#include "tests/kernels/raw_png.hpp"

namespace flowtune::test {

/// Writes `im` (values rounded to 0..255) as an 8-bit RGB PNG with R = G = B, so that
/// read_png_gray gives the rounded values back.
inline void write_gray_png(const std::filesystem::path& path, const Image& im) {
  std::filesystem::create_directories(path.parent_path());
  std::vector<std::uint8_t> rgb(im.size() * 3);
  for (std::size_t i = 0; i < im.size(); ++i) {
    const double v = std::round(std::fmin(255.0, std::fmax(0.0, double(im.data[i]))));
    rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = std::uint8_t(v);
  }
  write_png_rgb(path.string(), im.width, im.height, rgb);
}

/// Writes a KITTI flow file byte by byte: each vector (u, v) of `valid` pixels as
/// R = 2^15 + 64 u, G = 2^15 + 64 v, B = 1 (u, v multiples of 1/64 here), others 0.
inline void write_kitti_flow_raw(const std::filesystem::path& path, const FlowField& flow,
                                 const std::vector<bool>& valid) {
  std::filesystem::create_directories(path.parent_path());
  std::vector<std::uint16_t> s;
  for (std::size_t i = 0; i < flow.size(); ++i) {
    if (!valid[i]) {
      s.insert(s.end(), {0, 0, 0});
      continue;
    }
    s.push_back(std::uint16_t(32768 + std::lround(64.0 * flow.u[i])));
    s.push_back(std::uint16_t(32768 + std::lround(64.0 * flow.v[i])));
    s.push_back(1);
  }
  write_raw_png(path.string(), flow.width, flow.height, 3, 16, s);
}

}  // namespace flowtune::test
