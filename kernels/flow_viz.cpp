#include "kernels/flow_viz.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>

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

namespace {

// The wheel's colours over 255, as flow_color divides them (the same doubles, computed once).
const std::vector<std::array<double, 3>>& unit_color_wheel() {
  static const std::vector<std::array<double, 3>> unit = [] {
    std::vector<std::array<double, 3>> out;
    for (const auto& c : middlebury_color_wheel())
      out.push_back({c[0] / 255.0, c[1] / 255.0, c[2] / 255.0});
    return out;
  }();
  return unit;
}

}  // namespace

std::array<std::uint8_t, 3> flow_color(double u, double v) {
  const auto& wheel = unit_color_wheel();
  const int ncols = static_cast<int>(wheel.size());
  const double pi = 3.14159265358979323846;  // std::acos(-1.0), the nearest double to pi
  const double rad = std::sqrt(u * u + v * v);
  const double a = std::atan2(-v, -u) / pi;         // in [-1, 1]
  const double fk = (a + 1.0) / 2.0 * (ncols - 1);  // in [0, ncols - 1]
  const int k0 = std::clamp(static_cast<int>(std::floor(fk)), 0, ncols - 1);
  const int k1 = (k0 + 1) % ncols;
  const double f = fk - k0;
  std::array<std::uint8_t, 3> out{};
  for (int c = 0; c < 3; ++c) {
    const double col0 = wheel[std::size_t(k0)][std::size_t(c)];
    const double col1 = wheel[std::size_t(k1)][std::size_t(c)];
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
  // The largest squared length, then one square root: std::hypot per pixel costs more than
  // the rest of a picture (a float's square is exact in double, so the maximum is the same
  // vector's length to the last bit or one).
  double max_sq = 0;
  for (std::size_t i = 0; i < flow.size(); ++i)
    if (is_known_flow(flow.u[i], flow.v[i])) {
      const double u = flow.u[i], v = flow.v[i];
      max_sq = std::max(max_sq, u * u + v * v);
    }
  return max_sq > 0 ? std::sqrt(max_sq) : 1.0;
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

namespace {

// 5 x 7 glyphs (bit 4 = leftmost column) of the characters a key label uses.
const std::uint8_t* glyph(char c) {
  static const std::uint8_t kDigits[10][7] = {
      {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}, {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},
      {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}, {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},
      {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}, {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},
      {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}, {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
      {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}, {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}};
  static const std::uint8_t kDot[7] = {0, 0, 0, 0, 0, 0x0C, 0x0C};
  static const std::uint8_t kP[7] = {0, 0, 0x1E, 0x11, 0x1E, 0x10, 0x10};
  static const std::uint8_t kX[7] = {0, 0, 0x11, 0x0A, 0x04, 0x0A, 0x11};
  static const std::uint8_t kBlank[7] = {0, 0, 0, 0, 0, 0, 0};
  if (c >= '0' && c <= '9') return kDigits[c - '0'];
  if (c == '.') return kDot;
  if (c == 'p') return kP;
  if (c == 'x') return kX;
  return kBlank;
}

}  // namespace

std::string flow_key_label(double r) {
  char buf[32];
  if (!(r < 1e9)) r = 1e9;
  if (r >= 100) {
    std::snprintf(buf, sizeof buf, "%.0f", r);
  } else {
    const int decimals = r >= 10 ? 1 : r >= 1 ? 2 : 3;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, r);
  }
  return std::string(buf) + " px";
}

RgbImage flow_rgb_with_key(const FlowField& flow, double max_radius) {
  const int w = flow.width, h = flow.height;
  std::vector<std::uint8_t> plain = flow_to_rgb(flow, max_radius);
  if (w < 24 || h < 24) return {w, h, std::move(plain)};
  const int r = std::max(8, std::min(w, h) / 8);
  const std::string label = flow_key_label(flow_viz_radius(flow, max_radius));
  const int label_w = 6 * int(label.size()) - 1;
  const int panel_w = std::max(2 * r + 10, label_w + 8);
  const int out_w = w + panel_w, out_h = std::max(h, 2 * r + 21);
  RgbImage out{out_w, out_h, std::vector<std::uint8_t>(std::size_t(out_w) * out_h * 3, 255)};
  auto put = [&](int x, int y, std::array<std::uint8_t, 3> c) {
    std::copy(c.begin(), c.end(),
              out.rgb.begin() + std::ptrdiff_t(3 * (std::size_t(y) * out_w + std::size_t(x))));
  };
  for (int y = 0; y < h; ++y)
    std::copy(plain.begin() + std::ptrdiff_t(3 * std::size_t(y) * w),
              plain.begin() + std::ptrdiff_t(3 * std::size_t(y + 1) * w),
              out.rgb.begin() + std::ptrdiff_t(3 * std::size_t(y) * out_w));
  const int cx = w + panel_w / 2, cy = 5 + r;
  for (int y = cy - r - 1; y <= cy + r + 1; ++y)
    for (int x = cx - r - 1; x <= cx + r + 1; ++x) {
      const double dx = x - cx, dy = y - cy, d = std::hypot(dx, dy);
      if (d > r + 1) continue;
      put(x, y, d <= r ? flow_color(dx / r, dy / r) : std::array<std::uint8_t, 3>{0, 0, 0});
    }
  const int lx = w + (panel_w - label_w) / 2, ly = cy + r + 6;
  for (std::size_t k = 0; k < label.size(); ++k) {
    const std::uint8_t* g = glyph(label[k]);
    for (int row = 0; row < 7; ++row)
      for (int col = 0; col < 5; ++col)
        if (g[row] & (0x10 >> col)) put(lx + 6 * int(k) + col, ly + row, {0, 0, 0});
  }
  return out;
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
  if (key) {
    const RgbImage im = flow_rgb_with_key(flow, max_radius);
    write_png_rgb(path, im.width, im.height, im.rgb);
    return;
  }
  write_png_rgb(path, flow.width, flow.height, flow_to_rgb(flow, max_radius));
}

}  // namespace flowtune
