// A whole pyramid level resident in one thread block's shared memory: every inner iteration
// of one warping in one launch (launch-free warpings, for the coarse
// levels: below ~4K pixels a level cannot fill the GPU, and a launch per iteration costs
// more than the iteration). The math is tvl1_math.cuh's, applied as in scheme `global`
// (update u in place at every pixel, barrier, update p in place at every pixel, barrier), so
// the result equals `global`'s bit for bit. Numerics contract: ARCHITECTURE.md.
// Shared memory: width * height * (4 pairs + 1 scalar) of the storage type (36 B/px in f32,
// 18 B/px in f16 / mixed), dynamic; the caller checks the level fits the device's opt-in
// limit (227 KB on Hopper: 6456 px f32, 12913 px f16).
// Defines: FT_RESIDENT_THREADS (block = 32 x FT_RESIDENT_THREADS / 32), one FT_PRECISION_*.
#pragma once

#include "tvl1_math.cuh"

#ifndef FT_RESIDENT_THREADS
#error "FT_RESIDENT_THREADS required"
#endif

/// `iterations` TV-L1 iterations on a width x height level in one block (gridDim = 1, block
/// 32 x FT_RESIDENT_THREADS / 32): loads grad, rho_c, u, p1, p2 into shared memory, iterates
/// there, writes u, p1, p2 back.
extern "C" __global__ void __launch_bounds__(FT_RESIDENT_THREADS)
    ft_resident(const ft::Store2* __restrict__ grad_g, const ft::Store1* __restrict__ rho_g,
                ft::Store2* __restrict__ u_g, ft::Store2* __restrict__ p1_g,
                ft::Store2* __restrict__ p2_g, int width, int height, ft::Params prm,
                int iterations) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  extern __shared__ __align__(16) unsigned char ft_resident_smem[];
  const int n = width * height;
  ft::Store2* u = reinterpret_cast<ft::Store2*>(ft_resident_smem);
  ft::Store2* p1 = u + n;
  ft::Store2* p2 = p1 + n;
  ft::Store2* grad = p2 + n;
  ft::Store1* rho_c = reinterpret_cast<ft::Store1*>(grad + n);
  const int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  for (int i = t; i < n; i += nt) {
    u[i] = u_g[i];
    p1[i] = p1_g[i];
    p2[i] = p2_g[i];
    grad[i] = grad_g[i];
    rho_c[i] = rho_g[i];
  }
  __syncthreads();
  const M::V zero = M::zero();
  for (int it = 0; it < iterations; ++it) {
    for (int y = threadIdx.y; y < height; y += blockDim.y)
      for (int x = threadIdx.x; x < width; x += blockDim.x) {
        const int i = y * width + x;
        const M::V p1l = x > 0 ? ft::load2(p1, i - 1) : zero;
        const M::V p2l = x > 0 ? ft::load2(p2, i - 1) : zero;
        const M::V p1u = y > 0 ? ft::load2(p1, i - width) : zero;
        const M::V p2u = y > 0 ? ft::load2(p2, i - width) : zero;
        ft::store2(u, i,
                   ft::update_u<M>(ft::load2(u, i), ft::load2(grad, i), ft::load1(rho_c, i),
                                   ft::load2(p1, i), ft::load2(p2, i), p1l, p2l, p1u, p2u, prm));
      }
    __syncthreads();
    for (int y = threadIdx.y; y < height; y += blockDim.y)
      for (int x = threadIdx.x; x < width; x += blockDim.x) {
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
    __syncthreads();
  }
  for (int i = t; i < n; i += nt) {
    u_g[i] = u[i];
    p1_g[i] = p1[i];
    p2_g[i] = p2[i];
  }
}
