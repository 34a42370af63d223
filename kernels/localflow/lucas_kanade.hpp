// CPU reference of pyramidal dense Lucas-Kanade (Marras et al. sec. 3.3 with Bouguet's
// iterative refinement; the rules are stated in kernels/cuda/lk_core.cuh, which this
// reference and the CUDA kernels share).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune::localflow {

/// Parameters of dense Lucas-Kanade (the "lk" workload's schema, workloads/lk/).
struct LkParams {
  int levels = 3;      ///< pyramid levels, >= 1
  int window = 9;      ///< window side 2r + 1, odd, in [3, 15]
  int iterations = 3;  ///< refinements (warp I1, solve) per level, >= 1
  int weighting = 0;   ///< 0: box, 1: Gaussian (lk_gaussian_taps)
};

/// nullopt when p is valid, else the reason ("window=8 is even").
std::optional<std::string> lk_params_invalid_reason(const LkParams& p);

/// The separable weights g[0 .. window-1] of the window: all 1 (box), or the Gaussian
/// exp(-i^2 / (2 s^2)), i = -r..r, s = 0.3 (r - 1) + 0.8 (OpenCV's getGaussianKernel rule
/// for a kernel of side 2r + 1), centre tap 1,
/// computed in double, rounded to float once. Throws std::invalid_argument for invalid p.
std::vector<float> lk_window_taps(const LkParams& p);

/// How the planes of every level (I0, I1, Ix, Iy) are stored: float, or IEEE binary16
/// (precision "f16": rounded by ftflow::half_bits, the derivatives computed from the stored
/// I0; the arithmetic stays float).
enum class LkStorage { f32, f16 };

/// The flow of I0 -> I1 (same size, gray [0, 255]) by pyramidal dense Lucas-Kanade.
/// Output: width x height of the frames, pixels. Throws std::invalid_argument for frames of
/// different sizes or invalid parameters.
FlowField lucas_kanade(const Image& i0, const Image& i1, const LkParams& p,
                       LkStorage storage = LkStorage::f32);

}  // namespace flowtune::localflow
