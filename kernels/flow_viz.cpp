#include "kernels/flow_viz.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {

namespace {

std::vector<std::array<std::uint8_t, 3>> make_wheel() {
  const int RY = 15, YG = 6, GC = 4, CB = 11, BM = 13, MR = 6;
  std::vector<std::array<std::uint8_t, 3>> wheel;
  auto ramp = [](int k, int len) { return static_cast<std::uint8_t>(255 * k / len); };
  auto inv = [](int k, int len) { return static_cast<std::uint8_t>(255 - 255 * k / len); };
  for (int k = 0; k < RY; ++k) wheel.push_back({255, ramp(k, RY), 0});
  for (int k = 0; k < YG; ++k) wheel.push_back({inv(k, YG), 255, 0});
  for (int k = 0; k < GC; ++k) wheel.push_back({0, 255, ramp(k, GC)});
  for (int k = 0; k < CB; ++k) wheel.push_back({0, inv(k, CB), 255});
  for (int k = 0; k < BM; ++k) wheel.push_back({ramp(k, BM), 0, 255});
  for (int k = 0; k < MR; ++k) wheel.push_back({255, 0, inv(k, MR)});
  return wheel;
}

}  // namespace

const std::vector<std::array<std::uint8_t, 3>>& middlebury_color_wheel() {
  static const std::vector<std::array<std::uint8_t, 3>> wheel = make_wheel();
  return wheel;
}

std::array<std::uint8_t, 3> flow_color(double u, double v) {
  const auto& wheel = middlebury_color_wheel();
  const int ncols = static_cast<int>(wheel.size());
  const double pi = std::acos(-1.0);
  const double rad = std::sqrt(u * u + v * v);
  const double a = std::atan2(-v, -u) / pi;         // in [-1, 1]
  const double fk = (a + 1.0) / 2.0 * (ncols - 1);  // in [0, ncols - 1]
  const int k0 = std::clamp(static_cast<int>(std::floor(fk)), 0, ncols - 1);
  const int k1 = (k0 + 1) % ncols;
  const double f = fk - k0;
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) {
    const double col0 = wheel[std::size_t(k0)][std::size_t(c)] / 255.0;
    const double col1 = wheel[std::size_t(k1)][std::size_t(c)] / 255.0;
    double col = (1 - f) * col0 + f * col1;
    if (rad <= 1)
      col = 1 - rad * (1 - col);
    else
      col *= 0.75;
    out[std::size_t(c)] =
        static_cast<std::uint8_t>(std::clamp(std::floor(255.0 * col), 0.0, 255.0));
  }
  return out;
}

double flow_viz_radius(const FlowField& flow, double max_radius) {
  if (max_radius > 0) return max_radius;
  double maxrad = 0;
  for (std::size_t i = 0; i < flow.size(); ++i)
    if (is_known_flow(flow.u[i], flow.v[i]))
      maxrad = std::max(maxrad, std::hypot(double(flow.u[i]), double(flow.v[i])));
  return maxrad > 0 ? maxrad : 1.0;
}

double flow_viz_quantile_radius(const FlowField& flow, double quantile) {
  std::vector<double> radii;
  radii.reserve(flow.size());
  for (std::size_t i = 0; i < flow.size(); ++i)
    if (is_known_flow(flow.u[i], flow.v[i]))
      radii.push_back(std::hypot(double(flow.u[i]), double(flow.v[i])));
  if (radii.empty()) return 1.0;
  const double q = std::min(1.0, std::max(0.0, quantile));
  const auto k = static_cast<std::size_t>(std::ceil(q * double(radii.size()))) - (q > 0 ? 1 : 0);
  std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(k), radii.end());
  return radii[k] > 0 ? radii[k] : 1.0;
}

void draw_color_wheel_key(std::vector<std::uint8_t>& rgb, int width, int height) {
  if (width < 24 || height < 24) return;
  const int r = std::max(8, std::min(width, height) / 8);
  const int cx = width - r - 4, cy = height - r - 4;
  for (int y = cy - r - 1; y <= cy + r + 1; ++y)
    for (int x = cx - r - 1; x <= cx + r + 1; ++x) {
      const double dx = x - cx, dy = y - cy, d = std::hypot(dx, dy);
      if (d > r + 1) continue;
      const std::size_t i = 3 * (std::size_t(y) * std::size_t(width) + std::size_t(x));
      std::array<std::uint8_t, 3> c = {0, 0, 0};  // the ring
      if (d <= r) c = flow_color(dx / r, dy / r);
      std::copy(c.begin(), c.end(), rgb.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

std::vector<std::uint8_t> flow_to_rgb(const FlowField& flow, double max_radius) {
  const std::size_t n = flow.size();
  max_radius = flow_viz_radius(flow, max_radius);
  std::vector<std::uint8_t> rgb(3 * n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_known_flow(flow.u[i], flow.v[i])) continue;
    const auto c = flow_color(flow.u[i] / max_radius, flow.v[i] / max_radius);
    std::copy(c.begin(), c.end(), rgb.begin() + static_cast<std::ptrdiff_t>(3 * i));
  }
  return rgb;
}

void write_flow_png(const std::string& path, const FlowField& flow, double max_radius, bool key) {
  std::vector<std::uint8_t> rgb = flow_to_rgb(flow, max_radius);
  if (key) draw_color_wheel_key(rgb, flow.width, flow.height);
  write_png_rgb(path, flow.width, flow.height, rgb);
}

}  // namespace flowtune
