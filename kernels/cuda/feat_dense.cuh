// CUDA kernel of the dense step of flow from tracked features (Kim, Hwangbo and Kanade,
// sec. 4-5; the per-pixel rules are in feat_core.cuh, shared with the CPU reference). One
// thread per pixel; the features are read in chunks of FT_FEATURES_PER_TB, from global
// memory or (FT_SHARED_FEATURES 1) staged in shared memory by the whole thread block (the
// paper keeps them in constant memory, sec. 5.1: every thread reads the same feature at the
// same time). Method 2's scores live in a global accumulator laid out hypothesis-major,
// scores[k * pixels + p], so that adjacent threads touch adjacent words (sec. 5.2, fig. 2).
// Compiled per config by NVRTC with FT_BLOCK_X, FT_BLOCK_Y, FT_SHARED_FEATURES,
// FT_FEATURES_PER_TB; dynamic shared memory FT_SHARED_FEATURES * FT_FEATURES_PER_TB * 20
// bytes. Host side: variants/localflow/cuda/feat_cuda_solver.cpp.
#pragma once

#include "feat_core.cuh"

#ifndef FT_BLOCK_X
#define FT_BLOCK_X 32
#endif
#ifndef FT_BLOCK_Y
#define FT_BLOCK_Y 8
#endif
#ifndef FT_SHARED_FEATURES
#define FT_SHARED_FEATURES 1
#endif
#ifndef FT_FEATURES_PER_TB
#define FT_FEATURES_PER_TB 64
#endif

namespace ftflow {

/// Scores of pixel `pixel` in the hypothesis-major global accumulator of `pixels` pixels.
struct FeatGlobalScores {
  float* p;
  long long pixels, pixel;
  __device__ float& operator()(int k) const { return p[(long long)k * pixels + pixel]; }
};

/// The body of feat_dense for the tunables BX, BY, SHARED, CHUNK; `shared` holds CHUNK
/// features when SHARED. Each pixel's feature loop runs in the reference's order (index
/// order), chunk after chunk, so the sums are the reference's.
template <int BX, int BY, int SHARED, int CHUNK>
__device__ void feat_dense_body(float* shared, int method, const Feature* __restrict__ fs, int n,
                                const float* __restrict__ fu, const float* __restrict__ fv, int nu,
                                int nv, float u0, float v0, float step,
                                const float* __restrict__ i0, const float* __restrict__ i1, int w,
                                int h, float inv2ss, float inv2sc, float cutoff, int tested,
                                float threshold, float* __restrict__ scores, float* __restrict__ u,
                                float* __restrict__ v, unsigned char* __restrict__ unclassified) {
  const int x = int(blockIdx.x) * BX + int(threadIdx.x);
  const int y = int(blockIdx.y) * BY + int(threadIdx.y);
  const int tid = int(threadIdx.y) * BX + int(threadIdx.x);
  const bool inside = x < w && y < h;
  const long long at = inside ? (long long)y * w + x : 0;
  const float c = inside ? i0[at] : 0.f;
  Feature* staged = reinterpret_cast<Feature*>(shared);
  const FeatGlobalScores s{scores, (long long)w * h, at};
  if (method == 2 && inside)
    for (int k = 0; k < nu * nv; ++k) s(k) = 0.f;
  float emax = -3.0e38f, sw = 0.f, su = 0.f, sv = 0.f;
  for (int pass = 0; pass < 2; ++pass) {  // 0: the largest exponent; 1: the weighted sums
    for (int base = 0; base < n; base += CHUNK) {
      const int count = n - base < CHUNK ? n - base : CHUNK;
      const Feature* chunk = fs + base;
      if constexpr (SHARED != 0) {
        __syncthreads();  // the previous chunk is no longer read
        for (int k = tid; k < count; k += BX * BY) staged[k] = fs[base + k];
        __syncthreads();
        chunk = staged;
      }
      if (!inside) continue;
      for (int i = 0; i < count; ++i) {
        if (pass == 0) {
          const float e = feat_log_likelihood(chunk[i], float(x), float(y), c, inv2ss, inv2sc);
          if (e > emax) emax = e;
        } else if (method == 1) {
          feat_accumulate(chunk[i], x, y, c, inv2ss, inv2sc, emax, &sw, &su, &sv);
        } else {
          feat_vote(chunk[i], base + i, x, y, c, inv2ss, inv2sc, emax, cutoff, fu, fv, nu, nv, s);
        }
      }
    }
  }
  if (!inside) return;
  float fu_ = 0.f, fv_ = 0.f;
  bool ok = false;
  if (method == 1) {
    fu_ = n > 0 ? div(su, sw) : 0.f;
    fv_ = n > 0 ? div(sv, sw) : 0.f;
    ok = feat_unchanged(i1, w, h, x, y, c, fu_, fv_, threshold);
  } else if (n > 0) {
    ok = feat_select(s, nu, nv, u0, v0, step, tested, i1, w, h, x, y, c, threshold, &fu_, &fv_);
  }
  u[at] = fu_;
  v[at] = fv_;
  unclassified[at] = ok ? 0 : 1;
}

}  // namespace ftflow

/// The dense flow u, v (w x h) and the unclassified flags of I0 -> I1 from n tracked features
/// by method 1 or 2 (fu, fv, nu, nv, u0, v0, step: the hypothesis space, method 2; scores:
/// nu * nv * w * h floats, method 2). Grid (ceil(w / FT_BLOCK_X), ceil(h / FT_BLOCK_Y)) of
/// (FT_BLOCK_X, FT_BLOCK_Y) threads.
extern "C" __global__ void __launch_bounds__(FT_BLOCK_X* FT_BLOCK_Y)
    feat_dense(int method, const ftflow::Feature* __restrict__ fs, int n,
               const float* __restrict__ fu, const float* __restrict__ fv, int nu, int nv, float u0,
               float v0, float step, const float* __restrict__ i0, const float* __restrict__ i1,
               int w, int h, float inv2ss, float inv2sc, float cutoff, int tested, float threshold,
               float* __restrict__ scores, float* __restrict__ u, float* __restrict__ v,
               unsigned char* __restrict__ unclassified) {
  FT_FLOW_DYNAMIC_SHARED(ft_feat_shared);
  ftflow::feat_dense_body<FT_BLOCK_X, FT_BLOCK_Y, FT_SHARED_FEATURES, FT_FEATURES_PER_TB>(
      ft_feat_shared, method, fs, n, fu, fv, nu, nv, u0, v0, step, i0, i1, w, h, inv2ss, inv2sc,
      cutoff, tested, threshold, scores, u, v, unclassified);
}
