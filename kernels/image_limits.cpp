#include "kernels/image_limits.hpp"

#include <atomic>

namespace flowtune {

namespace {
std::atomic<std::size_t> g_max_pixels{ImageLimits::kDefaultMaxPixels};
}  // namespace

ImageLimits default_image_limits() {
  ImageLimits limits;
  limits.max_pixels = g_max_pixels.load(std::memory_order_relaxed);
  return limits;
}

void set_default_image_limits(const ImageLimits& limits) {
  g_max_pixels.store(limits.max_pixels, std::memory_order_relaxed);
}

}  // namespace flowtune
