// The median's selection and window, shared by the CPU reference (kernels/median_filter.hpp,
// double), the GPU frame's median stage (kernels/cuda/frame/flow_filters.cu, float) and the
// tiled levels' kernel, which applies the median in its last launch of a warping
// (kernels/cuda/tvl1_tiled.cuh, built by NVRTC: so this header includes nothing). Wedel, Pock,
// Zach, Bischof, Cremers, "An improved algorithm for TV-L1 optical flow", 2009, sec. 3.
#pragma once

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

/// median_exchange as a function object: median_select_by's default compare-exchange.
struct MedianExchange {
  template <class Real>
  FT_MEDIAN_HD void operator()(Real& a, Real& b) const {
    median_exchange(a, b);
  }
};

/// The median of the N (odd, >= 3) values s[0..N) by forgetful selection (Paeth, "Median
/// finding on a 3x3 grid", Graphics Gems 1990; Devillard's "opt_med" family): a working set of
/// N / 2 + 2 values; each step moves its minimum and maximum out (neither can be the median
/// while the set holds 3 more values than are still to come) and takes the next value in;
/// the last 3 give the median. About N^2 / 4 compare-exchanges on fixed indices, so with the
/// loops unrolled (N is a constant) the values stay in registers on the GPU. The result is the
/// sample (N - 1) / 2 of the sorted values, exactly (a selection, no arithmetic). s is
/// overwritten. exchange(a, b) leaves min(a, b) in a and max(a, b) in b: median_exchange, or
/// one that orders two packed values at once (two medians in one pass: the GPU frame's
/// half2 median, kernels/cuda/frame/flow_filters.cu).
template <class Real, int N, class Exchange>
FT_MEDIAN_HD Real median_select_by(Real* s, const Exchange& exchange) {
  static_assert(N >= 3 && N % 2 == 1, "median_select: N odd, >= 3");
  constexpr int M = N / 2 + 2;  // working set s[t .. M - 1] at step t
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int t = 0; t < N - M; ++t) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = t + 1; i < M; ++i) exchange(s[t], s[i]);  // minimum to s[t]
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = t + 1; i < M - 1; ++i) exchange(s[i], s[M - 1]);  // maximum to s[M - 1]
    s[M - 1] = s[M + t];                                           // both out; the next value in
  }
  constexpr int a = N - M;  // the last 3: s[a], s[a + 1], s[a + 2]
  exchange(s[a], s[a + 1]);
  exchange(s[a + 1], s[a + 2]);
  exchange(s[a], s[a + 1]);
  return s[a + 1];
}

/// median_select_by with median_exchange: the median of N scalars.
template <class Real, int N>
FT_MEDIAN_HD Real median_select(Real* s) {
  return median_select_by<Real, N>(s, MedianExchange{});
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

}  // namespace flowtune
