// Per-pixel bodies of the GPU TV-L1 frame stages (pyramid, gradient, bicubic warping, flow
// up-sampling, storage conversions), written once as __host__ __device__ functions: the CUDA
// kernels of frame_kernels.cu call them per thread and the host emulation calls them in loops,
// so the very same arithmetic is tested on machines without a GPU.
// Each function mirrors, step for step and in float, its double counterpart in
// kernels/image_ops.hpp and kernels/reference_tvl1.hpp (IPOL 2013, Sanchez Perez et al.).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/bilinear.hpp"
#include "kernels/cuda/frame/frame_kernels.hpp"

#define FT_HD __host__ __device__ inline

namespace flowtune::cuda::frame {

/// N floats with the arithmetic bicubic interpolation needs, component-wise.
template <int N>
struct Vec {
  float c[N];
};
template <int N>
FT_HD Vec<N> operator+(Vec<N> a, const Vec<N>& b) {
  for (int i = 0; i < N; ++i) a.c[i] += b.c[i];
  return a;
}
template <int N>
FT_HD Vec<N> operator-(Vec<N> a, const Vec<N>& b) {
  for (int i = 0; i < N; ++i) a.c[i] -= b.c[i];
  return a;
}
template <int N>
FT_HD Vec<N> operator*(float s, Vec<N> a) {
  for (int i = 0; i < N; ++i) a.c[i] *= s;
  return a;
}

FT_HD int clamp_int(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/// IPOL Gaussian boundary (reflecting): -k reads k, n-1+k reads n-k, clamped for tiny planes.
FT_HD int gaussian_reflect(int i, int n) {
  if (i < 0) i = -i;
  if (i >= n) i = 2 * n - 1 - i;
  return clamp_int(i, 0, n - 1);
}

/// Joint normalisation to [0, 255] (IPOL image_normalization): returns (lo, scale) such that
/// x -> (x - lo) * scale, from minmax = {min, max}; identity (0, 1) when max == min.
FT_HD float2 normalisation_of(const float* minmax) {
  const float lo = minmax[0], den = minmax[1] - minmax[0];
  if (!(den > 0.f)) return make_float2(0.f, 1.f);
  return make_float2(lo, 255.f / den);
}

/// One output of the Gaussian's row pass at (x, y) of a w-wide plane, each input read mapped
/// by (v - norm.x) * norm.y first (the joint normalisation; (0, 1) = none).
FT_HD float gaussian_row_px(const float* in, int w, int x, int y, const GaussTaps& t, float2 norm) {
  const float* row = in + std::size_t(y) * w;
  float s = t.w[0] * ((row[x] - norm.x) * norm.y);
  for (int k = 1; k < t.radius; ++k)
    s += t.w[k] * (((row[gaussian_reflect(x - k, w)] - norm.x) * norm.y) +
                   ((row[gaussian_reflect(x + k, w)] - norm.x) * norm.y));
  return s;
}

/// One output of the Gaussian's column pass at row y of a plane of h rows whose column holds
/// at(i) at row i.
template <class At>
FT_HD float gaussian_col_at(const At& at, int h, int y, const GaussTaps& t) {
  float s = t.w[0] * at(y);
  for (int k = 1; k < t.radius; ++k)
    s += t.w[k] * (at(gaussian_reflect(y - k, h)) + at(gaussian_reflect(y + k, h)));
  return s;
}

/// Column x of a w-wide plane.
struct PlaneColumn {
  const float* in;
  int w, x;
  FT_HD float operator()(int i) const { return in[std::size_t(i) * w + x]; }
};

/// One output of the Gaussian's column pass at (x, y) of a w x h plane.
FT_HD float gaussian_col_px(const float* in, int w, int h, int x, int y, const GaussTaps& t) {
  return gaussian_col_at(PlaneColumn{in, w, x}, h, y, t);
}

// ---- the separable Gaussian in one launch: a block's row pass in shared memory ----

/// Output block of the one-launch Gaussian, and its tile of row-pass values: the block's rows
/// and radius - 1 rows above and below (the column pass's reach).
constexpr int kGaussBlockX = 32, kGaussBlockY = 16;
constexpr int kGaussTileRows = kGaussBlockY + 2 * (kMaxGaussTaps - 1);

/// First row of block row `by`'s tile (may be < 0: those tile rows stay unused).
FT_HD int gaussian_tile_base(int by, const GaussTaps& t) {
  return by * kGaussBlockY - (t.radius - 1);
}

/// Phase 1 of block (bx, by), thread (tx, ty): the row pass (gaussian_row_px, normalised by
/// minmax when not null) of the tile's rows in column bx * kGaussBlockX + tx into tile
/// (kGaussTileRows x kGaussBlockX floats, row-major); rows outside the plane are 0.
FT_HD void gaussian_tile_rows(const float* in, int w, int h, const GaussTaps& t,
                              const float* minmax, float* tile, int bx, int by, int tx, int ty) {
  const int x = bx * kGaussBlockX + tx, base = gaussian_tile_base(by, t);
  const int rows = kGaussBlockY + 2 * (t.radius - 1);
  const float2 norm = minmax ? normalisation_of(minmax) : make_float2(0.f, 1.f);
  for (int j = ty; j < rows; j += kGaussBlockY) {
    const int row = base + j;
    tile[j * kGaussBlockX + tx] =
        (x < w && row >= 0 && row < h) ? gaussian_row_px(in, w, x, row, t, norm) : 0.f;
  }
}

/// A column of the tile, addressed by the plane's row.
struct TileColumn {
  const float* tile;
  int base, tx;
  FT_HD float operator()(int i) const { return tile[(i - base) * kGaussBlockX + tx]; }
};

/// Phase 2 (after the block's phase 1): the column pass of the block's pixel (x, y) from the
/// tile into out; the same floats in the same order as gaussian_col_px over the row pass's
/// plane (gaussian_col_at reads only rows y +- (radius - 1), reflected, all in the tile).
FT_HD void gaussian_tile_cols(const float* tile, float* out, int w, int h, const GaussTaps& t,
                              int bx, int by, int tx, int ty) {
  const int x = bx * kGaussBlockX + tx, y = by * kGaussBlockY + ty;
  if (x < w && y < h)
    out[std::size_t(y) * w + x] =
        gaussian_col_at(TileColumn{tile, gaussian_tile_base(by, t), tx}, h, y, t);
}

/// Keys cubic convolution (a = -1/2) through v0..v3 at nodes -1..2, at t in [0, 1]
/// (IPOL cubic_interpolation_cell; same association as detail::cubic_cell).
template <class V>
FT_HD V cubic_cell(V v0, V v1, V v2, V v3, float t) {
  return v1 + 0.5f * t *
                  (v2 - v0 +
                   t * (2.f * v0 - 5.f * v1 + 4.f * v2 - v3 + t * (3.f * (v1 - v2) + v3 - v0)));
}

/// Bicubic interpolation at real (x, y) of a w x h plane whose texel (i, j) is load(i, j),
/// clamp-to-edge (mirrors bicubic_at in kernels/image_ops.hpp).
template <class V, class Load>
FT_HD V bicubic(const Load& load, int w, int h, float x, float y) {
  const float fx = floorf(x), fy = floorf(y);
  const float tx = x - fx, ty = y - fy;
  const int ix = static_cast<int>(fminf(fmaxf(fx, -3.f), float(w + 2)));
  const int iy = static_cast<int>(fminf(fmaxf(fy, -3.f), float(h + 2)));
  int xs[4], ys[4];
  for (int k = 0; k < 4; ++k) {
    xs[k] = clamp_int(ix - 1 + k, 0, w - 1);
    ys[k] = clamp_int(iy - 1 + k, 0, h - 1);
  }
  V col[4];
  for (int k = 0; k < 4; ++k)
    col[k] = cubic_cell(load(xs[k], ys[0]), load(xs[k], ys[1]), load(xs[k], ys[2]),
                        load(xs[k], ys[3]), ty);
  return cubic_cell(col[0], col[1], col[2], col[3], tx);
}

/// Texel loader of a float plane.
struct PlaneLoad {
  const float* p;
  int w;
  FT_HD float operator()(int x, int y) const { return p[std::size_t(y) * w + x]; }
};

// ---- storage of the schedule's fields: float / float2 (f32) or __half / __half2 (f16) ----

FT_HD float2 load2(const float2* p, std::size_t i) {
  return p[i];
}
FT_HD float2 load2(const __half2* p, std::size_t i) {
  const __half2 h = p[i];
  return make_float2(__half2float(h.x), __half2float(h.y));
}
/// Texel loader of a flow of pairs (float2 or __half2) by component: c = 0 is u, 1 is v (the
/// flow filters' per-pixel code, kernels/weighted_median.hpp and kernels/occlusion.hpp).
template <class T2>
struct FlowComponentLoad {
  const T2* p;
  int w;
  FT_HD float operator()(int i, int j, int c) const {
    const float2 v = load2(p, std::size_t(j) * w + i);
    return c ? v.y : v.x;
  }
};
FT_HD void store2(float2* p, std::size_t i, float2 v) {
  p[i] = v;
}
FT_HD void store2(__half2* p, std::size_t i, float2 v) {
  __half2 h;
  h.x = __float2half_rn(v.x);
  h.y = __float2half_rn(v.y);
  p[i] = h;
}
FT_HD void store1(float* p, std::size_t i, float v) {
  p[i] = v;
}
FT_HD void store1(__half* p, std::size_t i, float v) {
  p[i] = __float2half_rn(v);
}
FT_HD float load1(const float* p, std::size_t i) {
  return p[i];
}
FT_HD float load1(const __half* p, std::size_t i) {
  return __half2float(p[i]);
}

/// Storage traits: T1 scalar (rho_c), T2 pair (grad, u, p1, p2).
struct StorageF32 {
  using T1 = float;
  using T2 = float2;
};
struct StorageF16 {
  using T1 = __half;
  using T2 = __half2;
};

/// Texel loader of a flow stored as pairs, as Vec<2>.
template <class T2>
struct FlowLoad {
  const T2* p;
  int w;
  FT_HD Vec<2> operator()(int x, int y) const {
    const float2 v = load2(p, std::size_t(y) * w + x);
    return Vec<2>{{v.x, v.y}};
  }
};

/// Texel loader of the packed (I1, I1x, I1y, unused) plane, as Vec<3>.
struct PackedLoad {
  const float4* p;
  int w;
  FT_HD Vec<3> operator()(int x, int y) const {
    const float4 v = p[std::size_t(y) * w + x];
    return Vec<3>{{v.x, v.y, v.z}};
  }
};

// ---- the stages, one pixel each ----

/// zoom_out's sampling step at output (x, y): bicubic of the smoothed plane at (x/zoom, y/zoom)
/// (positions computed in double and rounded to float, as image_ops.hpp's zoom_out).
template <class Load>
FT_HD float zoom_out_at(const Load& load, int w, int h, int x, int y, double zoom) {
  return bicubic<float>(load, w, h, static_cast<float>(x / zoom), static_cast<float>(y / zoom));
}
FT_HD float zoom_out_px(const float* smooth, int w, int h, int x, int y, double zoom) {
  return zoom_out_at(PlaneLoad{smooth, w}, w, h, x, y, zoom);
}

// ---- a pyramid level in one launch: Gaussian pre-filter and sampling of a block's footprint ----

/// The first (last = false) or last texel index that zoom_out_at's bicubic reads along an axis
/// of n texels for output index x: its clamped cell (bicubic's own arithmetic).
FT_HD int zoom_out_reach(int x, int n, double zoom, bool last) {
  const float fx = floorf(static_cast<float>(x / zoom));
  const int ix = static_cast<int>(fminf(fmaxf(fx, -3.f), float(n + 2)));
  return clamp_int(last ? ix + 2 : ix - 1, 0, n - 1);
}

/// The footprint [c0, c1] x [r0, r1] in the w x h fine plane that output tile (bx, by) of an
/// ow x oh level samples, the tile being outputs [bx tile_x, (bx + 1) tile_x) x [by tile_y,
/// (by + 1) tile_y) (ZoomSchedule; the sampling positions grow with x and y, so the tile's
/// first and last outputs bound it).
struct ZoomFootprint {
  int c0, c1, r0, r1;
  FT_HD int cols() const { return c1 - c0 + 1; }
  FT_HD int rows() const { return r1 - r0 + 1; }
};
FT_HD ZoomFootprint zoom_out_footprint(int bx, int by, int tile_x, int tile_y, int w, int h, int ow,
                                       int oh, double zoom) {
  const int x0 = bx * tile_x, y0 = by * tile_y;
  const int x1 = (x0 + tile_x < ow ? x0 + tile_x : ow) - 1;
  const int y1 = (y0 + tile_y < oh ? y0 + tile_y : oh) - 1;
  return {zoom_out_reach(x0, w, zoom, false), zoom_out_reach(x1, w, zoom, true),
          zoom_out_reach(y0, h, zoom, false), zoom_out_reach(y1, h, zoom, true)};
}

/// Phase 1 of the one-launch level, element e of the block's row-pass tile (rows r0 - (radius
/// - 1) .. r1 + radius - 1, columns c0 .. c1; rows outside the plane are 0): gaussian_row_px.
FT_HD void zoom_tile_rows(const float* in, int w, int h, const GaussTaps& t, const ZoomFootprint& f,
                          float* rows_tile, int e) {
  const int cols = f.cols();
  const int row = f.r0 - (t.radius - 1) + e / cols, col = f.c0 + e % cols;
  rows_tile[e] =
      (row >= 0 && row < h) ? gaussian_row_px(in, w, col, row, t, make_float2(0.f, 1.f)) : 0.f;
}

/// A column of a tile of `cols` columns whose first row is the plane's row `base`.
struct StridedColumn {
  const float* tile;
  int base, cols, i;
  FT_HD float operator()(int row) const { return tile[(row - base) * cols + i]; }
};

/// Phase 2, element e of the smoothed footprint (rows r0 .. r1): gaussian_col_at over the
/// row-pass tile, the same floats as gaussian_col_px over the row pass's plane.
FT_HD void zoom_tile_cols(const float* rows_tile, int h, const GaussTaps& t, const ZoomFootprint& f,
                          float* smooth_tile, int e) {
  const int cols = f.cols();
  smooth_tile[e] = gaussian_col_at(StridedColumn{rows_tile, f.r0 - (t.radius - 1), cols, e % cols},
                                   h, f.r0 + e / cols, t);
}

/// Texel loader of the smoothed footprint, addressed by the fine plane's (x, y).
struct FootprintLoad {
  const float* tile;
  ZoomFootprint f;
  FT_HD float operator()(int x, int y) const { return tile[(y - f.r0) * f.cols() + (x - f.c0)]; }
};

/// Phase 3, output (x, y) of the ow x oh level: zoom_out_at over the smoothed footprint.
FT_HD void zoom_tile_sample(const float* smooth_tile, const ZoomFootprint& f, int w, int h,
                            float* out, int ow, int oh, int x, int y, double zoom) {
  if (x < ow && y < oh)
    out[std::size_t(y) * ow + x] = zoom_out_at(FootprintLoad{smooth_tile, f}, w, h, x, y, zoom);
}

/// Centred gradient with clamp-to-edge at (x, y) (IPOL centered_gradient), packed with the
/// value itself: (I1, I1x, I1y, 0).
FT_HD float4 packed_gradient_px(const float* in, int w, int h, int x, int y) {
  const int xm = x > 0 ? x - 1 : 0, xp = x < w - 1 ? x + 1 : w - 1;
  const int ym = y > 0 ? y - 1 : 0, yp = y < h - 1 ? y + 1 : h - 1;
  const float* row = in + std::size_t(y) * w;
  return make_float4(row[x], 0.5f * (row[xp] - row[xm]),
                     0.5f * (in[std::size_t(yp) * w + x] - in[std::size_t(ym) * w + x]), 0.f);
}

/// Texel loader that computes (I1, I1x, I1y) from the plane I1 itself (packed_gradient_px at
/// every read): the warping without the packed plane, hence without its own launch. The same
/// floats as PackedLoad over packed_gradient_px's output (0.5f * (a - b) is exact, so no
/// contraction with the interpolation's arithmetic can round it differently).
struct GradientLoad {
  const float* i1;
  int w, h;
  FT_HD Vec<3> operator()(int x, int y) const {
    const float4 v = packed_gradient_px(i1, w, h, x, y);
    return Vec<3>{{v.x, v.y, v.z}};
  }
};

/// The warping at (x, y) from the flow u0 at the pixel and a loader of (I1, I1x, I1y):
/// (I1w, gx, gy) = bicubic (or, with `bilinear`, bilinear_sample of kernels/bilinear.hpp) of
/// the loader at (x + u0.x, y + u0.y), grad = (gx, gy), rho_c = I1w - gx u0.x - gy u0.y - I0.
template <class S, class Load>
FT_HD void warp_at(const float* i0, const Load& load, int w, int h, float2 u0, typename S::T2* grad,
                   typename S::T1* rho_c, int x, int y, bool bilinear) {
  const std::size_t i = std::size_t(y) * w + x;
  const float px = static_cast<float>(x) + u0.x, py = static_cast<float>(y) + u0.y;
  const Vec<3> s = bilinear ? bilinear_sample<Vec<3>, float>(load, w, h, px, py)
                            : bicubic<Vec<3>>(load, w, h, px, py);
  store2(grad, i, make_float2(s.c[1], s.c[2]));
  store1(rho_c, i, s.c[0] - s.c[1] * u0.x - s.c[2] * u0.y - i0[i]);
}

/// One warping's data at (x, y) (numerics contract; mirrors prepare_warping): with u0 the flow
/// at the pixel, (I1w, gx, gy) = bicubic (or, with `bilinear`, bilinear_sample of
/// kernels/bilinear.hpp) of (I1, I1x, I1y) at (x + u0.x, y + u0.y), grad = (gx, gy),
/// rho_c = I1w - gx u0.x - gy u0.y - I0.
template <class S>
FT_HD void warp_px(const float* i0, const float4* i1g, int w, int h, const typename S::T2* u,
                   typename S::T2* grad, typename S::T1* rho_c, int x, int y,
                   bool bilinear = false) {
  const std::size_t i = std::size_t(y) * w + x;
  warp_at<S>(i0, PackedLoad{i1g, w}, w, h, load2(u, i), grad, rho_c, x, y, bilinear);
}

/// zoom_in of the flow at fine (x, y) of an ow x oh grid from a w x h one: bicubic at
/// (x * w / ow, y * h / oh) (scale in double, as image_ops.hpp's zoom_in), times factor.
template <class S>
FT_HD void zoom_in_flow_px(const typename S::T2* u, int w, int h, typename S::T2* out, int ow,
                           int oh, float factor, int x, int y) {
  const double sx = double(w) / ow, sy = double(h) / oh;
  const Vec<2> v = bicubic<Vec<2>>(FlowLoad<typename S::T2>{u, w}, w, h, static_cast<float>(x * sx),
                                   static_cast<float>(y * sy));
  store2(out, std::size_t(y) * ow + x, make_float2(factor * v.c[0], factor * v.c[1]));
}

/// The fused warping at (x, y) of a w x h level (frame_kernels.hpp's warp_level): first the
/// flow at the pixel as `start` says (kept as stored: zero, or zoom_in_flow_px of the coarser
/// level's flow, then read back so that f16 rounds as a separate launch would), p1 = p2 = 0 at
/// the pixel when start.zero_p, then warp_at with (I1, I1x, I1y) computed from I1 on the fly.
/// Bit for bit the stages it replaces (memsets, packed_gradient, zoom_in_flow, warp).
template <class S>
FT_HD void warp_level_px(const float* i0, const float* i1, int w, int h, typename S::T2* u,
                         typename S::T2* grad, typename S::T1* rho_c, typename S::T2* p1,
                         typename S::T2* p2, const LevelStart& start, int x, int y, bool bilinear) {
  using T2 = typename S::T2;
  const std::size_t i = std::size_t(y) * w + x;
  if (start.flow == LevelStart::Flow::zero)
    store2(u, i, make_float2(0.f, 0.f));
  else if (start.flow == LevelStart::Flow::zoom_in)
    zoom_in_flow_px<S>(static_cast<const T2*>(start.coarse_u), start.coarse_w, start.coarse_h, u, w,
                       h, start.factor, x, y);
  if (start.zero_p) {
    store2(p1, i, make_float2(0.f, 0.f));
    store2(p2, i, make_float2(0.f, 0.f));
  }
  warp_at<S>(i0, GradientLoad{i1, w, h}, w, h, load2(u, i), grad, rho_c, x, y, bilinear);
}

// ---- a plain two-kernel iteration schedule (operator fusion, global memory only) ----

/// First half of one TV-L1 iteration at pixel i = (x, y) (numerics contract; IPOL
/// Dual_TVL1_optic_flow): rho = rho_c + grad.u; v = u + TH(rho) with thresholds
/// +-lambda*theta*|grad|^2 (v = u where |grad|^2 < 1e-10 inside them);
/// u = v + theta * div(p) (backward differences, p = 0 outside the image). In place.
template <class S>
FT_HD void plain_update_u_px(const typename S::T2* grad, const typename S::T1* rho_c,
                             typename S::T2* u, const typename S::T2* p1, const typename S::T2* p2,
                             int w, int h, float lambda_theta, float theta, int x, int y) {
  const std::size_t i = std::size_t(y) * w + x;
  const float2 g = load2(grad, i), uu = load2(u, i);
  const float rho = load1(rho_c, i) + (g.x * uu.x + g.y * uu.y);
  const float g2 = g.x * g.x + g.y * g.y;
  float d1 = 0.f, d2 = 0.f;
  if (rho < -lambda_theta * g2) {
    d1 = lambda_theta * g.x;
    d2 = lambda_theta * g.y;
  } else if (rho > lambda_theta * g2) {
    d1 = -lambda_theta * g.x;
    d2 = -lambda_theta * g.y;
  } else if (g2 >= 1e-10f) {
    const float fi = -rho / g2;
    d1 = fi * g.x;
    d2 = fi * g.y;
  }
  const float2 q1 = load2(p1, i), q2 = load2(p2, i);
  const float2 q1l = x > 0 ? load2(p1, i - 1) : make_float2(0.f, 0.f);
  const float2 q2l = x > 0 ? load2(p2, i - 1) : make_float2(0.f, 0.f);
  const float2 q1u = y > 0 ? load2(p1, i - std::size_t(w)) : make_float2(0.f, 0.f);
  const float2 q2u = y > 0 ? load2(p2, i - std::size_t(w)) : make_float2(0.f, 0.f);
  const float div1 = (q1.x - q1l.x) + (q1.y - q1u.y);
  const float div2 = (q2.x - q2l.x) + (q2.y - q2u.y);
  (void)h;
  store2(u, i, make_float2(uu.x + d1 + theta * div1, uu.y + d2 + theta * div2));
}

/// Second half: p = (p + tau/theta grad u) / (1 + tau/theta |grad u|) per component, forward
/// differences, 0 on the last column / row. In place (reads u only).
template <class S>
FT_HD void plain_update_p_px(const typename S::T2* u, typename S::T2* p1, typename S::T2* p2, int w,
                             int h, float tau_theta, int x, int y) {
  const std::size_t i = std::size_t(y) * w + x;
  const float2 uu = load2(u, i);
  const float2 ur = x < w - 1 ? load2(u, i + 1) : uu;
  const float2 ud = y < h - 1 ? load2(u, i + std::size_t(w)) : uu;
  const float u1x = ur.x - uu.x, u1y = ud.x - uu.x, u2x = ur.y - uu.y, u2y = ud.y - uu.y;
  const float n1 = 1.f + tau_theta * sqrtf(u1x * u1x + u1y * u1y);
  const float n2 = 1.f + tau_theta * sqrtf(u2x * u2x + u2y * u2y);
  const float2 q1 = load2(p1, i), q2 = load2(p2, i);
  store2(p1, i, make_float2((q1.x + tau_theta * u1x) / n1, (q1.y + tau_theta * u1y) / n1));
  store2(p2, i, make_float2((q2.x + tau_theta * u2x) / n2, (q2.y + tau_theta * u2y) / n2));
}

}  // namespace flowtune::cuda::frame
