// Small pictures of a computed flow next to its ground truth and its endpoint error, as the
// report shows them for the configs of a Pareto front (stored with the measurement).
#pragma once

#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {

/// One picture of flow_pictures: kind "flow", "ground_truth" or "endpoint_error"; scale_px
/// the flow magnitude (px) of full saturation for the two flows, the endpoint error (px)
/// shown white for the error picture.
struct FlowPicture {
  std::string kind;
  RgbImage image;
  double scale_px = 0;
};

/// The endpoint error (px) at and above which the error picture is white.
inline constexpr double kEndpointErrorWhitePx = 2.0;

/// The subsampling step of flow_pictures: ceil(max(width, height) / max_side), at least 1
/// (max_side <= 0 means 1).
int picture_step(int width, int height, int max_side);

/// Three pictures of `flow` against `truth` (same size, else std::invalid_argument), each of
/// ceil(width / s) x ceil(height / s) pixels with s = picture_step(width, height, max_side);
/// picture pixel (x, y) shows the flow pixel (min(x s + s/2, width-1), min(y s + s/2,
/// height-1)) (nearest sampling, no averaging):
///  - "flow": flow_color(u / R, v / R) (Middlebury colour wheel, Baker et al. 2011 fig. 2)
///    with R = flow_viz_radius(truth), the largest ground-truth radius, as Baker et al.
///    normalise; unknown computed vectors black;
///  - "ground_truth": the same for truth; pixels without ground truth (!is_known_flow) black;
///  - "endpoint_error": grey level round(255 min(1, EPE / kEndpointErrorWhitePx)) with EPE =
///    |flow - truth| (Baker et al. 2011, eq. 2, per pixel); pixels without ground truth
///    dark blue (0, 0, 160); white where the computed vector is unknown.
std::vector<FlowPicture> flow_pictures(const FlowField& flow, const FlowField& truth, int max_side);

}  // namespace flowtune
