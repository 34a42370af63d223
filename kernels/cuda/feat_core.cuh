// Dense flow from features tracked in advance (Kim, Hwangbo, Kanade, "Parallel algorithms to
// a parallel hardware: designing vision algorithms for a GPU", sec. 4): the per-pixel
// arithmetic of method 1 (direct interpolation, sec. 4.1, eq. 3-4, algorithm 1) and method 2
// (multiple hypotheses and testing, sec. 4.2, algorithm 2), written with ftflow's operations
// so that a CUDA kernel can share it with the CPU reference (kernels/localflow/features.cpp).
//
// Frames are gray, so the paper's 5-D (x, y, r, g, b) distance becomes 3-D (x, y, I): the
// likelihood of pixel p under feature i is
//   A_i(p) = exp(-((x - x_i)^2 + (y - y_i)^2) / (2 s_s^2) - (I0(p) - c_i)^2 / (2 s_c^2)),
// (eq. 3 with alpha = 1 / s_c, beta = 1 / s_s; the paper's alpha / beta = 4 is s_s = 4 s_c).
// Method 1: (u, v)(p) = sum A_i (u_i, v_i) / sum A_i (eq. 4). Method 2: hypotheses h on a
// grid of step `step` spanning the features' flows (the discretised flow space, fig. 1); each
// feature votes A_i(p) exp(-|h - f_i|^2 / (2 s_f^2)) (the 7-D likelihood), the `tested` most
// likely are tested in order and the first that passes the change test is taken; when none
// passes, the most likely, marked unclassified. Change test (both methods): |I1(p + h) - I0(p)|
// <= threshold, I1 bilinear.
#pragma once

#include "flow_core.cuh"

namespace ftflow {

/// exp(x) for x <= 0 from + - * only (Cody-Waite split by ln 2, degree-9 Taylor on [0, ln 2),
/// exact scaling by 2^k): the same float result on the host and the device, where expf is not
/// correctly rounded. Relative error < 5e-6 down to x = -80 (the rounding of x / ln 2); 0
/// below 2^-126.
FT_FLOW_HD float exp_neg(float x) {
  if (!(x > -87.f)) return 0.f;
  if (x > 0.f) x = 0.f;
  const float t = mul(x, 1.44269504f);  // x / ln 2
  const float k = floor_(t);
  const float r = mul(sub(t, k), 0.69314718f);  // in [0, ln 2)
  float p = 1.f / 362880.f;
  const float c[9] = {1.f / 40320.f, 1.f / 5040.f, 1.f / 720.f, 1.f / 120.f, 1.f / 24.f,
                      1.f / 6.f,     0.5f,         1.f,         1.f};
  for (int i = 0; i < 9; ++i) p = add(mul(p, r), c[i]);
  const int e = int(k) + 127;  // 2^k as a normal float
  if (e <= 0) return 0.f;
  union {
    unsigned u;
    float f;
  } scale;
  scale.u = unsigned(e) << 23;
  return mul(p, scale.f);
}

/// One tracked feature: position in I0 (px), its intensity in I0 and its flow (px).
struct Feature {
  float x, y, c, u, v;
};

/// Shi-Tomasi score (smallest eigenvalue of the box-window structure tensor, Shi and Tomasi
/// 1994) of pixel (x, y) over a (2r + 1)^2 window, derivatives gx, gy read at in-frame
/// coordinates (clamped window).
template <class GX, class GY>
FT_FLOW_HD float shi_tomasi_score(const GX& gx, const GY& gy, int w, int h, int x, int y, int r) {
  float gxx = 0.f, gxy = 0.f, gyy = 0.f;
  for (int j = -r; j <= r; ++j) {
    const int cy = clampi(y + j, 0, h - 1);
    for (int i = -r; i <= r; ++i) {
      const int cx = clampi(x + i, 0, w - 1);
      const float a = gx(cx, cy), b = gy(cx, cy);
      gxx = add(gxx, mul(a, a));
      gxy = add(gxy, mul(a, b));
      gyy = add(gyy, mul(b, b));
    }
  }
  const float d = sub(gxx, gyy);
  return mul(0.5f, sub(add(gxx, gyy), sqrt_rn(add(mul(d, d), mul(4.f, mul(gxy, gxy))))));
}

/// The exponent of A_i(p) (<= 0) for pixel (x, y) of intensity c; inv2ss = 1 / (2 s_s^2),
/// inv2sc = 1 / (2 s_c^2).
FT_FLOW_HD float feat_log_likelihood(const Feature& f, float x, float y, float c, float inv2ss,
                                     float inv2sc) {
  const float dx = sub(x, f.x), dy = sub(y, f.y), dc = sub(c, f.c);
  return -add(mul(add(mul(dx, dx), mul(dy, dy)), inv2ss), mul(mul(dc, dc), inv2sc));
}

/// True when the flow (u, v) of pixel (x, y) passes the change test against I1 (w x h).
FT_FLOW_HD bool feat_unchanged(const float* i1, int w, int h, int x, int y, float c, float u,
                               float v, float threshold) {
  return !(absf(sub(bilinear(i1, w, h, add(float(x), u), add(float(y), v)), c)) > threshold);
}

/// Method 1, one feature's term of the weighted sums: weight exp(e_i - emax) into sw, its
/// flow times the weight into su, sv (features in index order give the reference's sums).
FT_FLOW_HD void feat_accumulate(const Feature& f, int x, int y, float c, float inv2ss, float inv2sc,
                                float emax, float* sw, float* su, float* sv) {
  const float wt =
      exp_neg(sub(feat_log_likelihood(f, float(x), float(y), c, inv2ss, inv2sc), emax));
  *sw = add(*sw, wt);
  *su = add(*su, mul(wt, f.u));
  *sv = add(*sv, mul(wt, f.v));
}

/// Method 1 at pixel (x, y) of intensity c: the likelihood-weighted mean of the n features'
/// flows (eq. 4). The weights are exp(e_i - max e) (the common factor cancels; the sum
/// cannot underflow). Writes (u, v); (0, 0) without features.
FT_FLOW_HD void feat_interpolate(const Feature* fs, int n, int x, int y, float c, float inv2ss,
                                 float inv2sc, float* u, float* v) {
  float emax = -3.0e38f;
  for (int i = 0; i < n; ++i) {
    const float e = feat_log_likelihood(fs[i], float(x), float(y), c, inv2ss, inv2sc);
    if (e > emax) emax = e;
  }
  float sw = 0.f, su = 0.f, sv = 0.f;
  for (int i = 0; i < n; ++i) feat_accumulate(fs[i], x, y, c, inv2ss, inv2sc, emax, &sw, &su, &sv);
  *u = n > 0 ? div(su, sw) : 0.f;
  *v = n > 0 ? div(sv, sw) : 0.f;
}

/// Scores of one pixel's hypotheses in a plain array: element k at p[k].
struct FeatScores {
  float* p;
  FT_FLOW_HD float& operator()(int k) const { return p[k]; }
};

/// Method 2, feature i's vote for every hypothesis of one pixel: a = exp(e_i - emax) (no vote
/// below `cutoff`), scores(k nv + j) += a fu[i nu + k] fv[i nv + j].
template <class S>
FT_FLOW_HD void feat_vote(const Feature& f, int i, int x, int y, float c, float inv2ss,
                          float inv2sc, float emax, float cutoff, const float* fu, const float* fv,
                          int nu, int nv, const S& scores) {
  const float a = exp_neg(sub(feat_log_likelihood(f, float(x), float(y), c, inv2ss, inv2sc), emax));
  if (a < cutoff) return;
  for (int k = 0; k < nu; ++k) {
    const float au = mul(a, fu[i * nu + k]);
    for (int j = 0; j < nv; ++j)
      scores(k * nv + j) = add(scores(k * nv + j), mul(au, fv[i * nv + j]));
  }
}

/// Method 2's test (algorithm 2, steps 4-5): the `tested` most likely of the nu nv
/// hypotheses (u0 + k step, v0 + j step) in order (ties: lower index); the first that passes
/// the change test is taken (true); when none does, the most likely (false). Overwrites the
/// tested scores with -1.
template <class S>
FT_FLOW_HD bool feat_select(const S& scores, int nu, int nv, float u0, float v0, float step,
                            int tested, const float* i1, int w, int h, int x, int y, float c,
                            float threshold, float* u, float* v) {
  for (int t = 0; t < tested && t < nu * nv; ++t) {
    int best = 0;
    for (int k = 1; k < nu * nv; ++k)
      if (scores(k) > scores(best)) best = k;
    const float hu = add(u0, mul(float(best / nv), step));
    const float hv = add(v0, mul(float(best % nv), step));
    if (t == 0) {
      *u = hu;
      *v = hv;
    }
    if (feat_unchanged(i1, w, h, x, y, c, hu, hv, threshold)) {
      *u = hu;
      *v = hv;
      return true;
    }
    scores(best) = -1.f;  // tested: below every score
  }
  return false;
}

/// Method 2 at pixel (x, y) of intensity c (algorithm 2). The hypotheses are (u0 + k step,
/// v0 + j step), k < nu, j < nv; fu[i * nu + k] = exp(-(u0 + k step - u_i)^2 / (2 s_f^2)) and
/// fv likewise (the flow part of the 7-D likelihood, separable in u and v; per frame, not per
/// pixel). Features whose weight exp(e_i - max e) is below `cutoff` do not vote. scores:
/// scratch of nu * nv floats. Returns feat_select's answer.
FT_FLOW_HD bool feat_hypotheses(const Feature* fs, int n, const float* fu, const float* fv, int nu,
                                int nv, float u0, float v0, float step, int x, int y, float c,
                                float inv2ss, float inv2sc, float cutoff, int tested,
                                const float* i1, int w, int h, float threshold, float* scores,
                                float* u, float* v) {
  for (int k = 0; k < nu * nv; ++k) scores[k] = 0.f;
  float emax = -3.0e38f;
  for (int i = 0; i < n; ++i) {
    const float e = feat_log_likelihood(fs[i], float(x), float(y), c, inv2ss, inv2sc);
    if (e > emax) emax = e;
  }
  const FeatScores s{scores};
  for (int i = 0; i < n; ++i)
    feat_vote(fs[i], i, x, y, c, inv2ss, inv2sc, emax, cutoff, fu, fv, nu, nv, s);
  return feat_select(s, nu, nv, u0, v0, step, tested, i1, w, h, x, y, c, threshold, u, v);
}

}  // namespace ftflow
