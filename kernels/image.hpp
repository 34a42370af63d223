// Image and flow-field containers shared by every kernel, variant and tool.
#pragma once

#include <cstddef>
#include <vector>

namespace flowtune {

/// A single-channel 2-D array, row-major: element (x, y) is data[y * width + x].
/// Shape: height rows x width columns. No padding.
template <typename T>
struct Plane {
  int width = 0;
  int height = 0;
  std::vector<T> data;

  Plane() = default;
  Plane(int w, int h, T fill = T()) : width(w), height(h), data(std::size_t(w) * h, fill) {}
  std::size_t size() const { return data.size(); }
  T& at(int x, int y) { return data[std::size_t(y) * width + x]; }
  const T& at(int x, int y) const { return data[std::size_t(y) * width + x]; }
};

/// Grayscale image, float intensities in [0, 255] (numerics contract, ARCHITECTURE.md).
using Image = Plane<float>;

/// Dense optical flow, planar: u (horizontal, +x right) and v (vertical, +y down), in
/// pixels, each width x height row-major. Unknown ground truth is stored as |u| or |v| >
/// 1e9 or NaN (Baker et al. 2011, .flo format).
struct FlowField {
  int width = 0;
  int height = 0;
  std::vector<float> u;
  std::vector<float> v;

  FlowField() = default;
  FlowField(int w, int h)
      : width(w), height(h), u(std::size_t(w) * h, 0.f), v(std::size_t(w) * h, 0.f) {}
  std::size_t size() const { return u.size(); }
};

}  // namespace flowtune
