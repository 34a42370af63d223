// Bilinear interpolation with clamp-to-edge reads, the alternative to the bicubic warping of
// IPOL 2013 (sec. 4) selected by the TV-L1 parameter warping_interp. The per-sample code is
// written once for the host and the device: the CPU driver's prepare_warping (double or float,
// kernels/reference_tvl1.cpp) and the GPU frame kernel's warp_px (float, component-wise on
// (I1, I1x, I1y), kernels/cuda/frame/frame_pixels.cuh) both call bilinear_sample.
#pragma once

#include <math.h>

#if defined(__CUDACC__)
#define FT_BILINEAR_HD __host__ __device__ inline
#else
#define FT_BILINEAR_HD inline
#endif

namespace flowtune {

namespace detail {
FT_BILINEAR_HD int bilinear_clamp(int v, int hi) {
  return v < 0 ? 0 : (v > hi ? hi : v);
}
FT_BILINEAR_HD float bilinear_floor(float v) {
  return floorf(v);
}
FT_BILINEAR_HD double bilinear_floor(double v) {
  return floor(v);
}
}  // namespace detail

/// Interpolation of the warping (the values of the warping_interp parameter).
enum class WarpingInterp { bicubic = 0, bilinear = 1 };

/// Bilinear interpolation at the real position (x, y) of a w x h plane whose texel (i, j) is
/// load(i, j) (pixel centres at integer coordinates): with i = floor(x), j = floor(y),
/// tx = x - i, ty = y - j and reads clamped to the plane,
///   (1 - ty) ((1 - tx) L(i, j) + tx L(i+1, j)) + ty ((1 - tx) L(i, j+1) + tx L(i+1, j+1)).
/// V: the sample type (a number, or a small vector with + and scalar *); S: the coordinate
/// type (float or double). w, h >= 1. Positions far outside the plane are clamped before the
/// conversion to int, so huge displacements cannot overflow.
template <class V, class S, class Load>
FT_BILINEAR_HD V bilinear_sample(const Load& load, int w, int h, S x, S y) {
  const S fx = detail::bilinear_floor(x), fy = detail::bilinear_floor(y);
  const S tx = x - fx, ty = y - fy;
  const S cx = fx < S(-2) ? S(-2) : (fx > S(w + 1) ? S(w + 1) : fx);
  const S cy = fy < S(-2) ? S(-2) : (fy > S(h + 1) ? S(h + 1) : fy);
  const int ix = static_cast<int>(cx), iy = static_cast<int>(cy);
  const int xa = detail::bilinear_clamp(ix, w - 1), xb = detail::bilinear_clamp(ix + 1, w - 1);
  const int ya = detail::bilinear_clamp(iy, h - 1), yb = detail::bilinear_clamp(iy + 1, h - 1);
  const S sx = S(1) - tx, sy = S(1) - ty;
  const V top = sx * load(xa, ya) + tx * load(xb, ya);
  const V bottom = sx * load(xa, yb) + tx * load(xb, yb);
  return sy * top + ty * bottom;
}

}  // namespace flowtune
