// Frame pairs resampled to a deployment resolution (see resolution.hpp).
#include "workloads/tvl1/resolution.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/image_ops.hpp"

namespace flowtune {
namespace {

// One axis of a Gaussian filter (taps exp(-i^2 / (2 sigma^2)) for |i| <= ceil(3 sigma),
// normalised; clamp-to-edge reads); sigma <= 0 returns the input.
Image gaussian_axis(const Image& in, double sigma, bool along_x) {
  if (!(sigma > 0)) return in;
  const int radius = std::max(1, int(std::ceil(3 * sigma)));
  std::vector<double> taps(std::size_t(2 * radius + 1));
  double sum = 0;
  for (int i = -radius; i <= radius; ++i)
    sum += taps[std::size_t(i + radius)] = std::exp(-0.5 * i * i / (sigma * sigma));
  for (double& t : taps) t /= sum;
  Image out(in.width, in.height);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      double acc = 0;
      for (int i = -radius; i <= radius; ++i) {
        const int xx = along_x ? std::clamp(x + i, 0, in.width - 1) : x;
        const int yy = along_x ? y : std::clamp(y + i, 0, in.height - 1);
        acc += taps[std::size_t(i + radius)] * in.at(xx, yy);
      }
      out.at(x, y) = float(acc);
    }
  return out;
}

double shrink_sigma(int in, int out) {
  const double s = double(out) / in;
  return s < 1 ? 0.6 * std::sqrt(1.0 / (s * s) - 1.0) : 0.0;
}

Image resample_frame(const Image& in, const Resolution& r) {
  const Image smooth = gaussian_axis(gaussian_axis(in, shrink_sigma(in.width, r.width), true),
                                     shrink_sigma(in.height, r.height), false);
  Image out(r.width, r.height);
  const double sx = double(in.width) / r.width, sy = double(in.height) / r.height;
  for (int y = 0; y < r.height; ++y)
    for (int x = 0; x < r.width; ++x) {
      const float v = bicubic_at(smooth, float((x + 0.5) * sx - 0.5), float((y + 0.5) * sy - 0.5));
      out.at(x, y) = std::clamp(v, 0.f, 255.f);
    }
  return out;
}

// The input index nearest to output pixel o's centre.
int nearest(int o, int in_n, int out_n) {
  return std::clamp(int(std::floor((o + 0.5) * in_n / out_n)), 0, in_n - 1);
}

FlowField resample_ground_truth(const FlowField& in, const Resolution& r) {
  FlowField out(r.width, r.height);
  const float fu = float(double(r.width) / in.width), fv = float(double(r.height) / in.height);
  for (int y = 0; y < r.height; ++y) {
    const int iy = nearest(y, in.height, r.height);
    for (int x = 0; x < r.width; ++x) {
      const std::size_t src = std::size_t(iy) * in.width + nearest(x, in.width, r.width);
      const std::size_t dst = std::size_t(y) * r.width + x;
      const float u = in.u[src], v = in.v[src];
      // Unknown (> 1e9 or NaN) is kept as stored: scaling could bring it under the mark.
      const bool known = std::fabs(u) <= 1e9f && std::fabs(v) <= 1e9f;
      out.u[dst] = known ? u * fu : u;
      out.v[dst] = known ? v * fv : v;
    }
  }
  return out;
}

Plane<std::uint8_t> resample_mask(const Plane<std::uint8_t>& in, const Resolution& r) {
  Plane<std::uint8_t> out(r.width, r.height);
  for (int y = 0; y < r.height; ++y)
    for (int x = 0; x < r.width; ++x)
      out.at(x, y) = in.at(nearest(x, in.width, r.width), nearest(y, in.height, r.height));
  return out;
}

}  // namespace

void resample_sequence(Sequence& s, const Resolution& r) {
  if (r.width < 1 || r.height < 1)
    throw std::invalid_argument("resample_sequence: empty resolution");
  if (s.i0.width == r.width && s.i0.height == r.height) return;
  s.i0 = resample_frame(s.i0, r);
  s.i1 = resample_frame(s.i1, r);
  if (s.has_ground_truth()) s.ground_truth = resample_ground_truth(s.ground_truth, r);
  if (s.not_occluded.width > 0) s.not_occluded = resample_mask(s.not_occluded, r);
  s.reference = FlowField();
  s.visible = Plane<std::uint8_t>();
}

void resample_dataset(FlowDataset& d, const Resolution& r) {
  if (r.empty()) return;
  bool changed = false;
  for (Sequence& s : d.sequences) {
    changed = changed || s.i0.width != r.width || s.i0.height != r.height;
    resample_sequence(s, r);
  }
  if (!changed) return;
  d.key += "@" + resolution_text(r);
  d.description += ", resampled to " + resolution_text(r);
}

}  // namespace flowtune
