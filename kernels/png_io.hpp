// PNG input (to grayscale) and RGB output, through libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "kernels/image_limits.hpp"

namespace flowtune {

/// Reads a PNG as a grayscale Image with float intensities in [0, 255].
/// Accepts gray, gray+alpha, RGB, RGBA and palette images of any bit depth (1..16); alpha
/// and transparency are ignored; 16-bit samples are scaled by 255/65535. Colour is converted
/// with the ITU-R BT.601 luma weights on the stored (gamma-encoded) values:
/// Y = 0.299 R + 0.587 G + 0.114 B. Shape: the PNG's width x height.
/// Throws std::runtime_error "<path>: <problem>" for a missing/unreadable file, a directory,
/// a file that is not a PNG, and corrupt or truncated data.
///
/// Size budget: the IHDR's width x height is checked against limits.max_pixels before any
/// pixel memory is allocated; over it, throws std::runtime_error
/// "<path>: image of WxH = N pixels exceeds the limit of M pixels (--max-pixels)".
/// Each side is also limited to libpng's default of 1000000. Rows are decoded one at a time
/// (interlaced images pass by pass) into a single row buffer, so the peak memory of a read
/// is the output Image (4 bytes per pixel) plus about two rows of the file.
Image read_png_gray(const std::string& path, const ImageLimits& limits);
/// As above with default_image_limits() (kernels/image_limits.hpp).
Image read_png_gray(const std::string& path);

/// Writes an 8-bit RGB PNG. rgb: width * height * 3 bytes, row-major, R G B interleaved.
/// Throws std::invalid_argument for a non-positive size or a buffer of the wrong length and
/// std::runtime_error "<path>: <problem>" when the file cannot be written.
void write_png_rgb(const std::string& path, int width, int height,
                   const std::vector<std::uint8_t>& rgb);

}  // namespace flowtune
