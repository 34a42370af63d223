// The image pyramid of the local flow workloads (block matching, Lucas-Kanade).
#pragma once

#include <vector>

#include "kernels/image.hpp"

namespace flowtune::localflow {

/// Pyramid of `levels` images (>= 1): level 0 is `frame`, level l + 1 has sides
/// ceil(side / 2) and each pixel the mean of its 2 x 2 parents (ftflow::downsample_at, a box
/// pyramid; Marras et al. sec. 3.2-3.3 resample by 2 per level). Throws
/// std::invalid_argument for levels < 1 or an empty frame.
std::vector<Image> build_pyramid(const Image& frame, int levels);

/// Checks a frame pair (same size, non-empty); throws std::invalid_argument naming `who`.
void check_frame_pair(const Image& i0, const Image& i1, const char* who);

}  // namespace flowtune::localflow
