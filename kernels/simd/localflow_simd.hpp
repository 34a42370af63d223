// The local flow workloads on every core with SIMD: pyramidal block matching and dense
// pyramidal Lucas-Kanade (Marras et al., "Two examples of GPGPU acceleration of
// memory-intensive algorithms", sec. 3.2-3.3; Bouguet 2000 sec. 2), OpenMP threads over
// block rows / pixel rows, Google Highway SIMD in the inner loops
// (kernels/simd/localflow_simd_rows.hpp). Same rules, same float operations in the same
// order as the scalar references (kernels/localflow/block_matching.hpp, lucas_kanade.hpp):
// the flows are the references' bit for bit, for every thread count and SIMD target.
#pragma once

#include <cstdint>

#include "kernels/image.hpp"
#include "kernels/localflow/block_matching.hpp"
#include "kernels/localflow/lucas_kanade.hpp"

namespace flowtune {

/// localflow::block_matching(i0, i1, p) (gray [0, 255] frames of equal size; output width x
/// height, pixels) with `threads` OpenMP threads (>= 1) over the rows of blocks of each
/// level and the candidates of a block's row of displacements (dx = -R..R) in the SIMD lanes.
/// simd_target: Highway's bit of the SIMD target (as SimdSchedule::simd_target; 0 = the
/// dispatch's best; every target gives the same bits). Throws std::invalid_argument for
/// frames of different sizes, invalid parameters, threads < 1 or a SIMD target this build or
/// CPU cannot run.
FlowField block_matching_simd(const Image& i0, const Image& i1, const localflow::BmParams& p,
                              int threads, std::int64_t simd_target = 0);

/// localflow::lucas_kanade(i0, i1, p, LkStorage::f32) with `threads` OpenMP threads over the
/// pixel rows of each level and adjacent pixels of a row in the SIMD lanes (the pixels past
/// the last full vector of a row through ftflow::lk_refine itself). Throws
/// std::invalid_argument as block_matching_simd.
FlowField lucas_kanade_simd(const Image& i0, const Image& i1, const localflow::LkParams& p,
                            int threads, std::int64_t simd_target = 0);

}  // namespace flowtune
