#include "kernels/localflow/pyramid.hpp"

#include <stdexcept>
#include <string>

#include "kernels/cuda/flow_core.cuh"

namespace flowtune::localflow {

std::vector<Image> build_pyramid(const Image& frame, int levels) {
  if (levels < 1)
    throw std::invalid_argument("build_pyramid: levels must be >= 1, got " +
                                std::to_string(levels));
  if (frame.width <= 0 || frame.height <= 0 ||
      frame.size() != std::size_t(frame.width) * frame.height)
    throw std::invalid_argument("build_pyramid: empty or malformed frame");
  std::vector<Image> out{frame};
  for (int l = 1; l < levels; ++l) {
    const Image& fine = out.back();
    Image coarse(ftflow::half_size(fine.width), ftflow::half_size(fine.height));
    for (int y = 0; y < coarse.height; ++y)
      for (int x = 0; x < coarse.width; ++x)
        coarse.at(x, y) = ftflow::downsample_at(fine.data.data(), fine.width, fine.height, x, y);
    out.push_back(std::move(coarse));
  }
  return out;
}

void check_frame_pair(const Image& i0, const Image& i1, const char* who) {
  if (i0.width <= 0 || i0.height <= 0)
    throw std::invalid_argument(std::string(who) + ": empty frame");
  if (i0.width != i1.width || i0.height != i1.height)
    throw std::invalid_argument(std::string(who) + ": frames of different sizes (" +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height) +
                                " vs " + std::to_string(i1.width) + "x" +
                                std::to_string(i1.height) + ")");
}

}  // namespace flowtune::localflow
