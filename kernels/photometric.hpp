// Accuracy without ground truth: the photometric error of the warped second frame over the
// pixels a forward-backward consistency check keeps (occlusions and pixels leaving the frame
// excluded).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/image.hpp"

namespace flowtune {

/// 1 where x is visible in both frames by the forward-backward consistency test of Sundaram,
/// Brox and Keutzer ("Dense point trajectories by GPU-accelerated large displacement optical
/// flow", ECCV 2010, sec. 4.1), else 0: with w_f = forward(x) and w_b = backward(x + w_f)
/// (bilinear, kernels/bilinear.hpp), x is kept when x + w_f lies inside the frame
/// ([0, width - 1] x [0, height - 1]) and
///   |w_f + w_b|^2 <= 0.01 (|w_f|^2 + |w_b|^2) + 0.5.
/// forward: I0 -> I1, backward: I1 -> I0, both width x height (else std::invalid_argument
/// naming both shapes). Pixels whose forward vector is unknown (!is_known_flow) are 0.
Plane<std::uint8_t> forward_backward_visible(const FlowField& forward, const FlowField& backward);

/// The Charbonnier penalty's epsilon of photometric_error, in gray levels (Bruhn, Weickert,
/// Schnoerr, IJCV 2005, sec. 3: rho(s^2) = sqrt(s^2 + eps^2)).
inline constexpr double kPhotometricEpsilon = 1e-3;

/// Mean photometric error and the pixels it averages.
struct PhotometricError {
  double mean;           ///< gray levels ([0, 255] images)
  std::size_t n_pixels;  ///< pixels with visible[x] != 0 (the denominator)
};

/// The mean over pixels x with visible[x] != 0 of the Charbonnier penalty
///   sqrt(r^2 + eps^2),  r = I1(x + flow(x)) - I0(x),
/// eps = kPhotometricEpsilon, I1 sampled bilinearly with clamp-to-edge reads (a robust norm of
/// the brightness-constancy residual: Brox et al., ECCV 2004, eq. 5). Shapes: i0, i1, flow
/// and visible all width x height, else std::invalid_argument naming the shapes; throws
/// std::invalid_argument when no pixel is visible. Sums in double.
PhotometricError photometric_error(const Image& i0, const Image& i1, const FlowField& flow,
                                   const Plane<std::uint8_t>& visible);

}  // namespace flowtune
