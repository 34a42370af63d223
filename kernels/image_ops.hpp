// Image operations of the TV-L1 pyramid and warping, templated on the arithmetic type Real
// (double for the reference, float for the variants). They follow IPOL 2013 (Sanchez Perez,
// Meinhardt-Llopis, Facciolo, "TV-L1 optical flow estimation", tvl1flow_lib.c, mask.c,
// bicubic_interpolation.c, zoom.c), except where a comment says otherwise.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune {

/// Converts a float plane (e.g. an Image) to a plane of another arithmetic type.
template <typename Real, typename T>
Plane<Real> plane_cast(const Plane<T>& in) {
  Plane<Real> out(in.width, in.height);
  for (std::size_t i = 0; i < in.size(); ++i) out.data[i] = static_cast<Real>(in.data[i]);
  return out;
}

/// Jointly rescales two frames to [0, 255]: x -> 255 (x - min) / (max - min), with min and max
/// over both frames (IPOL image_normalization). If max == min the frames are copied unchanged.
/// Both planes must have the same number of pixels.
template <typename Real>
void normalize_pair(Plane<Real>& a, Plane<Real>& b) {
  if (a.size() == 0 || a.size() != b.size()) return;
  const auto [amin, amax] = std::minmax_element(a.data.begin(), a.data.end());
  const auto [bmin, bmax] = std::minmax_element(b.data.begin(), b.data.end());
  const Real lo = std::min(*amin, *bmin);
  const Real hi = std::max(*amax, *bmax);
  const Real den = hi - lo;
  if (!(den > Real(0))) return;
  const Real scale = Real(255) / den;
  for (auto& x : a.data) x = (x - lo) * scale;
  for (auto& x : b.data) x = (x - lo) * scale;
}

namespace detail {
/// Boundary extension of the IPOL Gaussian filter (BOUNDARY_CONDITION_REFLECTING): position
/// -k reads k and position n-1+k reads n-k; clamped for planes narrower than the window.
inline int gaussian_reflect(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 1 - i;
  return std::clamp(i, 0, n - 1);
}
}  // namespace detail

/// Separable Gaussian smoothing (IPOL mask.c gaussian): kernel exp(-i^2 / (2 sigma^2)) for
/// |i| < (int)(5 sigma) + 1, normalised to sum 1, reflecting boundaries, rows then columns.
/// sigma in pixels; sigma <= 0 returns the input unchanged.
template <typename Real>
Plane<Real> gaussian_smooth(const Plane<Real>& in, double sigma) {
  if (!(sigma > 0) || in.size() == 0) return in;
  const int radius = static_cast<int>(5.0 * sigma) + 1;  // IPOL: window_size * sigma + 1 taps
  std::vector<double> taps(static_cast<std::size_t>(radius));
  double norm = 0;
  for (int i = 0; i < radius; ++i) {
    taps[std::size_t(i)] = std::exp(-double(i) * i / (2 * sigma * sigma));
    norm += (i == 0 ? 1 : 2) * taps[std::size_t(i)];
  }
  for (auto& t : taps) t /= norm;
  const int w = in.width, h = in.height;
  Plane<Real> tmp(w, h), out(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = taps[0] * double(in.at(x, y));
      for (int k = 1; k < radius; ++k)
        s += taps[std::size_t(k)] * (double(in.at(detail::gaussian_reflect(x - k, w), y)) +
                                     double(in.at(detail::gaussian_reflect(x + k, w), y)));
      tmp.at(x, y) = static_cast<Real>(s);
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double s = taps[0] * double(tmp.at(x, y));
      for (int k = 1; k < radius; ++k)
        s += taps[std::size_t(k)] * (double(tmp.at(x, detail::gaussian_reflect(y - k, h))) +
                                     double(tmp.at(x, detail::gaussian_reflect(y + k, h))));
      out.at(x, y) = static_cast<Real>(s);
    }
  }
  return out;
}

namespace detail {
/// Keys cubic convolution (a = -1/2, Catmull-Rom) through v[0..3] at nodes -1, 0, 1, 2,
/// evaluated at t in [0, 1] (IPOL cubic_interpolation_cell).
template <typename Real>
inline Real cubic_cell(Real v0, Real v1, Real v2, Real v3, Real t) {
  return v1 + Real(0.5) * t *
                  (v2 - v0 +
                   t * (Real(2) * v0 - Real(5) * v1 + Real(4) * v2 - v3 +
                        t * (Real(3) * (v1 - v2) + v3 - v0)));
}
}  // namespace detail

/// Bicubic (Keys, a = -1/2) interpolation of `in` at the real position (x, y), pixel centres
/// at integer coordinates, clamp-to-edge reads outside the plane (numerics contract; IPOL
/// bicubic_interpolation_at with Neumann boundaries and border_out = false).
template <typename Real>
Real bicubic_at(const Plane<Real>& in, Real x, Real y) {
  const Real fx = std::floor(x), fy = std::floor(y);
  const Real tx = x - fx, ty = y - fy;
  // Clamp before converting so that huge displacements cannot overflow int.
  const Real lim_x = Real(in.width + 2), lim_y = Real(in.height + 2);
  const int ix = static_cast<int>(std::clamp(fx, Real(-3), lim_x));
  const int iy = static_cast<int>(std::clamp(fy, Real(-3), lim_y));
  int xs[4], ys[4];
  for (int k = 0; k < 4; ++k) {
    xs[k] = std::clamp(ix - 1 + k, 0, in.width - 1);
    ys[k] = std::clamp(iy - 1 + k, 0, in.height - 1);
  }
  Real col[4];
  for (int k = 0; k < 4; ++k) {
    col[k] = detail::cubic_cell(in.at(xs[k], ys[0]), in.at(xs[k], ys[1]), in.at(xs[k], ys[2]),
                                in.at(xs[k], ys[3]), ty);
  }
  return detail::cubic_cell(col[0], col[1], col[2], col[3], tx);
}

/// Size of a plane side after zooming by `zoom` in (0, 1]: (int)(n * zoom + 0.5) (IPOL
/// zoom_size), at least 1.
inline int zoom_size(int n, double zoom) {
  return std::max(1, static_cast<int>(double(n) * zoom + 0.5));
}

/// Down-samples by `zoom` in (0, 1) (IPOL zoom_out): Gaussian pre-filter of sigma
/// 0.6 * sqrt(1 / zoom^2 - 1), then bicubic sampling at (x / zoom, y / zoom).
/// Output: zoom_size(width) x zoom_size(height).
template <typename Real>
Plane<Real> zoom_out(const Plane<Real>& in, double zoom) {
  if (!(zoom > 0 && zoom < 1)) throw std::invalid_argument("zoom_out: zoom must be in (0, 1)");
  const Plane<Real> smooth = gaussian_smooth(in, 0.6 * std::sqrt(1.0 / (zoom * zoom) - 1.0));
  Plane<Real> out(zoom_size(in.width, zoom), zoom_size(in.height, zoom));
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      out.at(x, y) = bicubic_at(smooth, static_cast<Real>(x / zoom), static_cast<Real>(y / zoom));
  return out;
}

/// Up-samples to width x height by bicubic sampling at (x * in.width / width,
/// y * in.height / height), then multiplies every value by `factor` (IPOL zoom_in; for a flow
/// component factor = 1 / zoom, as IPOL's multiscale driver does).
template <typename Real>
Plane<Real> zoom_in(const Plane<Real>& in, int width, int height, Real factor = Real(1)) {
  Plane<Real> out(width, height);
  const double sx = double(in.width) / width, sy = double(in.height) / height;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      out.at(x, y) = factor * bicubic_at(in, static_cast<Real>(x * sx), static_cast<Real>(y * sy));
  return out;
}

/// Central-difference gradient with clamp-to-edge reads: gx = (f(x+1) - f(x-1)) / 2, so on
/// the first/last column (f(x+1) - f(x)) / 2 and (f(x) - f(x-1)) / 2 (IPOL centered_gradient);
/// same along y. Outputs are resized to the input's shape.
template <typename Real>
void centered_gradient(const Plane<Real>& in, Plane<Real>& gx, Plane<Real>& gy) {
  const int w = in.width, h = in.height;
  gx = Plane<Real>(w, h);
  gy = Plane<Real>(w, h);
  for (int y = 0; y < h; ++y) {
    const int ym = std::max(y - 1, 0), yp = std::min(y + 1, h - 1);
    for (int x = 0; x < w; ++x) {
      const int xm = std::max(x - 1, 0), xp = std::min(x + 1, w - 1);
      gx.at(x, y) = Real(0.5) * (in.at(xp, y) - in.at(xm, y));
      gy.at(x, y) = Real(0.5) * (in.at(x, yp) - in.at(x, ym));
    }
  }
}

}  // namespace flowtune
