// PNG input (to grayscale) and RGB output, through libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune {

/// Reads a PNG as a grayscale Image with float intensities in [0, 255].
/// Accepts gray, gray+alpha, RGB, RGBA and palette images of any bit depth (1..16); alpha
/// and transparency are ignored; 16-bit samples are scaled by 255/65535. Colour is converted
/// with the ITU-R BT.601 luma weights on the stored (gamma-encoded) values:
/// Y = 0.299 R + 0.587 G + 0.114 B. Shape: the PNG's width x height.
/// Throws std::runtime_error "<path>: <problem>" for a missing/unreadable file, a file that
/// is not a PNG, and corrupt or truncated data.
Image read_png_gray(const std::string& path);

/// Writes an 8-bit RGB PNG. rgb: width * height * 3 bytes, row-major, R G B interleaved.
/// Throws std::invalid_argument for a non-positive size or a buffer of the wrong length and
/// std::runtime_error "<path>: <problem>" when the file cannot be written.
void write_png_rgb(const std::string& path, int width, int height,
                   const std::vector<std::uint8_t>& rgb);

}  // namespace flowtune
