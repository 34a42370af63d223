// CUDA kernels of pyramidal block matching (Marras et al. sec. 3.2; the rules are in
// bm_core.cuh, shared with the CPU reference). Compiled per config by NVRTC with the
// tunables as defines:
//   FT_THREADS        threads per image block (each evaluates candidates t, t + T, ...)
//   FT_BLOCKS_PER_TB  image blocks per thread block (thread block = T * FT_BLOCKS_PER_TB)
//   FT_TILE_SEARCH    1: the block of I0 and its search window of I1 ((B + 2R)^2 pixels)
//                     are staged in shared memory first; 0: costs read global memory.
// Parameters (block B, radius R, similarity, subpixel) are kernel arguments. Dynamic
// shared memory per thread block (bm_shared_floats): FT_BLOCKS_PER_TB * ((2R + 1)^2 costs
// + FT_TILE_SEARCH * (B^2 + (B + 2R)^2)) floats.
// Host side: variants/localflow/cuda/bm_cuda_solver.cpp.
#pragma once

#include "bm_core.cuh"
#include "flow_pyramid.cuh"

#ifndef FT_THREADS
#define FT_THREADS 64
#endif
#ifndef FT_BLOCKS_PER_TB
#define FT_BLOCKS_PER_TB 1
#endif
#ifndef FT_TILE_SEARCH
#define FT_TILE_SEARCH 0
#endif

/// Floats of dynamic shared memory per thread block for block side b and radius r.
__host__ __device__ constexpr int bm_shared_floats(int b, int r) {
  return FT_BLOCKS_PER_TB *
         ((2 * r + 1) * (2 * r + 1) + (FT_TILE_SEARCH ? b * b + (b + 2 * r) * (b + 2 * r) : 0));
}

namespace ftflow {
/// Reads a shared-memory tile of side `pitch` at block-local coordinates + (ox, oy).
struct BmTileReader {
  const float* tile;
  int pitch, ox, oy;
  __device__ float operator()(int lx, int ly) const { return tile[(oy + ly) * pitch + ox + lx]; }
};
}  // namespace ftflow

/// One pyramid level: the block flows bu, bv (nbx x nby) of I0 -> I1 (w x h) around the
/// predictions from the coarser level's block flows cu, cv (cnbx x cnby of a cw x ch level;
/// null at the coarsest level). Grid: ceil(nbx * nby / FT_BLOCKS_PER_TB) thread blocks of
/// FT_THREADS * FT_BLOCKS_PER_TB threads.
extern "C" __global__ void __launch_bounds__(FT_THREADS* FT_BLOCKS_PER_TB)
    bm_match_level(const float* __restrict__ i0, const float* __restrict__ i1, int w, int h,
                   const float* __restrict__ cu, const float* __restrict__ cv, int cnbx, int cnby,
                   int cw, int ch, float* __restrict__ bu, float* __restrict__ bv, int block,
                   int radius, int similarity, int subpixel) {
  extern __shared__ float ft_bm_shared[];
  const int side = 2 * radius + 1, n_cand = side * side;
  const int group = int(threadIdx.x) / FT_THREADS, t = int(threadIdx.x) % FT_THREADS;
  const int nbx = ftflow::bm_blocks(w, block), nby = ftflow::bm_blocks(h, block);
  const int id = int(blockIdx.x) * FT_BLOCKS_PER_TB + group;
  const bool active = id < nbx * nby;
  const int bx = active ? id % nbx : 0, by = active ? id / nbx : 0;
  float* costs = ft_bm_shared + group * (bm_shared_floats(block, radius) / FT_BLOCKS_PER_TB);
  int pu = 0, pv = 0;
  ftflow::bm_prediction(cu, cv, cnbx, cnby, cw, ch, block, w, h, bx, by, &pu, &pv);
  const int x0 = bx * block, y0 = by * block;
  const int bw = min(block, w - x0), bh = min(block, h - y0);
#if FT_TILE_SEARCH
  float* tile0 = costs + n_cand;         // B x B of I0
  float* tile1 = tile0 + block * block;  // (B + 2R)^2 of I1, origin at the window's corner
  const int pitch1 = block + 2 * radius;
  if (active) {
    for (int k = t; k < block * block; k += FT_THREADS)
      tile0[k] = i0[ftflow::clampi(y0 + k / block, 0, h - 1) * w +
                    ftflow::clampi(x0 + k % block, 0, w - 1)];
    for (int k = t; k < pitch1 * pitch1; k += FT_THREADS)
      tile1[k] = i1[ftflow::clampi(y0 + pv - radius + k / pitch1, 0, h - 1) * w +
                    ftflow::clampi(x0 + pu - radius + k % pitch1, 0, w - 1)];
  }
  __syncthreads();
#endif
  if (active) {
    for (int k = t; k < n_cand; k += FT_THREADS) {
#if FT_TILE_SEARCH
      const ftflow::BmTileReader r0{tile0, block, 0, 0};
      const ftflow::BmTileReader r1{tile1, pitch1, k % side, k / side};
#else
      const ftflow::BmClampedReader r0{i0, w, h, x0, y0};
      const ftflow::BmClampedReader r1{i1, w, h, x0 + pu + k % side - radius,
                                       y0 + pv + k / side - radius};
#endif
      costs[k] = ftflow::bm_cost(r0, r1, bw, bh, similarity);
    }
  }
  __syncthreads();
  if (active && t == 0) ftflow::bm_block_flow(costs, radius, pu, pv, subpixel, &bu[id], &bv[id]);
}

/// The per-pixel flow u, v (w x h) of the finest level from its block flows (bm_dense_at).
/// Grid: ceil(w * h / 256) blocks of 256 threads.
extern "C" __global__ void bm_densify(const float* __restrict__ bu, const float* __restrict__ bv,
                                      int nbx, int nby, int block, int w, int h,
                                      float* __restrict__ u, float* __restrict__ v) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)w * h) return;
  const int x = int(i % w), y = int(i / w);
  ftflow::bm_dense_at(bu, bv, nbx, nby, block, x, y, &u[i], &v[i]);
}
