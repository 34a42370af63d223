// The weighted non-local median of the flow after each warping: Sun, Roth, Black, "Secrets of
// optical flow estimation and their principles", CVPR 2010, sec. 4 ("Classic+NL", eq. 9-10).
// The non-local term sum_{j in N(i)} w_ij |u_i - u_j| is minimised for u_i by the weighted
// median of the neighbours' flow (Li and Osher's formula, the paper's solution of the
// auxiliary flow); the weights combine the spatial distance and the similarity of I0:
//   w_ij = exp(-|x_i - x_j|^2 / (2 sigma_spatial^2) - (I0(x_i) - I0(x_j))^2 / (2 sigma_color^2))
// (the paper: a 15 x 15 neighbourhood, sigma_spatial = sigma_color = 7 on Lab colour; its
// occlusion factor o(x_j) / o(x_i) is not applied here). The guide is the grey I0 of the
// pyramid level as the solver sees it (normalised to [0, 255], presmoothed, and its texture
// part when the structure-texture decomposition is on). The per-pixel code is written once
// for the host and the device: the CPU reference (double) and the GPU frame kernel
// (kernels/cuda/frame/flow_filters.cu, float) both call weighted_median_px.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define FT_WMEDIAN_HD __host__ __device__ inline
#else
#define FT_WMEDIAN_HD inline
#endif

namespace flowtune {

/// Largest weighted-median window (11 x 11 = 121 samples per component on the stack).
constexpr int kMaxNlMedianWindow = 11;

/// The lower weighted median of n values v[0..n) with weights w[0..n) (w >= 0, sum > 0): the
/// smallest v_k such that the weights of the values <= v_k sum to at least half of all
/// weights, i.e. a minimiser of sum_j w_j |m - v_j| (Li and Osher's formula; with equal
/// weights and n odd, the plain median). Sorts v and w together in place (insertion sort by
/// value, stable), then accumulates the weights in that order. n >= 1; not checked.
template <class Real>
FT_WMEDIAN_HD Real weighted_median_select(Real* v, Real* w, int n) {
  Real total = 0;
  for (int i = 0; i < n; ++i) {
    const Real vi = v[i], wi = w[i];
    total += wi;
    int k = i;
    while (k > 0 && v[k - 1] > vi) {
      v[k] = v[k - 1];
      w[k] = w[k - 1];
      --k;
    }
    v[k] = vi;
    w[k] = wi;
  }
  const Real half = total / 2;
  Real acc = 0;
  for (int k = 0; k < n - 1; ++k) {
    acc += w[k];
    if (acc >= half) return v[k];
  }
  return v[n - 1];
}

/// The weighted non-local median of both flow components at (x, y) of a w x h field:
/// flow(i, j, c) returns component c (0: u1, 1: u2) of texel (i, j), guide(i, j) the I0 texel.
/// The window x window neighbourhood centred on (x, y) is read clamp-to-edge (an
/// out-of-image sample repeats the nearest edge texel, its weight from its unclamped spatial
/// offset and the clamped texel's guide value). window: odd, 3..kMaxNlMedianWindow;
/// sigma_spatial (px) and sigma_color (guide units) > 0; not checked here (check_nl_median).
/// Writes the medians of u1 and u2 (same weights) to *m1 and *m2. MaxWindow (>= window) sizes
/// the four sample arrays on the stack (the GPU kernel passes its window).
template <class Real, class FlowLoad, class GuideLoad, int MaxWindow = kMaxNlMedianWindow>
FT_WMEDIAN_HD void weighted_median_px(const FlowLoad& flow, const GuideLoad& guide, int w, int h,
                                      int x, int y, int window, Real sigma_spatial,
                                      Real sigma_color, Real* m1, Real* m2) {
  constexpr int kMax = MaxWindow * MaxWindow;
  Real a[kMax], b[kMax], wa[kMax], wb[kMax];
  const int r = window / 2;
  const Real ks = Real(1) / (2 * sigma_spatial * sigma_spatial);
  const Real kc = Real(1) / (2 * sigma_color * sigma_color);
  const Real g0 = guide(x, y);
  int n = 0;
  for (int dy = -r; dy <= r; ++dy) {
    const int yy = y + dy < 0 ? 0 : (y + dy > h - 1 ? h - 1 : y + dy);
    for (int dx = -r; dx <= r; ++dx) {
      const int xx = x + dx < 0 ? 0 : (x + dx > w - 1 ? w - 1 : x + dx);
      const Real dg = guide(xx, yy) - g0;
      const Real wt = std::exp(-Real(dx * dx + dy * dy) * ks - dg * dg * kc);
      a[n] = flow(xx, yy, 0);
      b[n] = flow(xx, yy, 1);
      wa[n] = wt;
      wb[n] = wt;
      ++n;
    }
  }
  *m1 = weighted_median_select(a, wa, n);
  *m2 = weighted_median_select(b, wb, n);
}

/// Throws std::invalid_argument naming `who` unless window is 0 (off) or odd in
/// 3..kMaxNlMedianWindow, and (when on) both sigmas are finite and > 0.
inline void check_nl_median(int window, double sigma_spatial, double sigma_color, const char* who) {
  if (window != 0 && (window < 3 || window > kMaxNlMedianWindow || window % 2 == 0))
    throw std::invalid_argument(
        std::string(who) + ": nl_median_window must be 0 (off) or odd in 3.." +
        std::to_string(kMaxNlMedianWindow) + ", got " + std::to_string(window));
  if (window != 0 && !(sigma_spatial > 0 && std::isfinite(sigma_spatial) && sigma_color > 0 &&
                       std::isfinite(sigma_color)))
    throw std::invalid_argument(
        std::string(who) + ": nl_sigma_spatial and nl_sigma_color must be > 0, got " +
        std::to_string(sigma_spatial) + " and " + std::to_string(sigma_color));
}

/// The weighted non-local median filter of a w x h flow (u1, u2, row-major planes) guided by
/// the w x h plane `guide` (out of place into *o1, *o2): weighted_median_px at every pixel.
/// Throws std::invalid_argument if a plane is not w x h or the parameters are invalid
/// (check_nl_median); window 0 copies the flow.
template <class Real>
void weighted_median_filter(const std::vector<Real>& u1, const std::vector<Real>& u2,
                            const std::vector<Real>& guide, int w, int h, int window,
                            double sigma_spatial, double sigma_color, std::vector<Real>* o1,
                            std::vector<Real>* o2) {
  check_nl_median(window, sigma_spatial, sigma_color, "weighted_median_filter");
  const std::size_t n = std::size_t(w < 0 ? 0 : w) * std::size_t(h < 0 ? 0 : h);
  if (w < 0 || h < 0 || u1.size() != n || u2.size() != n || guide.size() != n)
    throw std::invalid_argument("weighted_median_filter: planes of " + std::to_string(u1.size()) +
                                ", " + std::to_string(u2.size()) + " and " +
                                std::to_string(guide.size()) + " values are not " +
                                std::to_string(w) + "x" + std::to_string(h));
  *o1 = u1;
  *o2 = u2;
  if (window == 0) return;
  const Real* p1 = u1.data();
  const Real* p2 = u2.data();
  const Real* g = guide.data();
  const auto flow = [p1, p2, w](int i, int j, int c) {
    return (c ? p2 : p1)[std::size_t(j) * w + i];
  };
  const auto load_guide = [g, w](int i, int j) { return g[std::size_t(j) * w + i]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      weighted_median_px<Real>(flow, load_guide, w, h, x, y, window, Real(sigma_spatial),
                               Real(sigma_color), &(*o1)[i], &(*o2)[i]);
    }
}

}  // namespace flowtune
