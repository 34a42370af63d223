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

/// Floats of dynamic shared memory per thread block for block side b and radius r, with
/// per_tb image blocks per thread block and tile = FT_TILE_SEARCH.
__host__ __device__ inline int bm_shared_floats(int b, int r, int per_tb, int tile) {
  return per_tb * ((2 * r + 1) * (2 * r + 1) + (tile ? b * b + (b + 2 * r) * (b + 2 * r) : 0));
}

namespace ftflow {
/// Reads a shared-memory tile of side `pitch` at block-local coordinates + (ox, oy).
struct BmTileReader {
  const float* tile;
  int pitch, ox, oy;
  __device__ float operator()(int lx, int ly) const { return tile[(oy + ly) * pitch + ox + lx]; }
};

/// The body of bm_match_level for THREADS = FT_THREADS, PER_TB = FT_BLOCKS_PER_TB, TILE =
/// FT_TILE_SEARCH; `shared` is the dynamic shared memory (bm_shared_floats).
template <int THREADS, int PER_TB, int TILE>
__device__ void bm_match_body(float* shared, const float* __restrict__ i0,
                              const float* __restrict__ i1, int w, int h,
                              const float* __restrict__ cu, const float* __restrict__ cv, int cnbx,
                              int cnby, int cw, int ch, float* __restrict__ bu,
                              float* __restrict__ bv, int block, int radius, int similarity,
                              int subpixel) {
  const int side = 2 * radius + 1, n_cand = side * side;
  const int group = int(threadIdx.x) / THREADS, t = int(threadIdx.x) % THREADS;
  const int nbx = bm_blocks(w, block), nby = bm_blocks(h, block);
  const int id = int(blockIdx.x) * PER_TB + group;
  const bool active = id < nbx * nby;
  const int bx = active ? id % nbx : 0, by = active ? id / nbx : 0;
  float* costs = shared + group * bm_shared_floats(block, radius, 1, TILE);
  int pu = 0, pv = 0;
  bm_prediction(cu, cv, cnbx, cnby, cw, ch, block, w, h, bx, by, &pu, &pv);
  const int x0 = bx * block, y0 = by * block;
  const int bw = mini(block, w - x0), bh = mini(block, h - y0);
  float* tile0 = costs + n_cand;         // TILE: B x B of I0
  float* tile1 = tile0 + block * block;  // TILE: (B + 2R)^2 of I1 from the window's corner
  const int pitch1 = block + 2 * radius;
  if constexpr (TILE != 0) {
    if (active) {
      for (int k = t; k < block * block; k += THREADS)
        tile0[k] = i0[clampi(y0 + k / block, 0, h - 1) * w + clampi(x0 + k % block, 0, w - 1)];
      for (int k = t; k < pitch1 * pitch1; k += THREADS)
        tile1[k] = i1[clampi(y0 + pv - radius + k / pitch1, 0, h - 1) * w +
                      clampi(x0 + pu - radius + k % pitch1, 0, w - 1)];
    }
    __syncthreads();
  }
  if (active) {
    for (int k = t; k < n_cand; k += THREADS) {
      if constexpr (TILE != 0) {
        const BmTileReader r0{tile0, block, 0, 0};
        const BmTileReader r1{tile1, pitch1, k % side, k / side};
        costs[k] = bm_cost(r0, r1, bw, bh, similarity);
      } else {
        const BmClampedReader r0{i0, w, h, x0, y0};
        const BmClampedReader r1{i1, w, h, x0 + pu + k % side - radius,
                                 y0 + pv + k / side - radius};
        costs[k] = bm_cost(r0, r1, bw, bh, similarity);
      }
    }
  }
  __syncthreads();
  if (active && t == 0) bm_block_flow(costs, radius, pu, pv, subpixel, &bu[id], &bv[id]);
}
}  // namespace ftflow

/// One pyramid level: the block flows bu, bv (nbx x nby) of I0 -> I1 (w x h) around the
/// predictions from the coarser level's block flows cu, cv (cnbx x cnby of a cw x ch level;
/// null at the coarsest level). Grid: ceil(nbx * nby / FT_BLOCKS_PER_TB) thread blocks of
/// FT_THREADS * FT_BLOCKS_PER_TB threads, bm_shared_floats(...) * 4 bytes of dynamic shared
/// memory.
extern "C" __global__ void __launch_bounds__(FT_THREADS* FT_BLOCKS_PER_TB)
    bm_match_level(const float* __restrict__ i0, const float* __restrict__ i1, int w, int h,
                   const float* __restrict__ cu, const float* __restrict__ cv, int cnbx, int cnby,
                   int cw, int ch, float* __restrict__ bu, float* __restrict__ bv, int block,
                   int radius, int similarity, int subpixel) {
  FT_FLOW_DYNAMIC_SHARED(ft_bm_shared);
  ftflow::bm_match_body<FT_THREADS, FT_BLOCKS_PER_TB, FT_TILE_SEARCH>(
      ft_bm_shared, i0, i1, w, h, cu, cv, cnbx, cnby, cw, ch, bu, bv, block, radius, similarity,
      subpixel);
}

/// The per-pixel flow u, v (w x h) of the finest level from its block flows (bm_dense_at).
/// Grid: ceil(w * h / 256) blocks of ftflow::kFlowThreads (256) threads.
extern "C" __global__ void bm_densify(const float* __restrict__ bu, const float* __restrict__ bv,
                                      int nbx, int nby, int block, int w, int h,
                                      float* __restrict__ u, float* __restrict__ v) {
  const long long i = (long long)blockIdx.x * ftflow::kFlowThreads + threadIdx.x;
  if (i >= (long long)w * h) return;
  const int x = int(i % w), y = int(i / w);
  ftflow::bm_dense_at(bu, bv, nbx, nby, block, x, y, &u[i], &v[i]);
}
