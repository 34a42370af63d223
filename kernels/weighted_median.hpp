// The weighted non-local median of the flow after each warping: Sun, Roth, Black, "Secrets of
// optical flow estimation and their principles", CVPR 2010, sec. 4 ("Classic+NL", eq. 9-10).
// The non-local term sum_{j in N(i)} w_ij |u_i - u_j| is minimised for u_i by the weighted
// median of the neighbours' flow (Li and Osher's formula, the paper's solution of the
// auxiliary flow); the weights combine the spatial distance and the similarity of I0:
//   w_ij = exp(-|x_i - x_j|^2 / (2 sigma_spatial^2) - (I0(x_i) - I0(x_j))^2 / (2 sigma_color^2))
// (the paper: a 15 x 15 neighbourhood, sigma_spatial = sigma_color = 7 on Lab colour). Its
// occlusion factor o(x_j) / o(x_i) (eq. 10) multiplies the weights when the TV-L1 parameter
// nl_occlusion is on: the caller passes the occlusion cost q = -log o of each texel
// (kernels/occlusion.hpp) and the weight is weighted_median_weight_occluded; without it the
// weights are exactly weighted_median_weight's (NoOcclusion). The guide is the grey I0 of the
// pyramid level as the solver sees it (normalised to [0, 255], presmoothed, and its texture
// part when the structure-texture decomposition is on). The per-pixel code is written once
// for the host and the device: the CPU reference (double, weighted_median_px with the window
// at run time) and the GPU frame kernel (kernels/cuda/frame/flow_filters.cu, float, the window
// a template constant) both select with weighted_median_px_window, in registers on the GPU
// (a stable sorting network on fixed indices; the results equal, bit for bit, those of a plain
// insertion sort, which tests/kernels/test_weighted_median_oracle.cpp uses as the oracle).
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__CUDACC__)
#define FT_WMEDIAN_HD __host__ __device__ inline
#else
#define FT_WMEDIAN_HD inline
#endif

namespace flowtune {

/// Largest weighted-median window (11 x 11 = 121 samples per component).
constexpr int kMaxNlMedianWindow = 11;

/// The weight of a neighbour at offset (dx, dy) whose guide differs from the centre's by dg:
/// exp(-(dx^2 + dy^2) ks - dg^2 kc), ks = 1 / (2 sigma_spatial^2), kc = 1 / (2 sigma_color^2)
/// (Sun, Roth, Black 2010, eq. 10 without the occlusion factor). The exponent is rounded after
/// each operation, as written, also on the device (float: __fmul_rn / __fsub_rn, which nvcc
/// never contracts into an FMA), so every kernel that calls it gets the same weights wherever
/// the offsets are constants or not.
template <class Real>
FT_WMEDIAN_HD Real weighted_median_weight(int dx, int dy, Real dg, Real ks, Real kc) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<Real, float>::value)
    return std::exp(
        __fsub_rn(__fmul_rn(-float(dx * dx + dy * dy), ks), __fmul_rn(__fmul_rn(dg, dg), kc)));
  else
#endif
    return std::exp(-Real(dx * dx + dy * dy) * ks - dg * dg * kc);
}

/// Largest exponent of weighted_median_weight_occluded: a weight is at most e^80 (finite in
/// float: 121 of them sum to 6.7e36 < FLT_MAX).
constexpr double kMaxOccludedWeightExponent = 80.0;

/// The weight of eq. 10 with the occlusion factor o(x_j) / o(x_i) = exp(-dq), dq = q_j - q_i the
/// difference of the occlusion costs q = -log o (kernels/occlusion.hpp):
/// exp(min(-(dx^2 + dy^2) ks - dg^2 kc - dq, kMaxOccludedWeightExponent)). The exponent is
/// weighted_median_weight's, rounded as there, minus dq; with dq = 0 the weight equals
/// weighted_median_weight's bit for bit. The cap matters only where the centre is e^80 times
/// more occluded than a neighbour (its own weight is 1).
template <class Real>
FT_WMEDIAN_HD Real weighted_median_weight_occluded(int dx, int dy, Real dg, Real dq, Real ks,
                                                   Real kc) {
  const Real cap = Real(kMaxOccludedWeightExponent);
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<Real, float>::value) {
    const float a = __fsub_rn(
        __fsub_rn(__fmul_rn(-float(dx * dx + dy * dy), ks), __fmul_rn(__fmul_rn(dg, dg), kc)), dq);
    return std::exp(a < cap ? a : cap);
  } else
#endif
  {
    const Real a = -Real(dx * dx + dy * dy) * ks - dg * dg * kc - dq;
    return std::exp(a < cap ? a : cap);
  }
}

/// The occlusion of weighted_median_px when nl_occlusion is off: the weights are
/// weighted_median_weight's.
struct NoOcclusion {
  static constexpr bool on = false;
  FT_WMEDIAN_HD float operator()(int, int) const { return 0.f; }
};

/// The occlusion cost q = -log o of texel (i, j) read from a row-major plane of width w
/// (Sun, Roth, Black 2010, eq. 10; kernels/occlusion.hpp): weighted_median_px then weights with
/// weighted_median_weight_occluded.
template <class Real>
struct OcclusionCostLoad {
  static constexpr bool on = true;
  const Real* q;
  int w;
  FT_WMEDIAN_HD Real operator()(int i, int j) const { return q[std::size_t(j) * w + i]; }
};

/// Stable compare-exchange of two (value, weight) pairs at adjacent positions: swaps only when
/// the first value is strictly greater, so equal values keep their order (no branch; registers
/// when inlined with constant indices).
template <class Real>
FT_WMEDIAN_HD void weighted_median_exchange(Real& va, Real& wa, Real& vb, Real& wb) {
  const bool swap = vb < va;
  const Real v0 = swap ? vb : va, v1 = swap ? va : vb;
  const Real w0 = swap ? wb : wa, w1 = swap ? wa : wb;
  va = v0;
  vb = v1;
  wa = w0;
  wb = w1;
}

/// A count known at compile time (std::integral_constant's conversion is host-only in CUDA).
template <int N>
struct WeightedMedianCount {
  FT_WMEDIAN_HD constexpr operator int() const { return N; }
};

/// The body of weighted_median_select; Count is int or WeightedMedianCount<N> (then every loop
/// has a constant trip count and is unrolled on the device).
template <class Real, class Count>
FT_WMEDIAN_HD Real weighted_median_select_impl(Real* v, Real* w, Count n) {
  Real total = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < n; ++i) total += w[i];
    // Odd-even transposition sort (Knuth, TAOCP vol. 3, sec. 5.3.4, ex. 37; Habermann 1972): n
    // rounds of compare-exchanges of neighbours (i, i + 1), i even in even rounds, odd in odd
    // rounds; n (n - 1) / 2 exchanges on fixed indices. Only adjacent, strictly out-of-order
    // pairs are swapped, so the sort is stable.
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int r = 0; r < n; ++r) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = r % 2; i + 1 < n; i += 2) weighted_median_exchange(v[i], w[i], v[i + 1], w[i + 1]);
  }
  const Real half = total / 2;
  Real acc = 0, m = v[n - 1];
  bool found = false;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < n - 1; ++k) {
    acc += w[k];
    if (!found && acc >= half) m = v[k];
    found = found || acc >= half;
  }
  return m;
}

/// The lower weighted median of n values v[0..n) with weights w[0..n) (w >= 0, sum > 0; values
/// finite): the smallest v_k such that the weights of the values <= v_k sum to at least half of
/// all weights, i.e. a minimiser of sum_j w_j |m - v_j| (Li and Osher's formula; with equal
/// weights and n odd, the plain median). Exactly, in the arithmetic of Real: total = the
/// weights summed in input order, half = total / 2; the pairs are sorted by value, stably
/// (equal values keep their input order); the result is the value of the first sorted position
/// k < n - 1 whose running sum of the sorted weights (summed in sorted order) is >= half, else
/// the last. Sorts v and w together in place (odd-even transposition: n (n - 1) / 2
/// compare-exchanges, no data-dependent branch or index). This equals, bit for bit, an
/// insertion-sort implementation (same stable order, same sums; tests/kernels/
/// test_weighted_median.cpp uses it as the oracle). n >= 1; not checked.
template <class Real>
FT_WMEDIAN_HD Real weighted_median_select(Real* v, Real* w, int n) {
  return weighted_median_select_impl(v, w, n);
}

/// weighted_median_select with the count N a compile-time constant: with the loops unrolled
/// every index is a constant, so on the GPU the N values and weights stay in registers.
template <class Real, int N>
FT_WMEDIAN_HD Real weighted_median_select(Real* v, Real* w) {
  static_assert(N >= 1, "weighted_median_select: N >= 1");
  return weighted_median_select_impl(v, w, WeightedMedianCount<N>{});
}

/// The weighted non-local median of both flow components at (x, y) of a w x h field, the
/// window a compile-time constant (odd, 3..kMaxNlMedianWindow): flow(i, j, c) returns
/// component c (0: u1, 1: u2) of texel (i, j), guide(i, j) the I0 texel. The Window x Window
/// neighbourhood centred on (x, y) is read clamp-to-edge (an out-of-image sample repeats the
/// nearest edge texel, its weight from its unclamped spatial offset and the clamped texel's
/// guide value); weights by weighted_median_weight. Writes the medians of u1 and u2 (same
/// weights) to *m1 and *m2. One component at a time (the weights are computed again for the
/// second: half the registers, same values), each selected by weighted_median_select<Real, N>.
/// occl: NoOcclusion (weighted_median_weight) or a loader of the occlusion cost q (its `on`
/// true: weighted_median_weight_occluded with dq = q(clamped texel) - q(x, y)).
template <class Real, int Window, class FlowLoad, class GuideLoad, class Occlusion = NoOcclusion>
FT_WMEDIAN_HD void weighted_median_px_window(const FlowLoad& flow, const GuideLoad& guide, int w,
                                             int h, int x, int y, Real sigma_spatial,
                                             Real sigma_color, Real* m1, Real* m2,
                                             const Occlusion& occl = Occlusion{}) {
  static_assert(Window >= 1 && Window % 2 == 1 && Window <= kMaxNlMedianWindow,
                "weighted_median_px_window: Window odd, <= kMaxNlMedianWindow");
  constexpr int kN = Window * Window, r = Window / 2;
  const Real ks = Real(1) / (2 * sigma_spatial * sigma_spatial);
  const Real kc = Real(1) / (2 * sigma_color * sigma_color);
  const Real g0 = guide(x, y);
  [[maybe_unused]] const Real q0 = Real(occl(x, y));
  // Not unrolled: one component's samples live at a time (on the GPU, half the registers).
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
  for (int c = 0; c < 2; ++c) {
    Real v[kN], wt[kN];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int dy = -r; dy <= r; ++dy) {
      const int yy = y + dy < 0 ? 0 : (y + dy > h - 1 ? h - 1 : y + dy);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (int dx = -r; dx <= r; ++dx) {
        const int xx = x + dx < 0 ? 0 : (x + dx > w - 1 ? w - 1 : x + dx);
        const int k = (dy + r) * Window + (dx + r);
        v[k] = flow(xx, yy, c);
        if constexpr (Occlusion::on)
          wt[k] = weighted_median_weight_occluded<Real>(dx, dy, guide(xx, yy) - g0,
                                                        Real(occl(xx, yy)) - q0, ks, kc);
        else
          wt[k] = weighted_median_weight<Real>(dx, dy, guide(xx, yy) - g0, ks, kc);
      }
    }
    *(c == 0 ? m1 : m2) = weighted_median_select<Real, kN>(v, wt);
  }
}

/// The weighted non-local median of both flow components at (x, y) with a run-time window
/// (odd, 3..kMaxNlMedianWindow; sigma_spatial (px) and sigma_color (guide units) > 0; not
/// checked here, see check_nl_median): weighted_median_px_window of that window. Another
/// window leaves *m1, *m2 unchanged. occl as in weighted_median_px_window.
template <class Real, class FlowLoad, class GuideLoad, class Occlusion = NoOcclusion>
FT_WMEDIAN_HD void weighted_median_px(const FlowLoad& flow, const GuideLoad& guide, int w, int h,
                                      int x, int y, int window, Real sigma_spatial,
                                      Real sigma_color, Real* m1, Real* m2,
                                      const Occlusion& occl = Occlusion{}) {
  switch (window) {
    case 3:
      return weighted_median_px_window<Real, 3>(flow, guide, w, h, x, y, sigma_spatial, sigma_color,
                                                m1, m2, occl);
    case 5:
      return weighted_median_px_window<Real, 5>(flow, guide, w, h, x, y, sigma_spatial, sigma_color,
                                                m1, m2, occl);
    case 7:
      return weighted_median_px_window<Real, 7>(flow, guide, w, h, x, y, sigma_spatial, sigma_color,
                                                m1, m2, occl);
    case 9:
      return weighted_median_px_window<Real, 9>(flow, guide, w, h, x, y, sigma_spatial, sigma_color,
                                                m1, m2, occl);
    case 11:
      return weighted_median_px_window<Real, 11>(flow, guide, w, h, x, y, sigma_spatial,
                                                 sigma_color, m1, m2, occl);
    default:
      return;
  }
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
/// occlusion_cost: null (the weights without occlusion) or the w x h plane of the occlusion
/// cost q = -log o (kernels/occlusion.hpp, occlusion_cost_map; Sun, Roth, Black 2010, eq. 10).
/// Throws std::invalid_argument if a plane is not w x h or the parameters are invalid
/// (check_nl_median); window 0 copies the flow.
template <class Real>
void weighted_median_filter(const std::vector<Real>& u1, const std::vector<Real>& u2,
                            const std::vector<Real>& guide, int w, int h, int window,
                            double sigma_spatial, double sigma_color, std::vector<Real>* o1,
                            std::vector<Real>* o2,
                            const std::vector<Real>* occlusion_cost = nullptr) {
  check_nl_median(window, sigma_spatial, sigma_color, "weighted_median_filter");
  const std::size_t n = std::size_t(w < 0 ? 0 : w) * std::size_t(h < 0 ? 0 : h);
  if (w < 0 || h < 0 || u1.size() != n || u2.size() != n || guide.size() != n ||
      (occlusion_cost && occlusion_cost->size() != n))
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
  const OcclusionCostLoad<Real> occl{occlusion_cost ? occlusion_cost->data() : nullptr, w};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      if (occlusion_cost)
        weighted_median_px<Real>(flow, load_guide, w, h, x, y, window, Real(sigma_spatial),
                                 Real(sigma_color), &(*o1)[i], &(*o2)[i], occl);
      else
        weighted_median_px<Real>(flow, load_guide, w, h, x, y, window, Real(sigma_spatial),
                                 Real(sigma_color), &(*o1)[i], &(*o2)[i]);
    }
}

}  // namespace flowtune
