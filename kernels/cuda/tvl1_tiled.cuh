// Temporal tiling for the middle pyramid levels (a level of 10K-200K pixels
// cannot hide a launch per iteration): `shared_fusion` generalised from one to k iterations
// per launch. A block of FT_TILED_T x FT_TILED_T threads holds a region of R x R pixels,
// R = FT_TILED_T * FT_TILED_COARSEN (thread coarsening: each thread owns COARSEN x COARSEN
// pixels, strided by T so that a warp's shared-memory accesses stay consecutive): an output
// tile of R - 2 FT_TILED_DEPTH pixels per side and a halo of FT_TILED_DEPTH pixels on every
// side. u, p1, p2 of the region live in shared memory, grad and rho_c of a thread's pixels in
// registers; each iteration updates u (all but the region's left column / top row, which lack
// p at left / up), barrier, p (all but the right column / bottom row, which lack u at right /
// down), barrier. After j iterations the values are exact at distance >= j from every region
// edge, so k <= FT_TILED_DEPTH iterations leave the tile exact (overlapped recomputation of the
// halo; never an approximation). Each pixel's arithmetic is the same in the same order for
// every T, COARSEN and DEPTH. Image borders follow the numerics contract: p = 0 outside, u
// clamped at right / bottom. Reads one (u, p1, p2) set and writes another (ping-pong between
// launches), like shared_fusion, whose result it equals.
// Built with FT_TILED_MEDIAN 3 or 5 (a launch of k <= FT_TILED_DEPTH - FT_TILED_MEDIAN / 2
// iterations: then u is exact on the tile and a ring of FT_TILED_MEDIAN / 2 pixels around it)
// the kernel also applies the frame's median filter to u (Wedel et al. 2009, sec. 3; clamp-to-edge,
// each component separately, kernels/cuda/median_select.cuh, as the frame's median stage):
// the warping's last launch and its median stage in one. The median is a selection, so the
// output equals the median stage's on the same u (in mixed precision too: rounding to half is
// monotone, so the median of the rounded values is the rounded median).
// The median is a build of its own (its registers would halve the blocks per SM of the
// iterations-only kernel).
// Defines: FT_TILED_T, FT_TILED_DEPTH, FT_TILED_COARSEN (default 1; R >= 2 FT_TILED_DEPTH +
// 1), FT_TILED_MEDIAN (0, the default, 3 or 5), one FT_PRECISION_*.
#pragma once

#include "median_select.cuh"
#include "tvl1_math.cuh"

#if !defined(FT_TILED_T) || !defined(FT_TILED_DEPTH)
#error "FT_TILED_T and FT_TILED_DEPTH required"
#endif
#ifndef FT_TILED_COARSEN
#define FT_TILED_COARSEN 1
#endif
#ifndef FT_TILED_MEDIAN
#define FT_TILED_MEDIAN 0
#endif
#if FT_TILED_MEDIAN != 0 && FT_TILED_MEDIAN != 3 && FT_TILED_MEDIAN != 5
#error "FT_TILED_MEDIAN must be 0, 3 or 5"
#endif
#if FT_TILED_T * FT_TILED_COARSEN < 2 * FT_TILED_DEPTH + 1
#error "the region needs T * COARSEN >= 2 depth + 1"
#endif

#if FT_TILED_MEDIAN
namespace ft_tiled_median {

__device__ __forceinline__ float component(float2 v, int c) {
  return c == 0 ? v.x : v.y;
}
__device__ __forceinline__ float component(__half2 v, int c) {
  return c == 0 ? __low2float(v) : __high2float(v);
}
__device__ __forceinline__ void store(float2* a, int i, float x, float y) {
  a[i] = make_float2(x, y);
}
// Exact: the medians are samples of u, which this storage holds (mixed: rounded as store2).
__device__ __forceinline__ void store(__half2* a, int i, float x, float y) {
  a[i] = __floats2half2_rn(x, y);
}

/// One component (c) of the region's u in shared memory at image pixel (i, j): the loader of
/// median_window_samples.
template <class V, int R>
struct RegionLoad {
  const V* s;
  int x0, y0, c;
  __device__ float operator()(int i, int j) const {
    return component(s[(j - y0) * R + (i - x0)], c);
  }
};

/// The Window x Window median of component c of the region's u at image pixel (x, y).
template <int Window, class V, int R>
__device__ __forceinline__ float median_at(const V* s, int x0, int y0, int c, int width, int height,
                                           int x, int y) {
  float w[Window * Window];
  flowtune::median_window_samples<float, Window>(RegionLoad<V, R>{s, x0, y0, c}, width, height, x,
                                                 y, w);
  return flowtune::median_select<float, Window * Window>(w);
}

}  // namespace ft_tiled_median
#endif

/// k (1..FT_TILED_DEPTH) iterations from (u, p1, p2) to (u_out, p1_out, p2_out); grid:
/// ceil(width / tile) x ceil(height / tile) blocks of T x T threads,
/// tile = FT_TILED_T * FT_TILED_COARSEN - 2 FT_TILED_DEPTH. With FT_TILED_MEDIAN, u_out is u
/// median-filtered (k <= FT_TILED_DEPTH - FT_TILED_MEDIAN / 2, the caller's rule).
extern "C" __global__ void __launch_bounds__(FT_TILED_T* FT_TILED_T)
    ft_tiled(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
             const ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
             const ft::Store2* __restrict__ p2, ft::Store2* __restrict__ u_out,
             ft::Store2* __restrict__ p1_out, ft::Store2* __restrict__ p2_out, int width,
             int height, ft::Params prm, int k) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  constexpr int T = FT_TILED_T, C = FT_TILED_COARSEN, R = T * C, H = FT_TILED_DEPTH;
  constexpr int TILE = R - 2 * H;
  __shared__ M::V s_u[R][R];
  __shared__ M::V s_p1[R][R];
  __shared__ M::V s_p2[R][R];
  const int x0 = int(blockIdx.x) * TILE - H;
  const int y0 = int(blockIdx.y) * TILE - H;
  const M::V zero = M::zero();
  M::V g[C][C];
  M::S r[C][C];
  // p = 0 outside the image (the divergence's boundary rule); those pixels never update.
#pragma unroll
  for (int b = 0; b < C; ++b)
#pragma unroll
    for (int a = 0; a < C; ++a) {
      const int rx = int(threadIdx.x) + T * a, ry = int(threadIdx.y) + T * b;
      const int x = x0 + rx, y = y0 + ry;
      const bool inside = x >= 0 && y >= 0 && x < width && y < height;
      const int i = y * width + x;
      s_u[ry][rx] = inside ? ft::load2(u, i) : zero;
      s_p1[ry][rx] = inside ? ft::load2(p1, i) : zero;
      s_p2[ry][rx] = inside ? ft::load2(p2, i) : zero;
      g[b][a] = inside ? ft::load2(grad, i) : zero;
      r[b][a] = inside ? ft::load1(rho_c, i) : M::s(0.f);
    }
  __syncthreads();
  for (int it = 0; it < k; ++it) {
#pragma unroll
    for (int b = 0; b < C; ++b)
#pragma unroll
      for (int a = 0; a < C; ++a) {
        const int rx = int(threadIdx.x) + T * a, ry = int(threadIdx.y) + T * b;
        const int x = x0 + rx, y = y0 + ry;
        if (x >= 0 && y >= 0 && x < width && y < height && rx > 0 && ry > 0)
          s_u[ry][rx] = ft::update_u<M>(s_u[ry][rx], g[b][a], r[b][a], s_p1[ry][rx], s_p2[ry][rx],
                                        s_p1[ry][rx - 1], s_p2[ry][rx - 1], s_p1[ry - 1][rx],
                                        s_p2[ry - 1][rx], prm);
      }
    __syncthreads();
#pragma unroll
    for (int b = 0; b < C; ++b)
#pragma unroll
      for (int a = 0; a < C; ++a) {
        const int rx = int(threadIdx.x) + T * a, ry = int(threadIdx.y) + T * b;
        const int x = x0 + rx, y = y0 + ry;
        if (x >= 0 && y >= 0 && x < width && y < height && rx < R - 1 && ry < R - 1) {
          const M::V un = s_u[ry][rx];
          const M::V ur = x + 1 < width ? s_u[ry][rx + 1] : un;
          const M::V ud = y + 1 < height ? s_u[ry + 1][rx] : un;
          M::V q1 = s_p1[ry][rx];
          M::V q2 = s_p2[ry][rx];
          ft::update_p<M>(un, ur, ud, q1, q2, prm);
          s_p1[ry][rx] = q1;
          s_p2[ry][rx] = q2;
        }
      }
    __syncthreads();
  }
#pragma unroll
  for (int b = 0; b < C; ++b)
#pragma unroll
    for (int a = 0; a < C; ++a) {
      const int rx = int(threadIdx.x) + T * a, ry = int(threadIdx.y) + T * b;
      const int x = x0 + rx, y = y0 + ry;
      if (x >= 0 && y >= 0 && x < width && y < height && rx >= H && ry >= H && rx < R - H &&
          ry < R - H) {
        const int i = y * width + x;
#if FT_TILED_MEDIAN
        namespace md = ft_tiled_median;
        md::store(
            u_out, i,
            md::median_at<FT_TILED_MEDIAN, M::V, R>(&s_u[0][0], x0, y0, 0, width, height, x, y),
            md::median_at<FT_TILED_MEDIAN, M::V, R>(&s_u[0][0], x0, y0, 1, width, height, x, y));
#else
        ft::store2(u_out, i, s_u[ry][rx]);
#endif
        ft::store2(p1_out, i, s_p1[ry][rx]);
        ft::store2(p2_out, i, s_p2[ry][rx]);
      }
    }
}
