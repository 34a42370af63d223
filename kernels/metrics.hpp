// Optical-flow accuracy metrics of the Middlebury benchmark (Baker et al., IJCV 2011).
#pragma once

#include <cstddef>

#include "kernels/image.hpp"

namespace flowtune {

/// True when a ground-truth flow vector is known: both components finite and |u|, |v| <= 1e9
/// (the Middlebury .flo convention stores unknown flow as 1e10-ish values or NaN).
bool is_known_flow(float u, float v);

/// Average endpoint error and average angular error over the pixels with known ground truth.
struct FlowError {
  double aepe;          ///< mean of sqrt((u-u_gt)^2 + (v-v_gt)^2), pixels
  double aae_deg;       ///< mean angle between (u, v, 1) and (u_gt, v_gt, 1), degrees
  std::size_t n_valid;  ///< pixels with known ground truth (the denominator of both means)
};

/// AEPE and AAE (Baker et al. 2011, eq. 1 and 2; ../shared/data/README.md):
///   AEPE = mean sqrt((u-u_gt)^2 + (v-v_gt)^2),
///   AAE = mean arccos((1 + u u_gt + v v_gt) / sqrt((1+u^2+v^2)(1+u_gt^2+v_gt^2))) in degrees,
/// over the pixels where is_known_flow(u_gt, v_gt); the arccos argument is clamped to [-1, 1]
/// against rounding. Sums in double, over fixed chunks of pixels in parallel (OpenMP) and then in
/// chunk order, so the result does not depend on the number of threads. Throws
/// std::invalid_argument if the two fields differ in shape (message gives both) or no ground-truth
/// pixel is known.
FlowError flow_error(const FlowField& estimate, const FlowField& ground_truth);

}  // namespace flowtune
