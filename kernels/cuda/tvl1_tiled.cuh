// Temporal tiling for the middle pyramid levels (a level of 10K-60K pixels
// cannot hide a launch per iteration): `shared_fusion` generalised from one to k iterations
// per launch. A block of FT_TILED_T x FT_TILED_T threads holds a region of as many pixels: an
// output tile of T - 2 FT_TILED_DEPTH pixels per side and a halo of FT_TILED_DEPTH pixels
// on every side. u, p1, p2 of the region live in shared memory, grad and rho_c of a thread's
// pixel in registers; each iteration updates u (all but the region's left column / top row,
// which lack p at left / up), barrier, p (all but the right column / bottom row, which lack u
// at right / down), barrier. After j iterations the values are exact at distance >= j from
// every region edge, so k <= FT_TILED_DEPTH iterations leave the tile exact (overlapped
// recomputation of the halo; never an approximation). Image borders follow the numerics
// contract: p = 0 outside, u clamped at right / bottom. Reads one (u, p1, p2) set and writes
// another (ping-pong between launches), like shared_fusion, whose result it equals.
// Defines: FT_TILED_T (>= 2 FT_TILED_DEPTH + 1), FT_TILED_DEPTH, one FT_PRECISION_*.
#pragma once

#include "tvl1_math.cuh"

#if !defined(FT_TILED_T) || !defined(FT_TILED_DEPTH)
#error "FT_TILED_T and FT_TILED_DEPTH required"
#endif
#if FT_TILED_T < 2 * FT_TILED_DEPTH + 1
#error "the tile needs T >= 2 depth + 1"
#endif

/// k (1..FT_TILED_DEPTH) iterations from (u, p1, p2) to (u_out, p1_out, p2_out); grid:
/// ceil(width / tile) x ceil(height / tile) blocks, tile = FT_TILED_T - 2 FT_TILED_DEPTH.
extern "C" __global__ void __launch_bounds__(FT_TILED_T* FT_TILED_T)
    ft_tiled(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
             const ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
             const ft::Store2* __restrict__ p2, ft::Store2* __restrict__ u_out,
             ft::Store2* __restrict__ p1_out, ft::Store2* __restrict__ p2_out, int width,
             int height, ft::Params prm, int k) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  constexpr int T = FT_TILED_T, H = FT_TILED_DEPTH, TILE = T - 2 * H;
  __shared__ M::V s_u[T][T];
  __shared__ M::V s_p1[T][T];
  __shared__ M::V s_p2[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = int(blockIdx.x) * TILE + tx - H;
  const int y = int(blockIdx.y) * TILE + ty - H;
  const bool inside = x >= 0 && y >= 0 && x < width && y < height;
  const int i = y * width + x;
  const M::V zero = M::zero();
  // p = 0 outside the image (the divergence's boundary rule); those pixels never update.
  s_u[ty][tx] = inside ? ft::load2(u, i) : zero;
  s_p1[ty][tx] = inside ? ft::load2(p1, i) : zero;
  s_p2[ty][tx] = inside ? ft::load2(p2, i) : zero;
  const M::V g = inside ? ft::load2(grad, i) : zero;
  const M::S r = inside ? ft::load1(rho_c, i) : M::s(0.f);
  const bool do_u = inside && tx > 0 && ty > 0;
  const bool do_p = inside && tx < T - 1 && ty < T - 1;
  __syncthreads();
  for (int it = 0; it < k; ++it) {
    if (do_u)
      s_u[ty][tx] = ft::update_u<M>(s_u[ty][tx], g, r, s_p1[ty][tx], s_p2[ty][tx], s_p1[ty][tx - 1],
                                    s_p2[ty][tx - 1], s_p1[ty - 1][tx], s_p2[ty - 1][tx], prm);
    __syncthreads();
    if (do_p) {
      const M::V un = s_u[ty][tx];
      const M::V ur = x + 1 < width ? s_u[ty][tx + 1] : un;
      const M::V ud = y + 1 < height ? s_u[ty + 1][tx] : un;
      M::V q1 = s_p1[ty][tx];
      M::V q2 = s_p2[ty][tx];
      ft::update_p<M>(un, ur, ud, q1, q2, prm);
      s_p1[ty][tx] = q1;
      s_p2[ty][tx] = q2;
    }
    __syncthreads();
  }
  if (inside && tx >= H && ty >= H && tx < T - H && ty < T - H) {
    ft::store2(u_out, i, s_u[ty][tx]);
    ft::store2(p1_out, i, s_p1[ty][tx]);
    ft::store2(p2_out, i, s_p2[ty][tx]);
  }
}
