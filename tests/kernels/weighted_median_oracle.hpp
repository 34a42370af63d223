// Test oracle (test code only): the weighted median computed independently of the register
// selection of kernels/weighted_median.hpp: an insertion sort of (value, weight) pairs by value
// in arrays on the stack, then the running sum. Host and device (the
// GPU test compares the frame kernel with it on the device), so the oracle's weights are
// weighted_median_weight's, the same as the code under test.
#pragma once

#include "kernels/weighted_median.hpp"

namespace flowtune::test {

/// weighted_median_select by insertion sort, the oracle: stable insertion sort, total in input
/// order, the first sorted position k < n - 1 whose running sum is >= total / 2, else the last.
template <class Real>
FT_WMEDIAN_HD Real sorting_select(Real* v, Real* w, int n) {
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

/// weighted_median_px by sorting, the oracle: both components gathered together (clamp-to-edge),
/// one weight per sample, each component selected by sorting_select. window odd, <= MaxWindow.
template <class Real, int MaxWindow, class FlowLoad, class GuideLoad>
FT_WMEDIAN_HD void sorting_px(const FlowLoad& flow, const GuideLoad& guide, int w, int h, int x,
                              int y, int window, Real sigma_spatial, Real sigma_color, Real* m1,
                              Real* m2) {
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
      const Real wt = weighted_median_weight<Real>(dx, dy, guide(xx, yy) - g0, ks, kc);
      a[n] = flow(xx, yy, 0);
      b[n] = flow(xx, yy, 1);
      wa[n] = wt;
      wb[n] = wt;
      ++n;
    }
  }
  *m1 = sorting_select(a, wa, n);
  *m2 = sorting_select(b, wb, n);
}

}  // namespace flowtune::test
