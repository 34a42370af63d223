// Middlebury .flo optical-flow files (Baker et al. 2011; flow-code by D. Scharstein, 2007).
#pragma once

#include <string>

#include "kernels/image.hpp"
#include "kernels/image_limits.hpp"

namespace flowtune {

/// Reads a .flo file: float32 tag 202021.25 ("PIEH"), int32 width, int32 height, then
/// width*height (u, v) float32 pairs, row-major, all little-endian. Unknown flow is kept as
/// stored (> 1e9 or NaN). Before allocating anything it validates the tag, width and height
/// >= 1, width*height <= limits.max_pixels and that the file size is exactly 12 + 8*W*H.
/// Throws std::runtime_error "<path>: <problem>" on any violation or read error, e.g.
/// "<path>: is a directory, not a .flo file" and, over the budget, "<path>: flow field of
/// WxH = N pixels exceeds the limit of M pixels (--max-pixels)". Peak memory: the FlowField
/// (8 bytes per pixel) plus a 512 KiB read buffer.
FlowField read_flo(const std::string& path, const ImageLimits& limits);
/// As above with default_image_limits() (kernels/image_limits.hpp).
FlowField read_flo(const std::string& path);

/// Writes `flow` as a .flo file (format above). Throws std::invalid_argument "<path>: ..."
/// for an empty or inconsistent field and std::runtime_error "<path>: ..." on write errors.
void write_flo(const std::string& path, const FlowField& flow);

}  // namespace flowtune
