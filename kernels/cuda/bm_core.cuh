// Pyramidal block matching (Marras et al., "Two examples of GPGPU acceleration of
// memory-intensive algorithms", sec. 3.2): the per-block arithmetic shared by the CPU
// reference (kernels/localflow/block_matching.cpp) and the CUDA kernel (bm_match.cuh).
//
// At each level (coarsest first) the frame I0 is cut into non-overlapping B x B blocks
// (the last row and column of blocks may be smaller). Block (bx, by) is matched to I1 at the
// (2R + 1)^2 integer displacements p + (dx, dy), |dx|, |dy| <= R, around its prediction p
// (bm_prediction: twice the coarser level's flow at the block's centre, rounded; 0 at the
// coarsest level). Similarity (bm_cost, lower is better): SAD, SSD or -NCC (Marras eq. in
// sec. 3.2 without the 1/(n-1): the Pearson correlation of the two blocks, 0 when either is
// flat). I1 is read clamp-to-edge. The best candidate is the least cost, ties broken by the
// smaller |d|^2 then the scan index (a total order: any reduction order picks the same one).
// Optional sub-pixel refinement: a parabola through the costs of the neighbours in x and in
// y (offset clamped to [-0.5, 0.5]; none at the window's edge or for a non-convex triple).
//
// Per-pixel rule (propagation of the block result): the flow of pixel (x, y) is the
// bilinear interpolation of the block flows, each block's flow placed at its centre of the
// uniform B-grid, ((bx + 0.5) B - 0.5, (by + 0.5) B - 0.5), clamped at the borders
// (bm_dense_at). The prediction of a block at the next finer level reads this field.
#pragma once

#include "flow_core.cuh"

namespace ftflow {

/// Similarity measures of the "similarity" parameter.
enum BmSimilarity { kBmNcc = 0, kBmSad = 1, kBmSsd = 2 };

/// Blocks per row/column of a level of side n: ceil(n / block).
FT_FLOW_HD int bm_blocks(int n, int block) {
  return (n + block - 1) / block;
}

/// Cost of one candidate. i0(lx, ly): I0 at block-local (lx, ly) in [0, bw) x [0, bh);
/// i1(lx, ly): I1 at the block-local position displaced by the candidate (the accessor knows
/// the displacement). Sums run row by row, left to right. Lower is better.
template <class I0, class I1>
FT_FLOW_HD float bm_cost(const I0& i0, const I1& i1, int bw, int bh, int similarity) {
  if (similarity == kBmSad || similarity == kBmSsd) {
    float s = 0.f;
    for (int ly = 0; ly < bh; ++ly)
      for (int lx = 0; lx < bw; ++lx) {
        const float d = sub(i0(lx, ly), i1(lx, ly));
        s = add(s, similarity == kBmSad ? absf(d) : mul(d, d));
      }
    return s;
  }
  float s0 = 0.f, s1 = 0.f;
  for (int ly = 0; ly < bh; ++ly)
    for (int lx = 0; lx < bw; ++lx) {
      s0 = add(s0, i0(lx, ly));
      s1 = add(s1, i1(lx, ly));
    }
  const float n = float(bw * bh);
  const float m0 = div(s0, n), m1 = div(s1, n);
  float s01 = 0.f, s00 = 0.f, s11 = 0.f;
  for (int ly = 0; ly < bh; ++ly)
    for (int lx = 0; lx < bw; ++lx) {
      const float a = sub(i0(lx, ly), m0), b = sub(i1(lx, ly), m1);
      s01 = add(s01, mul(a, b));
      s00 = add(s00, mul(a, a));
      s11 = add(s11, mul(b, b));
    }
  if (!(s00 > 0.f) || !(s11 > 0.f)) return 0.f;
  return -div(s01, sqrt_rn(mul(s00, s11)));
}

/// True when candidate (cost a, displacement index ka) beats (cost b, index kb) in a window
/// of radius r: smaller cost, then smaller squared offset from the prediction, then index.
FT_FLOW_HD bool bm_better(float a, int ka, float b, int kb, int r) {
  if (a != b) return a < b;
  const int side = 2 * r + 1;
  const int ax = ka % side - r, ay = ka / side - r, bx = kb % side - r, by = kb / side - r;
  const int da = ax * ax + ay * ay, db = bx * bx + by * by;
  if (da != db) return da < db;
  return ka < kb;
}

/// Parabola vertex offset through (-1, cm), (0, c0), (1, cp), clamped to [-0.5, 0.5]; 0 when
/// the triple is not convex.
FT_FLOW_HD float bm_parabola(float cm, float c0, float cp) {
  const float denom = sub(add(cm, cp), mul(2.f, c0));
  if (!(denom > 0.f)) return 0.f;
  return clampf(div(sub(cm, cp), mul(2.f, denom)), -0.5f, 0.5f);
}

/// Flow of pixel (x, y) of a level from its block flows bu, bv (nbx x nby, block side
/// `block`): bilinear interpolation between block centres (the per-pixel rule above).
FT_FLOW_HD void bm_dense_at(const float* bu, const float* bv, int nbx, int nby, int block, int x,
                            int y, float* u, float* v) {
  const float fb = float(block);
  const float gx = sub(div(add(float(x), 0.5f), fb), 0.5f);
  const float gy = sub(div(add(float(y), 0.5f), fb), 0.5f);
  *u = bilinear(bu, nbx, nby, gx, gy);
  *v = bilinear(bv, nbx, nby, gx, gy);
}

/// Integer prediction of block (bx, by) of a level of w x h from the coarser level's block
/// flows cu, cv (cnbx x cnby; null at the coarsest level): twice the coarser per-pixel flow
/// (bm_dense_at) at the coarse pixel under the block's centre pixel, rounded half up.
FT_FLOW_HD void bm_prediction(const float* cu, const float* cv, int cnbx, int cnby, int cw, int ch,
                              int block, int w, int h, int bx, int by, int* pu, int* pv) {
  *pu = 0;
  *pv = 0;
  if (!cu) return;
  const int x0 = bx * block, y0 = by * block;
  const int x1 = x0 + block < w ? x0 + block : w, y1 = y0 + block < h ? y0 + block : h;
  const int cx = clampi((x0 + x1 - 1) / 2 / 2, 0, cw - 1);
  const int cy = clampi((y0 + y1 - 1) / 2 / 2, 0, ch - 1);
  float u = 0.f, v = 0.f;
  bm_dense_at(cu, cv, cnbx, cnby, block, cx, cy, &u, &v);
  *pu = int(floor_(add(mul(2.f, u), 0.5f)));
  *pv = int(floor_(add(mul(2.f, v), 0.5f)));
}

/// Index of the best of the (2r+1)^2 costs (bm_better order).
FT_FLOW_HD int bm_best(const float* costs, int r) {
  const int n = (2 * r + 1) * (2 * r + 1);
  int best = 0;
  for (int k = 1; k < n; ++k)
    if (bm_better(costs[k], k, costs[best], best, r)) best = k;
  return best;
}

/// The block's flow from its costs: prediction + best offset (+ parabola refinement when
/// subpixel != 0).
FT_FLOW_HD void bm_block_flow(const float* costs, int r, int pu, int pv, int subpixel, float* u,
                              float* v) {
  const int side = 2 * r + 1;
  const int k = bm_best(costs, r);
  const int ix = k % side, iy = k / side;
  float ox = 0.f, oy = 0.f;
  if (subpixel) {
    if (ix > 0 && ix < side - 1) ox = bm_parabola(costs[k - 1], costs[k], costs[k + 1]);
    if (iy > 0 && iy < side - 1) oy = bm_parabola(costs[k - side], costs[k], costs[k + side]);
  }
  *u = add(float(pu + ix - r), ox);
  *v = add(float(pv + iy - r), oy);
}

/// Reads a plane clamp-to-edge at block-local coordinates from origin (ox, oy).
struct BmClampedReader {
  const float* plane;
  int w, h, ox, oy;
  FT_FLOW_HD float operator()(int lx, int ly) const {
    return plane[clampi(oy + ly, 0, h - 1) * w + clampi(ox + lx, 0, w - 1)];
  }
};

}  // namespace ftflow
