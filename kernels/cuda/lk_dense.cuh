// CUDA kernels of pyramidal dense Lucas-Kanade (Marras et al. sec. 3.3, Bouguet 2000; the
// rules are in lk_core.cuh, shared with the CPU reference). One thread per pixel. Compiled
// per config by NVRTC with the tunables as defines:
//   FT_BLOCK_X, FT_BLOCK_Y  thread block shape (pixels)
//   FT_FUSED   1: derivatives computed where read from I0 (no lk_gradients launch, no Ix/Iy
//              planes); 0: lk_gradients writes Ix, Iy first (Marras: separate kernels)
//   FT_TILE    1: the window's tile of I0 (and Ix, Iy when not fused) with its halo is staged
//              in shared memory; 0: every window read goes to global memory
// Parameters (window radius r, iterations, weights) are kernel arguments. Dynamic shared
// memory per thread block: FT_TILE * (FT_FUSED ? 1 : 3) * (FT_BLOCK_X + 2 h) * (FT_BLOCK_Y
// + 2 h) elements (4 bytes, 2 in f16), halo h = r + FT_FUSED. I1 is read from global memory (its
// reads depend on the flow). Host side: variants/localflow/cuda/lk_cuda_solver.cpp.
#pragma once

#include "flow_pyramid.cuh"
#include "lk_core.cuh"

#ifndef FT_BLOCK_X
#define FT_BLOCK_X 32
#endif
#ifndef FT_BLOCK_Y
#define FT_BLOCK_Y 8
#endif
#ifndef FT_FUSED
#define FT_FUSED 0
#endif
#ifndef FT_TILE
#define FT_TILE 0
#endif
// Precision f16 (FT_PRECISION_F16, as an exported header defines it): I0, I1 and the
// derivatives are stored as binary16 bits (ftflow::half_bits), the arithmetic stays float.
#ifdef FT_PRECISION_F16
typedef unsigned short ft_lk_t;
#else
typedef float ft_lk_t;
#endif

namespace ftflow {
/// Reads a shared tile of T of pitch `pitch` whose element 0 is in-frame pixel (ox, oy).
template <class T>
struct LkTile {
  const T* t;
  int pitch, ox, oy;
  __device__ float operator()(int cx, int cy) const { return load(t[(cy - oy) * pitch + cx - ox]); }
};
}  // namespace ftflow

namespace ftflow {
/// The body of lk_gradients for element type T.
template <class T>
__device__ void lk_gradients_body(const T* __restrict__ i0, int w, int h, T* __restrict__ ix,
                                  T* __restrict__ iy) {
  const long long i = (long long)blockIdx.x * kFlowThreads + threadIdx.x;
  if (i >= (long long)w * h) return;
  const int x = int(i % w), y = int(i / w);
  const LkPlaneT<T> p{i0, w};
  store(ix[i], lk_grad_x(p, w, x, y));
  store(iy[i], lk_grad_y(p, h, x, y));
}
}  // namespace ftflow

/// Ix, Iy (w x h) of I0 (lk_grad_x/y), elements ft_lk_t. Grid: ceil(w*h / 256) blocks of
/// ftflow::kFlowThreads (256) threads.
extern "C" __global__ void lk_gradients(const ft_lk_t* __restrict__ i0, int w, int h,
                                        ft_lk_t* __restrict__ ix, ft_lk_t* __restrict__ iy) {
  ftflow::lk_gradients_body<ft_lk_t>(i0, w, h, ix, iy);
}

/// out[i] = the binary16 bits of in[i], i < n (precision f16: a level's I0 and I1). Grid:
/// ceil(n / 256) blocks of 256 threads.
extern "C" __global__ void lk_to_half(const float* __restrict__ in, long long n,
                                      unsigned short* __restrict__ out) {
  const long long i = (long long)blockIdx.x * ftflow::kFlowThreads + threadIdx.x;
  if (i < n) out[i] = ftflow::half_bits(in[i]);
}

namespace ftflow {
/// The body of lk_level for BX = FT_BLOCK_X, BY = FT_BLOCK_Y, FUSED = FT_FUSED, TILE =
/// FT_TILE, T = ft_lk_t; `shared_words` is the dynamic shared memory (lk_shared_bytes).
template <int BX, int BY, int FUSED, int TILE, class T>
__device__ void lk_level_body(float* shared_words, const T* __restrict__ i0,
                              const T* __restrict__ i1, const T* __restrict__ ix,
                              const T* __restrict__ iy, int w, int h, const float* __restrict__ cu,
                              const float* __restrict__ cv, int cw, int ch, float* __restrict__ u,
                              float* __restrict__ v, int r, int iterations,
                              const LkWeights& weights) {
  const int x = int(blockIdx.x) * BX + int(threadIdx.x);
  const int y = int(blockIdx.y) * BY + int(threadIdx.y);
  const int halo = r + FUSED;
  const int pitch = BX + 2 * halo, rows = BY + 2 * halo, plane = pitch * rows;
  const int ox = int(blockIdx.x) * BX - halo, oy = int(blockIdx.y) * BY - halo;
  T* shared = reinterpret_cast<T*>(shared_words);
  if constexpr (TILE != 0) {
    const int tid = int(threadIdx.y) * BX + int(threadIdx.x);
    for (int k = tid; k < plane; k += BX * BY) {
      const long long g =
          (long long)clampi(oy + k / pitch, 0, h - 1) * w + clampi(ox + k % pitch, 0, w - 1);
      shared[k] = i0[g];
      if constexpr (FUSED == 0) {
        shared[plane + k] = ix[g];
        shared[2 * plane + k] = iy[g];
      }
    }
    __syncthreads();
  }
  if (x >= w || y >= h) return;
  float du = 0.f, dv = 0.f;
  lk_initial(cu, cv, cw, ch, x, y, &du, &dv);
  if constexpr (TILE != 0) {
    const LkTile<T> p0{shared, pitch, ox, oy};
    if constexpr (FUSED != 0)
      lk_refine(p0, LkGradX<LkTile<T>, T>{p0, w}, LkGradY<LkTile<T>, T>{p0, h}, i1, w, h, x, y, r,
                weights.g, iterations, &du, &dv);
    else
      lk_refine(p0, LkTile<T>{shared + plane, pitch, ox, oy},
                LkTile<T>{shared + 2 * plane, pitch, ox, oy}, i1, w, h, x, y, r, weights.g,
                iterations, &du, &dv);
  } else {
    const LkPlaneT<T> p0{i0, w};
    if constexpr (FUSED != 0)
      lk_refine(p0, LkGradX<LkPlaneT<T>, T>{p0, w}, LkGradY<LkPlaneT<T>, T>{p0, h}, i1, w, h, x, y,
                r, weights.g, iterations, &du, &dv);
    else
      lk_refine(p0, LkPlaneT<T>{ix, w}, LkPlaneT<T>{iy, w}, i1, w, h, x, y, r, weights.g,
                iterations, &du, &dv);
  }
  const long long at = (long long)y * w + x;
  u[at] = du;
  v[at] = dv;
}
}  // namespace ftflow

/// One level: the flow u, v (w x h) from the coarser level's flow cu, cv (cw x ch; null at
/// the coarsest level), `iterations` refinements with window radius r and taps `weights`.
/// ix, iy: the gradients (unused when FT_FUSED). Grid: (ceil(w / FT_BLOCK_X), ceil(h /
/// FT_BLOCK_Y)) blocks of (FT_BLOCK_X, FT_BLOCK_Y) threads.
extern "C" __global__ void __launch_bounds__(FT_BLOCK_X* FT_BLOCK_Y)
    lk_level(const ft_lk_t* __restrict__ i0, const ft_lk_t* __restrict__ i1,
             const ft_lk_t* __restrict__ ix, const ft_lk_t* __restrict__ iy, int w, int h,
             const float* __restrict__ cu, const float* __restrict__ cv, int cw, int ch,
             float* __restrict__ u, float* __restrict__ v, int r, int iterations,
             ftflow::LkWeights weights) {
  FT_FLOW_DYNAMIC_SHARED(ft_lk_shared);
  ftflow::lk_level_body<FT_BLOCK_X, FT_BLOCK_Y, FT_FUSED, FT_TILE, ft_lk_t>(
      ft_lk_shared, i0, i1, ix, iy, w, h, cu, cv, cw, ch, u, v, r, iterations, weights);
}
