// Median filtering of the flow after each warping (Wedel, Pock, Zach, Bischof, Cremers, "An
// improved algorithm for TV-L1 optical flow", 2009, sec. 3; Sun, Roth, Black, "Secrets of
// optical flow estimation and their principles", CVPR 2010, sec. 3.3): each flow component is
// replaced by the median of its window x window neighbourhood. The per-pixel code is written
// once for the host and the device: the CPU reference (double, median_px) and the GPU frame
// kernel (kernels/cuda/frame/flow_filters.cu, float) both gather the window with
// median_window_samples and select with median_select.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define FT_MEDIAN_HD __host__ __device__ inline
#else
#define FT_MEDIAN_HD inline
#endif

namespace flowtune {

/// Largest median window supported (5 x 5 = 25 samples kept in registers).
constexpr int kMaxMedianWindow = 5;

/// Compare-exchange: a = min(a, b), b = max(a, b) (no branch; registers when inlined).
template <class Real>
FT_MEDIAN_HD void median_exchange(Real& a, Real& b) {
  const Real lo = b < a ? b : a;
  const Real hi = b < a ? a : b;
  a = lo;
  b = hi;
}

/// The median of the N (odd, >= 3) values s[0..N) by forgetful selection (Paeth, "Median
/// finding on a 3x3 grid", Graphics Gems 1990; Devillard's "opt_med" family): a working set of
/// N / 2 + 2 values; each step moves its minimum and maximum out (neither can be the median
/// while the set holds 3 more values than are still to come) and takes the next value in;
/// the last 3 give the median. About N^2 / 4 compare-exchanges on fixed indices, so with the
/// loops unrolled (N is a constant) the values stay in registers on the GPU. The result is the
/// sample (N - 1) / 2 of the sorted values, exactly (a selection, no arithmetic). s is
/// overwritten.
template <class Real, int N>
FT_MEDIAN_HD Real median_select(Real* s) {
  static_assert(N >= 3 && N % 2 == 1, "median_select: N odd, >= 3");
  constexpr int M = N / 2 + 2;  // working set s[t .. M - 1] at step t
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int t = 0; t < N - M; ++t) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = t + 1; i < M; ++i) median_exchange(s[t], s[i]);  // minimum to s[t]
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = t + 1; i < M - 1; ++i) median_exchange(s[i], s[M - 1]);  // maximum to s[M - 1]
    s[M - 1] = s[M + t];  // both out; the next value in
  }
  constexpr int a = N - M;  // the last 3: s[a], s[a + 1], s[a + 2]
  median_exchange(s[a], s[a + 1]);
  median_exchange(s[a + 1], s[a + 2]);
  median_exchange(s[a], s[a + 1]);
  return s[a + 1];
}

/// The window x window samples centred on (x, y) (clamp-to-edge reads: each out-of-image
/// sample repeats the nearest edge texel), row by row, into s[0 .. Window^2).
template <class Real, int Window, class Load>
FT_MEDIAN_HD void median_window_samples(const Load& load, int w, int h, int x, int y, Real* s) {
  constexpr int r = Window / 2;
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
      s[(dy + r) * Window + (dx + r)] = load(xx, yy);
    }
  }
}

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
