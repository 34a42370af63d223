// Pyramidal dense Lucas-Kanade (Lucas and Kanade 1981; Marras et al. sec. 3.3; Bouguet,
// "Pyramidal implementation of the Lucas Kanade feature tracker", 2000, sec. 2): the
// per-pixel arithmetic shared by the CPU reference (kernels/localflow/lucas_kanade.cpp) and
// the CUDA kernels (lk_dense.cuh).
//
// At each level (coarsest first) every pixel p starts from twice the coarser level's flow
// (bilinear at p's position in the coarser level; 0 at the coarsest level). Derivatives of
// I0 by central differences, clamp-to-edge (lk_grad_x/y). Over the (2r + 1)^2 window W(p)
// (positions clamped to the frame), with separable weights w_ij = g_i g_j (box: 1, Gaussian:
// lk_gaussian_taps), the structure tensor G = sum w [Ix^2 IxIy; IxIy Iy^2] is solved K times
// (Bouguet's iterative refinement, sec. 2.2, eq. 17-28):
//   e_q = I0(q) - I1(q + d)   (I1 warped by the current flow d of p, bilinear)
//   b = sum w e [Ix; Iy],   d <- d + G^-1 b.
// Pixels whose G has a smallest eigenvalue below kLkMinEigen times the weight sum (flat or
// edge-only windows, the aperture problem) keep their initial flow.
// Precision f16 stores I0, I1 and the derivatives of every level as IEEE binary16 (the
// derivatives computed from the stored I0, then rounded); the arithmetic stays float.
#pragma once

#include "flow_core.cuh"

namespace ftflow {

/// Largest window side (2r + 1) of the weights array.
constexpr int kLkMaxWindow = 15;
/// Smallest eigenvalue of G per unit weight (intensity^2 / px^2) below which p is not solved.
constexpr float kLkMinEigen = 0.1f;

/// Separable window weights g[0 .. 2r] (passed by value to the kernels).
struct LkWeights {
  float g[kLkMaxWindow];
};

/// x-derivative of I0 at the in-frame pixel (cx, cy): (I0(x+1) - I0(x-1)) / 2 with the reads
/// clamped to [0, w-1]. i0(cx, cy) reads I0 at in-frame coordinates.
template <class P>
FT_FLOW_HD float lk_grad_x(const P& i0, int w, int cx, int cy) {
  return mul(0.5f, sub(i0(clampi(cx + 1, 0, w - 1), cy), i0(clampi(cx - 1, 0, w - 1), cy)));
}
/// y-derivative, as lk_grad_x along y.
template <class P>
FT_FLOW_HD float lk_grad_y(const P& i0, int h, int cx, int cy) {
  return mul(0.5f, sub(i0(cx, clampi(cy + 1, 0, h - 1)), i0(cx, clampi(cy - 1, 0, h - 1))));
}

/// Initial flow of pixel (x, y) of a level from the coarser level's flow cu, cv (cw x ch;
/// null at the coarsest level): twice its bilinear value at ((x + 0.5) / 2 - 0.5, ...).
FT_FLOW_HD void lk_initial(const float* cu, const float* cv, int cw, int ch, int x, int y, float* u,
                           float* v) {
  *u = 0.f;
  *v = 0.f;
  if (!cu) return;
  const float fx = to_coarse(x), fy = to_coarse(y);
  *u = mul(2.f, bilinear(cu, cw, ch, fx, fy));
  *v = mul(2.f, bilinear(cv, cw, ch, fx, fy));
}

/// Refines the flow (u, v) of pixel (x, y) of a w x h level: K = iterations solves of the
/// window r with weights g. i0, gx, gy read I0, Ix, Iy at in-frame coordinates; i1 is the
/// I1 plane (float or binary16 bits; bilinear reads). Arithmetic in float either way.
template <class P0, class GX, class GY, class T1>
FT_FLOW_HD void lk_refine(const P0& i0, const GX& gx, const GY& gy, const T1* i1, int w, int h,
                          int x, int y, int r, const float* g, int iterations, float* u, float* v) {
  float gxx = 0.f, gxy = 0.f, gyy = 0.f, sw = 0.f;
  for (int j = -r; j <= r; ++j) {
    const int cy = clampi(y + j, 0, h - 1);
    for (int i = -r; i <= r; ++i) {
      const int cx = clampi(x + i, 0, w - 1);
      const float wt = mul(g[j + r], g[i + r]);
      const float a = gx(cx, cy), b = gy(cx, cy);
      gxx = add(gxx, mul(wt, mul(a, a)));
      gxy = add(gxy, mul(wt, mul(a, b)));
      gyy = add(gyy, mul(wt, mul(b, b)));
      sw = add(sw, wt);
    }
  }
  const float d = sub(gxx, gyy);
  const float disc = sqrt_rn(add(mul(d, d), mul(4.f, mul(gxy, gxy))));
  const float min_eigen = mul(0.5f, sub(add(gxx, gyy), disc));
  if (!(min_eigen > mul(kLkMinEigen, sw))) return;
  const float det = sub(mul(gxx, gyy), mul(gxy, gxy));
  if (!(det > 0.f)) return;
  float du = *u, dv = *v;
  for (int k = 0; k < iterations; ++k) {
    float bx = 0.f, by = 0.f;
    for (int j = -r; j <= r; ++j) {
      const int cy = clampi(y + j, 0, h - 1);
      for (int i = -r; i <= r; ++i) {
        const int cx = clampi(x + i, 0, w - 1);
        const float wt = mul(g[j + r], g[i + r]);
        const float e = sub(i0(cx, cy), bilinear(i1, w, h, add(float(cx), du), add(float(cy), dv)));
        const float we = mul(wt, e);
        bx = add(bx, mul(we, gx(cx, cy)));
        by = add(by, mul(we, gy(cx, cy)));
      }
    }
    du = add(du, div(sub(mul(gyy, bx), mul(gxy, by)), det));
    dv = add(dv, div(sub(mul(gxx, by), mul(gxy, bx)), det));
  }
  *u = du;
  *v = dv;
}

/// Reads a full plane of T (float, or binary16 bits for precision f16) at in-frame
/// coordinates.
template <class T>
struct LkPlaneT {
  const T* p;
  int w;
  FT_FLOW_HD float operator()(int cx, int cy) const { return load(p[cy * w + cx]); }
};
using LkPlane = LkPlaneT<float>;
/// The derivative of an I0 reader (fused derivatives: computed where read), rounded as
/// element type T stores it (so that it equals a stored derivative plane of T).
template <class P, class T = float>
struct LkGradX {
  P i0;
  int w;
  FT_FLOW_HD float operator()(int cx, int cy) const { return stored<T>(lk_grad_x(i0, w, cx, cy)); }
};
template <class P, class T = float>
struct LkGradY {
  P i0;
  int h;
  FT_FLOW_HD float operator()(int cx, int cy) const { return stored<T>(lk_grad_y(i0, h, cx, cy)); }
};

}  // namespace ftflow
