// Scheme `shared_fusion` (Romera et al. 2023, sec. 3.3, fig. 5): one kernel per iteration.
// A block of FT_BLOCK_X x FT_BLOCK_Y threads covers a tile plus a one-pixel halo on every
// side; every thread loads p at its pixel into shared memory, all but the left column / top
// row compute u_new (they need p at left / up), and only the interior threads - the border
// threads only load - compute p_new (they need u_new at right / down). Output tile:
// (FT_BLOCK_X - 2) x (FT_BLOCK_Y - 2). Reads one buffer set (u, p1, p2) and writes another
// (ping-pong between launches), so neighbouring blocks never see a half-updated field.
// Defines: FT_BLOCK_X, FT_BLOCK_Y (>= 3 each), one FT_PRECISION_* (tvl1_math.cuh).
#pragma once

#include "tvl1_math.cuh"

#if !defined(FT_BLOCK_X) || !defined(FT_BLOCK_Y)
#error "FT_BLOCK_X and FT_BLOCK_Y required"
#endif
#if FT_BLOCK_X < 3 || FT_BLOCK_Y < 3
#error "shared_fusion needs blocks of at least 3 x 3 threads"
#endif

/// One iteration from (u, p1, p2) to (u_out, p1_out, p2_out); grid: ceil(width / (BX - 2))
/// x ceil(height / (BY - 2)) blocks.
extern "C" __global__ void __launch_bounds__(FT_BLOCK_X* FT_BLOCK_Y)
    ft_shared_fusion(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
                     const ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
                     const ft::Store2* __restrict__ p2, ft::Store2* __restrict__ u_out,
                     ft::Store2* __restrict__ p1_out, ft::Store2* __restrict__ p2_out, int width,
                     int height, ft::Params prm) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  __shared__ M::V s_p1[FT_BLOCK_Y][FT_BLOCK_X];
  __shared__ M::V s_p2[FT_BLOCK_Y][FT_BLOCK_X];
  __shared__ M::V s_u[FT_BLOCK_Y][FT_BLOCK_X];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = int(blockIdx.x) * (FT_BLOCK_X - 2) + tx - 1;
  const int y = int(blockIdx.y) * (FT_BLOCK_Y - 2) + ty - 1;
  const bool inside = x >= 0 && y >= 0 && x < width && y < height;
  const int i = y * width + x;
  const M::V zero = M::zero();
  // Load: p = 0 outside the image (the divergence's boundary rule).
  s_p1[ty][tx] = inside ? ft::load2(p1, i) : zero;
  s_p2[ty][tx] = inside ? ft::load2(p2, i) : zero;
  __syncthreads();
  M::V un = zero;
  if (inside && tx > 0 && ty > 0) {
    un = ft::update_u<M>(ft::load2(u, i), ft::load2(grad, i), ft::load1(rho_c, i), s_p1[ty][tx],
                         s_p2[ty][tx], s_p1[ty][tx - 1], s_p2[ty][tx - 1], s_p1[ty - 1][tx],
                         s_p2[ty - 1][tx], prm);
  }
  s_u[ty][tx] = un;
  __syncthreads();
  if (!inside || tx == 0 || ty == 0 || tx == FT_BLOCK_X - 1 || ty == FT_BLOCK_Y - 1) return;
  const M::V ur = x + 1 < width ? s_u[ty][tx + 1] : un;
  const M::V ud = y + 1 < height ? s_u[ty + 1][tx] : un;
  M::V q1 = s_p1[ty][tx];
  M::V q2 = s_p2[ty][tx];
  ft::update_p<M>(un, ur, ud, q1, q2, prm);
  ft::store2(u_out, i, un);
  ft::store2(p1_out, i, q1);
  ft::store2(p2_out, i, q2);
}
