// The inner loops of the SIMD CPU variants of the local flow workloads (bm_simd, lk_simd),
// vectorised with Google Highway and dispatched at run time to the best SIMD target compiled
// in (kernels/simd/localflow_simd_rows.cpp). Every lane runs the float operations of the
// scalar reference (kernels/cuda/bm_core.cuh bm_cost, lk_core.cuh lk_refine) in the same
// order, so a lane's result has the reference's bits (the file is compiled without FMA
// contraction).
#pragma once

#include <cstdint>
#include <string>

namespace flowtune {
namespace simd_localflow {

/// The candidates of one block of pyramidal block matching (Marras et al. sec. 3.2), one
/// lane per horizontal displacement. `block` is the block of I0, bw x bh floats, row-major
/// (stride bw). `window` is I1 around the block's prediction, read clamp-to-edge:
/// window[row * stride + col] = I1(clamp(x0 + pu - radius + col), clamp(y0 + pv - radius +
/// row)), bh + 2 radius rows; stride >= bw + 2 radius + max_lanes() (the last vector of a
/// row may read past the candidates, never past the row).
struct BmBlockCosts {
  const float* block;
  int bw, bh;
  const float* window;
  int stride;
  int radius;      ///< R >= 1: (2R + 1)^2 candidates
  int similarity;  ///< ftflow::BmSimilarity: 0 NCC, 1 SAD, 2 SSD
  /// Output: costs[k], k = dy * (2R + 1) + dx for the displacement (dx - R, dy - R): SAD,
  /// SSD or -NCC as ftflow::bm_cost computes them (sums row by row, left to right), bit for
  /// bit.
  float* costs;
};

/// Fills q.costs (see BmBlockCosts). `target` (every function here): Highway's bit of the
/// SIMD target to run (compiled in and supported here: simd_tvl1::target_supported), 0 for
/// the dynamic dispatch's best.
void bm_block_costs(const BmBlockCosts& q, std::int64_t target = 0);

/// One row y of dense Lucas-Kanade refinement (Lucas and Kanade 1981; Bouguet 2000 sec. 2,
/// eq. 17-28; the rule of ftflow::lk_refine), one lane per pixel. The planes i0, gx, gy
/// (I0 and its central-difference derivatives) are padded by r clamped columns each side:
/// plane[cy * padded_width + c + r] = P(clamp(c, 0, w - 1), cy), padded_width = w + 2r.
/// col[c + r] = float(clamp(c, 0, w - 1)). i1 is the w x h plane of I1 (bilinear reads).
struct LkRow {
  const float* i0;
  const float* gx;
  const float* gy;
  const float* col;
  int padded_width;
  const float* i1;
  int w, h, y;
  int r;            ///< window radius, window side 2r + 1 <= ftflow::kLkMaxWindow
  const float* g;   ///< the 2r + 1 separable weights (lk_window_taps)
  float min_eigen;  ///< kLkMinEigen times the weight sum, as lk_refine computes it
  int iterations;
  const float* u0;  ///< initial flow of row y (w values each)
  const float* v0;
  float* u;  ///< refined flow of row y
  float* v;
};

/// Refines the pixels [0, n) of row.y, n = the largest multiple of the vector lanes <= w, and
/// returns n; the caller refines the rest with ftflow::lk_refine (the same bits).
int lk_refine_row(const LkRow& row, std::int64_t target = 0);

/// The vector of `target`, in floats (window padding of BmBlockCosts): with target 0 the
/// dispatch's best, the widest supported here.
int max_lanes(std::int64_t target = 0);

/// The name of the target whose code the functions given `target` run (e.g. "AVX2").
std::string running_target(std::int64_t target);

}  // namespace simd_localflow
}  // namespace flowtune
