// Middlebury .flo optical-flow files (Baker et al. 2011; flow-code by D. Scharstein, 2007).
#pragma once

#include <string>

#include "kernels/image.hpp"

namespace flowtune {

/// Reads a .flo file: float32 tag 202021.25 ("PIEH"), int32 width, int32 height, then
/// width*height (u, v) float32 pairs, row-major, all little-endian. Unknown flow is kept as
/// stored (> 1e9 or NaN). Validates the tag, 0 < width, height <= 1<<15 and
/// width*height <= 1<<28 before allocating, and that the file size is exactly 12 + 8*W*H.
/// Throws std::runtime_error "<path>: <problem>" on any violation or read error.
FlowField read_flo(const std::string& path);

/// Writes `flow` as a .flo file (format above). Throws std::invalid_argument "<path>: ..."
/// for an empty or inconsistent field and std::runtime_error "<path>: ..." on write errors.
void write_flo(const std::string& path, const FlowField& flow);

}  // namespace flowtune
