// Optical-flow accuracy metrics of the Middlebury benchmark (Baker et al., IJCV 2011).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/image.hpp"

namespace flowtune {

/// True when a ground-truth flow vector is known: both components finite and |u|, |v| <= 1e9
/// (the Middlebury .flo convention stores unknown flow as 1e10-ish values or NaN). Inline: the
/// scoring and the pictures call it per pixel (a NaN fails both comparisons, an infinity the
/// bound, so the bound alone is the finiteness test).
inline bool is_known_flow(float u, float v) {
  return (u >= -1e9f && u <= 1e9f) && (v >= -1e9f && v <= 1e9f);
}

/// The pixels of `flow` whose vector is known (is_known_flow): 0 for a ground truth that could
/// score nothing.
std::size_t known_flow_pixels(const FlowField& flow);

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

/// The KITTI 2015 flow outlier rate Fl (Menze and Geiger, CVPR 2015, sec. 4; the devkit's
/// flow_error): the percentage of the pixels with known ground truth whose endpoint error is
/// > 3 px and > 5% of the ground-truth magnitude |(u_gt, v_gt)|. Fl-all when ground_truth
/// holds flow_occ (every valid pixel). Same shape and error rules as flow_error.
double kitti_outlier_percent(const FlowField& estimate, const FlowField& ground_truth);

/// The average endpoint error over the pixels with known ground truth and include[x] != 0
/// (MPI-Sintel's "EPE noc" with include = not occluded; Butler et al., ECCV 2012, sec. 5), as
/// aepe with the count as n_valid (aae_deg is not computed: 0). Throws std::invalid_argument for
/// shapes that differ (all three) or when no pixel is counted.
FlowError masked_endpoint_error(const FlowField& estimate, const FlowField& ground_truth,
                                const Plane<std::uint8_t>& include);
}  // namespace flowtune
