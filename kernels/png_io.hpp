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

/// An 8-bit RGB image: width * height * 3 bytes, row-major, R G B interleaved.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

/// The bytes of an 8-bit RGB PNG file of rgb (width * height * 3 bytes, row-major), encoded
/// in memory (libpng's simplified API). Throws std::invalid_argument for a non-positive size
/// or a buffer of the wrong length, std::runtime_error when libpng fails.
std::vector<std::uint8_t> encode_png_rgb(int width, int height,
                                         const std::vector<std::uint8_t>& rgb);

/// Decodes the bytes of a PNG file held in memory into 8-bit RGB (any PNG colour type;
/// alpha is dropped, composited on black). Throws std::runtime_error "PNG in memory:
/// <problem>" for data that is not a PNG, corrupt data, or an image over
/// default_image_limits().max_pixels.
RgbImage decode_png_rgb(const std::vector<std::uint8_t>& png);

}  // namespace flowtune
