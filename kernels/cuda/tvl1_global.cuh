// Scheme `global` (Romera et al. 2023, sec. 3.3): operator fusion into two kernels per
// iteration, global memory only. ft_global_u fuses Threshold + Divergence + Estimate U and
// updates u in place (pointwise in u, reads p); ft_global_p fuses Forward Gradient +
// Estimate P and updates p in place (pointwise in p, reads u): both are race-free in place.
// Defines: FT_BLOCK_X, FT_BLOCK_Y (2D block), one FT_PRECISION_* (tvl1_math.cuh).
#pragma once

#include "tvl1_math.cuh"

#ifndef FT_BLOCK_X
#error "FT_BLOCK_X required"
#endif
#ifndef FT_BLOCK_Y
#error "FT_BLOCK_Y required"
#endif

/// u <- v + theta div p at every pixel; fields width x height row-major.
extern "C" __global__ void __launch_bounds__(FT_BLOCK_X* FT_BLOCK_Y)
    ft_global_u(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
                ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
                const ft::Store2* __restrict__ p2, int width, int height, ft::Params prm) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  const int x = blockIdx.x * FT_BLOCK_X + threadIdx.x;
  const int y = blockIdx.y * FT_BLOCK_Y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  const M::V zero = M::zero();
  const M::V p1l = x > 0 ? ft::load2(p1, i - 1) : zero;
  const M::V p2l = x > 0 ? ft::load2(p2, i - 1) : zero;
  const M::V p1u = y > 0 ? ft::load2(p1, i - width) : zero;
  const M::V p2u = y > 0 ? ft::load2(p2, i - width) : zero;
  const M::V un = ft::update_u<M>(ft::load2(u, i), ft::load2(grad, i), ft::load1(rho_c, i),
                                  ft::load2(p1, i), ft::load2(p2, i), p1l, p2l, p1u, p2u, prm);
  ft::store2(u, i, un);
}

/// p <- (p + taut grad u) / (1 + taut |grad u|) at every pixel.
extern "C" __global__ void __launch_bounds__(FT_BLOCK_X* FT_BLOCK_Y)
    ft_global_p(const ft::Store2* __restrict__ u, ft::Store2* __restrict__ p1,
                ft::Store2* __restrict__ p2, int width, int height, ft::Params prm) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  const int x = blockIdx.x * FT_BLOCK_X + threadIdx.x;
  const int y = blockIdx.y * FT_BLOCK_Y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  const M::V uc = ft::load2(u, i);
  const M::V ur = x + 1 < width ? ft::load2(u, i + 1) : uc;
  const M::V ud = y + 1 < height ? ft::load2(u, i + width) : uc;
  M::V q1 = ft::load2(p1, i);
  M::V q2 = ft::load2(p2, i);
  ft::update_p<M>(uc, ur, ud, q1, q2, prm);
  ft::store2(p1, i, q1);
  ft::store2(p2, i, q2);
}
