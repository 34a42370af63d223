// CPU reference of pyramidal block matching (Marras et al. sec. 3.2; the rules are stated in
// kernels/cuda/bm_core.cuh, which this reference and the CUDA kernel share).
#pragma once

#include <optional>
#include <string>

#include "kernels/image.hpp"

namespace flowtune::localflow {

/// Parameters of block matching (the "bm" workload's schema, workloads/bm/).
struct BmParams {
  int levels = 4;      ///< pyramid levels, >= 1 (level 0 = the frame)
  int block = 8;       ///< block side in pixels, >= 2
  int radius = 4;      ///< search radius in pixels of each level around the prediction, >= 1
  int similarity = 0;  ///< ftflow::BmSimilarity: 0 NCC, 1 SAD, 2 SSD
  int subpixel = 1;    ///< 1: parabola refinement of the best candidate, 0: integer flow
};

/// nullopt when p is valid, else the reason ("block=1 < 2").
std::optional<std::string> bm_params_invalid_reason(const BmParams& p);

/// The flow of I0 -> I1 (same size, gray [0, 255]) by pyramidal block matching, as the
/// bilinear interpolation of block flows (bm_core.cuh). Shapes: output width x height of
/// the frames, pixels. Throws std::invalid_argument for frames of different sizes or
/// invalid parameters.
FlowField block_matching(const Image& i0, const Image& i1, const BmParams& p);

}  // namespace flowtune::localflow
