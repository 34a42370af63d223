// Resource limits of the image and flow readers (kernels/png_io.hpp, kernels/flo_io.hpp).
#pragma once

#include <cstddef>

namespace flowtune {

/// How large an input the PNG and .flo readers accept. The readers check the header's
/// width x height against max_pixels BEFORE allocating anything, so a tiny file that
/// declares a huge image (a "decompression bomb") fails in microseconds with a few KiB of
/// memory instead of allocating gigabytes. Peak memory of a read is then the output (4 bytes
/// per pixel for an Image, 8 for a FlowField) plus one row of the file (PNG) or a 512 KiB
/// buffer (.flo), so max_pixels is also the byte budget: about 8 * max_pixels at most.
struct ImageLimits {
  /// 64 Mi pixels = 8192 x 8192 (256 MiB as a float Image, 512 MiB as a FlowField).
  static constexpr std::size_t kDefaultMaxPixels = std::size_t(1) << 26;
  /// Largest accepted width * height; 0 rejects every image.
  std::size_t max_pixels = kDefaultMaxPixels;
};

/// The process-wide limits used by read_png_gray(path) and read_flo(path) (the overloads
/// without an ImageLimits argument). Initially ImageLimits{} (kDefaultMaxPixels). The `tune`
/// CLI sets it once from --max-pixels at start-up; thread-safe (an atomic), so a later change
/// applies to reads that start after it.
ImageLimits default_image_limits();
void set_default_image_limits(const ImageLimits& limits);

}  // namespace flowtune
