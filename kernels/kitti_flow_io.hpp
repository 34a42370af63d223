// KITTI 2015 optical-flow PNG files (Menze and Geiger, CVPR 2015; the devkit's io_flow.h).
#pragma once

#include <string>

#include "kernels/image.hpp"
#include "kernels/image_limits.hpp"

namespace flowtune {

/// The flow value of an invalid KITTI pixel as read_kitti_flow_png stores it (the Middlebury
/// "unknown" convention, > 1e9: !is_known_flow).
inline constexpr float kUnknownFlow = 1e10f;

/// Reads a KITTI flow file: a 16-bit RGB PNG with u = (R - 2^15) / 64, v = (G - 2^15) / 64 in
/// pixels and B = validity (0: no ground truth). Invalid pixels get u = v = kUnknownFlow.
/// Shape: the PNG's width x height, checked against limits.max_pixels before any pixel memory
/// is allocated. Throws std::runtime_error "<path>: <problem>" for a missing or unreadable
/// file, a file that is not a PNG, a PNG that is not 16-bit RGB ("... is 8-bit gray, a KITTI
/// flow file is a 16-bit RGB PNG"), corrupt data, or an image over the limit.
FlowField read_kitti_flow_png(const std::string& path, const ImageLimits& limits);
/// As above with default_image_limits() (kernels/image_limits.hpp).
FlowField read_kitti_flow_png(const std::string& path);

/// Writes `flow` as a KITTI flow file (format above): pixels with a known vector
/// (is_known_flow) get B = 1 and R, G = round(64 u + 2^15), round(64 v + 2^15) clamped to
/// [0, 65535]; unknown pixels R = G = B = 0. Throws std::invalid_argument for an empty or
/// inconsistent field, std::runtime_error "<path>: ..." when the file cannot be written.
void write_kitti_flow_png(const std::string& path, const FlowField& flow);

}  // namespace flowtune
