#include "kernels/photometric.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/bilinear.hpp"
#include "kernels/metrics.hpp"

namespace flowtune {
namespace {

std::string shape(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

}  // namespace

Plane<std::uint8_t> forward_backward_visible(const FlowField& forward, const FlowField& backward) {
  const int w = forward.width, h = forward.height;
  if (backward.width != w || backward.height != h || forward.size() != std::size_t(w) * h ||
      backward.size() != std::size_t(w) * h || w < 1 || h < 1)
    throw std::invalid_argument("forward_backward_visible: forward flow is " + shape(w, h) +
                                ", backward flow is " + shape(backward.width, backward.height));
  Plane<std::uint8_t> visible(w, h, 0);
  const auto bu = [&](int x, int y) { return backward.u[std::size_t(y) * w + x]; };
  const auto bv = [&](int x, int y) { return backward.v[std::size_t(y) * w + x]; };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      const float fu = forward.u[i], fv = forward.v[i];
      if (!is_known_flow(fu, fv)) continue;
      const double tx = x + double(fu), ty = y + double(fv);
      if (!(tx >= 0 && tx <= w - 1 && ty >= 0 && ty <= h - 1)) continue;
      const double wu = bilinear_sample<double>(bu, w, h, tx, ty);
      const double wv = bilinear_sample<double>(bv, w, h, tx, ty);
      const double du = fu + wu, dv = fv + wv;
      const double lhs = du * du + dv * dv;
      const double rhs = 0.01 * (double(fu) * fu + double(fv) * fv + wu * wu + wv * wv) + 0.5;
      visible.at(x, y) = lhs <= rhs ? 1 : 0;
    }
  }
  return visible;
}

PhotometricError photometric_error(const Image& i0, const Image& i1, const FlowField& flow,
                                   const Plane<std::uint8_t>& visible) {
  const int w = i0.width, h = i0.height;
  const std::size_t n = std::size_t(w) * std::size_t(h);
  if (i1.width != w || i1.height != h || flow.width != w || flow.height != h ||
      visible.width != w || visible.height != h || i0.size() != n || i1.size() != n ||
      flow.size() != n || visible.size() != n)
    throw std::invalid_argument("photometric_error: frames " + shape(w, h) + " and " +
                                shape(i1.width, i1.height) + ", flow " +
                                shape(flow.width, flow.height) + ", mask " +
                                shape(visible.width, visible.height));
  const auto load = [&](int x, int y) { return double(i1.data[std::size_t(y) * w + x]); };
  const double eps2 = kPhotometricEpsilon * kPhotometricEpsilon;
  double sum = 0;
  std::size_t count = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      if (!visible.data[i] || !is_known_flow(flow.u[i], flow.v[i])) continue;
      const double warped =
          bilinear_sample<double>(load, w, h, x + double(flow.u[i]), y + double(flow.v[i]));
      const double r = warped - i0.data[i];
      sum += std::sqrt(r * r + eps2);
      ++count;
    }
  }
  if (count == 0) throw std::invalid_argument("photometric_error: no visible pixel");
  return {sum / double(count), count};
}

}  // namespace flowtune
