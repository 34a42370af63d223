// Launch-free warpings on the levels that fill the GPU: all the inner iterations of one
// warping in one cooperative launch, the grid synchronised (cooperative_groups grid sync)
// between the dual and primal updates instead of ending a kernel. The grid holds only as many
// blocks as the occupancy API says are resident at once (a cooperative launch requires all of
// them resident); each thread walks the level's pixels in a grid-stride loop. The math is
// tvl1_math.cuh's, as the other schemes call it (Halide's split of algorithm and schedule):
//   FT_PERSISTENT_SYNCS == 2: update u in place at every pixel, grid sync, update p in place,
//     grid sync: scheme `global`'s order, so the result equals `global`'s (and the resident
//     levels') bit for bit in every precision.
//   FT_PERSISTENT_SYNCS == 1: one grid sync per iteration, ping-pong between (u, p1, p2) and a
//     second set (as shared_fusion): a pixel recomputes u_new of its right and lower neighbours
//     (update_u on the same inputs, rounded to the storage as `global` stores them) for its
//     forward gradient, so the result is the same function, bit for bit.
// IPOL's stopping test (Sanchez Perez et al., IPOL 2013, sec. 4; variants/cuda/epsilon_stop.hpp)
// runs inside the launch when check_every > 0: after every iteration whose count is a multiple
// of check_every, the mean over pixels of |u - u_before|^2 (u before and after that iteration,
// as stored) is reduced per block into `partials`, the grid synchronises, every block sums
// the partials in the same order (so all blocks take the same decision) and all stop when it
// is <= eps2. Numerics contract: ARCHITECTURE.md.
// Defines: FT_PERSISTENT_THREADS (1D block, a power of two, 32..1024), FT_PERSISTENT_SYNCS
// (1 or 2), one FT_PRECISION_* (tvl1_math.cuh).
#pragma once

#include <cooperative_groups.h>

#include "tvl1_math.cuh"

#if !defined(FT_PERSISTENT_THREADS) || !defined(FT_PERSISTENT_SYNCS)
#error "FT_PERSISTENT_THREADS and FT_PERSISTENT_SYNCS required"
#endif
#if FT_PERSISTENT_THREADS < 32 || FT_PERSISTENT_THREADS > 1024 || \
    (FT_PERSISTENT_THREADS & (FT_PERSISTENT_THREADS - 1)) != 0
#error "FT_PERSISTENT_THREADS must be a power of two from 32 to 1024 (the block sum halves it)"
#endif
#if FT_PERSISTENT_SYNCS != 1 && FT_PERSISTENT_SYNCS != 2
#error "FT_PERSISTENT_SYNCS must be 1 or 2"
#endif

namespace ft {
namespace persistent {

/// A stored pair as float (the stopping test's statistic is taken on the stored values).
__device__ __forceinline__ float2 stored_as_float2(float2 a) {
  return a;
}
__device__ __forceinline__ float2 stored_as_float2(__half2 a) {
  return __half22float2(a);
}

/// |a - b|^2 of two stored pairs in double, as flow_change_mean (kernels/cuda/frame).
__device__ __forceinline__ double change(Store2 a_s, Store2 b_s) {
  const float2 a = stored_as_float2(a_s), b = stored_as_float2(b_s);
  const double dx = double(a.x) - b.x, dy = double(a.y) - b.y;
  return dx * dx + dy * dy;
}

/// u_new at pixel i = (x, y) from the set (u, p1, p2): update_u with p = 0 outside the image.
__device__ __forceinline__ Math::V u_new_at(const Store2* __restrict__ grad,
                                            const Store1* __restrict__ rho_c, const Store2* u,
                                            const Store2* p1, const Store2* p2, int x, int y, int i,
                                            int width, const Params& prm) {
  typedef Math M;
  const M::V zero = M::zero();
  const M::V p1l = x > 0 ? load2(p1, i - 1) : zero;
  const M::V p2l = x > 0 ? load2(p2, i - 1) : zero;
  const M::V p1u = y > 0 ? load2(p1, i - width) : zero;
  const M::V p2u = y > 0 ? load2(p2, i - width) : zero;
  return update_u<M>(load2(u, i), load2(grad, i), load1(rho_c, i), load2(p1, i), load2(p2, i), p1l,
                     p2l, p1u, p2u, prm);
}

/// v as the storage holds it (what `global` reads back after storing u): identity in f32 and
/// f16, rounding to half and back in mixed.
__device__ __forceinline__ Math::V as_stored(Math::V v) {
#if defined(FT_PRECISION_MIXED)
  return __half22float2(__float22half2_rn(v));
#else
  return v;
#endif
}

/// Sum of one double per thread over the block, in a fixed order; valid in thread 0. s: one
/// double per thread of shared memory.
__device__ __forceinline__ double block_sum(double v, double* s) {
  const int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  for (int half = FT_PERSISTENT_THREADS / 2; half > 0; half /= 2) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  const double total = s[0];
  __syncthreads();  // s is reused by the next call
  return total;
}

/// The stopping test after an iteration whose count is a multiple of check_every: the grid's
/// mean of |u - u_before|^2 (acc: this thread's sum) <= eps2. Every block computes the same
/// value from `partials` in the same order, so all take the same decision.
__device__ __forceinline__ bool converged(double acc, double* __restrict__ partials, int n,
                                          double eps2, double* s,
                                          cooperative_groups::grid_group& grid) {
  const double block_total = block_sum(acc, s);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_total;
  grid.sync();
  double mine = 0;
  for (int b = threadIdx.x; b < int(gridDim.x); b += FT_PERSISTENT_THREADS) mine += partials[b];
  // partials is written again only after the next iteration's first grid sync: every block
  // has read it by then.
  return block_sum(mine, s) / double(n) <= eps2;
}

}  // namespace persistent
}  // namespace ft

/// `iterations` TV-L1 iterations on a width x height level in one cooperative launch (1D grid
/// of at most the resident blocks, block FT_PERSISTENT_THREADS). (u, p1, p2) in place; with
/// FT_PERSISTENT_SYNCS == 1, (u2, p12, p22) is a second set of the same size for the
/// ping-pong (unused with 2). check_every > 0: IPOL's stopping test every check_every
/// iterations against eps2 (= epsilon^2), partials: one double per block. done (if not null):
/// the iterations run, written by thread 0 of block 0.
extern "C" __global__ void __launch_bounds__(FT_PERSISTENT_THREADS)
    ft_persistent(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
                  ft::Store2* u, ft::Store2* p1, ft::Store2* p2, ft::Store2* u2, ft::Store2* p12,
                  ft::Store2* p22, int width, int height, ft::Params prm, int iterations,
                  int check_every, double eps2, double* __restrict__ partials, int* done) {
  ft::wait_previous_grid_then_allow_next();
  typedef ft::Math M;
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ double s_sum[FT_PERSISTENT_THREADS];
  const int n = width * height;
  const int first = int(blockIdx.x) * FT_PERSISTENT_THREADS + int(threadIdx.x);
  const int stride = int(gridDim.x) * FT_PERSISTENT_THREADS;
  int it = 0;
#if FT_PERSISTENT_SYNCS == 2
  (void)u2;
  (void)p12;
  (void)p22;
  while (it < iterations) {
    const bool test = check_every > 0 && (it + 1) % check_every == 0;
    double acc = 0;
    // Threshold, Divergence, Estimate U (in place: pointwise in u, reads p).
    for (int i = first; i < n; i += stride) {
      const int y = i / width, x = i - y * width;
      const ft::Store2 before = u[i];
      ft::store2(u, i, ft::persistent::u_new_at(grad, rho_c, u, p1, p2, x, y, i, width, prm));
      if (test) acc += ft::persistent::change(u[i], before);
    }
    grid.sync();
    // Forward Gradient, Estimate P (in place: pointwise in p, reads u).
    for (int i = first; i < n; i += stride) {
      const int y = i / width, x = i - y * width;
      const M::V uc = ft::load2(u, i);
      const M::V ur = x + 1 < width ? ft::load2(u, i + 1) : uc;
      const M::V ud = y + 1 < height ? ft::load2(u, i + width) : uc;
      M::V q1 = ft::load2(p1, i);
      M::V q2 = ft::load2(p2, i);
      ft::update_p<M>(uc, ur, ud, q1, q2, prm);
      ft::store2(p1, i, q1);
      ft::store2(p2, i, q2);
    }
    // The next iteration's u update (or the test's partials) reads p of the neighbours; the
    // last iteration needs no barrier (the kernel's end orders it before what follows).
    if (it + 1 < iterations || test) grid.sync();
    ++it;
    if (test && ft::persistent::converged(acc, partials, n, eps2, s_sum, grid)) break;
  }
#else
  while (it < iterations) {
    const bool test = check_every > 0 && (it + 1) % check_every == 0;
    double acc = 0;
    // Iteration `it` reads set it % 2 and writes the other (selects, not arrays: no stack).
    const bool odd = (it & 1) != 0;
    const ft::Store2* su = odd ? u2 : u;
    const ft::Store2* sp1 = odd ? p12 : p1;
    const ft::Store2* sp2 = odd ? p22 : p2;
    ft::Store2* du = odd ? u : u2;
    ft::Store2* dp1 = odd ? p1 : p12;
    ft::Store2* dp2 = odd ? p2 : p22;
    for (int i = first; i < n; i += stride) {
      const int y = i / width, x = i - y * width;
      using ft::persistent::as_stored;
      using ft::persistent::u_new_at;
      const M::V un = as_stored(u_new_at(grad, rho_c, su, sp1, sp2, x, y, i, width, prm));
      const M::V ur =
          x + 1 < width
              ? as_stored(u_new_at(grad, rho_c, su, sp1, sp2, x + 1, y, i + 1, width, prm))
              : un;
      const M::V ud =
          y + 1 < height
              ? as_stored(u_new_at(grad, rho_c, su, sp1, sp2, x, y + 1, i + width, width, prm))
              : un;
      M::V q1 = ft::load2(sp1, i);
      M::V q2 = ft::load2(sp2, i);
      ft::update_p<M>(un, ur, ud, q1, q2, prm);
      ft::store2(du, i, un);
      ft::store2(dp1, i, q1);
      ft::store2(dp2, i, q2);
      if (test) acc += ft::persistent::change(du[i], su[i]);
    }
    grid.sync();
    ++it;
    if (test && ft::persistent::converged(acc, partials, n, eps2, s_sum, grid)) break;
  }
  if (it & 1) {  // the result is in the second set: copy it back (every read of set 0 is done)
    for (int i = first; i < n; i += stride) {
      u[i] = u2[i];
      p1[i] = p12[i];
      p2[i] = p22[i];
    }
  }
#endif
  if (done && blockIdx.x == 0 && threadIdx.x == 0) *done = it;
}
