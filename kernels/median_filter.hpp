// Median filtering of the flow after each warping (Wedel, Pock, Zach, Bischof, Cremers, "An
// improved algorithm for TV-L1 optical flow", 2009, sec. 3; Sun, Roth, Black, "Secrets of
// optical flow estimation and their principles", CVPR 2010, sec. 3.3): each flow component is
// replaced by the median of its window x window neighbourhood. The per-pixel code is written
// once for the host and the device: the CPU reference (double, median_px) and the GPU frame
// kernel (kernels/cuda/frame/flow_filters.cu, float) both gather the window with
// median_window_samples and select with median_select (kernels/cuda/median_select.cuh,
// which the tiled levels' kernel shares).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/median_select.cuh"

namespace flowtune {

/// Median of the window x window neighbourhood centred on (x, y) of a w x h row-major plane
/// whose texel (i, j) is load(i, j); clamp-to-edge reads at the borders (each out-of-image
/// sample repeats the nearest edge texel). window: 1, 3 or 5 (1 = the texel itself; others
/// are not checked here, see check_median_window). Returns the middle sample, (window^2 - 1)
/// / 2, of the sorted window (median_select): for an odd count the median is exact (no
/// averaging).
template <class Real, class Load>
FT_MEDIAN_HD Real median_px(const Load& load, int w, int h, int x, int y, int window) {
  Real s[kMaxMedianWindow * kMaxMedianWindow];
  if (window == 3) {
    median_window_samples<Real, 3>(load, w, h, x, y, s);
    return median_select<Real, 9>(s);
  }
  if (window == 5) {
    median_window_samples<Real, 5>(load, w, h, x, y, s);
    return median_select<Real, 25>(s);
  }
  return load(x, y);
}

/// Throws std::invalid_argument naming `who` unless window is 0 (off), 3 or 5.
inline void check_median_window(int window, const char* who) {
  if (window != 0 && window != 3 && window != 5)
    throw std::invalid_argument(std::string(who) + ": median_window must be 0 (off), 3 or 5, got " +
                                std::to_string(window));
}

/// The median filter of one w x h row-major plane (out of place): out[y w + x] =
/// median_px(in, x, y, window). Throws std::invalid_argument if in.size() != w h or the
/// window is not 0, 3 or 5 (0 copies the plane).
template <class Real>
std::vector<Real> median_filter(const std::vector<Real>& in, int w, int h, int window) {
  check_median_window(window, "median_filter");
  if (w < 0 || h < 0 || in.size() != std::size_t(w) * std::size_t(h))
    throw std::invalid_argument("median_filter: plane of " + std::to_string(in.size()) +
                                " values is not " + std::to_string(w) + "x" + std::to_string(h));
  if (window == 0) return in;
  std::vector<Real> out(in.size());
  const Real* p = in.data();
  const auto load = [p, w](int i, int j) { return p[std::size_t(j) * w + i]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[std::size_t(y) * w + x] = median_px<Real>(load, w, h, x, y, window);
  return out;
}

}  // namespace flowtune
