#include "kernels/kitti_flow_io.hpp"

#include <png.h>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "kernels/metrics.hpp"
#include "kernels/png_support.hpp"

namespace flowtune {
namespace {

// The setjmp rule of kernels/png_support.hpp holds for every function below that calls setjmp.
using png_support::FilePtr;
using png_support::on_error;
using png_support::on_warning;
using png_support::PngError;

struct Header {
  png_uint_32 width = 0, height = 0;
  int color_type = 0, bit_depth = 0, interlace = 0;
};

bool read_header(png_structp png, png_infop info, std::FILE* file, Header* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
  png_read_info(png, info);
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  out->color_type = png_get_color_type(png, info);
  out->bit_depth = png_get_bit_depth(png, info);
  out->interlace = png_get_interlace_type(png, info);
  return true;
}

bool read_rows(png_structp png, png_infop info, std::vector<png_bytep>& rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_strip_alpha(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  return true;
}

bool write_rows(png_structp png, png_infop info, std::FILE* file, png_uint_32 width,
                png_uint_32 height, std::vector<png_bytep>& rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  return true;
}

std::string colour_text(int color_type, int bit_depth) {
  const char* kind = color_type == PNG_COLOR_TYPE_GRAY         ? "gray"
                     : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? "gray+alpha"
                     : color_type == PNG_COLOR_TYPE_PALETTE    ? "palette"
                     : color_type == PNG_COLOR_TYPE_RGB_ALPHA  ? "RGBA"
                                                               : "RGB";
  return std::to_string(bit_depth) + "-bit " + kind;
}

std::uint16_t encode(float value) {
  const double code = std::round(64.0 * double(value) + 32768.0);
  return std::uint16_t(code < 0 ? 0 : (code > 65535 ? 65535 : code));
}

}  // namespace

FlowField read_kitti_flow_png(const std::string& path, const ImageLimits& limits) {
  FilePtr file = png_support::open_png_for_reading(path, "KITTI flow file");
  PngError err;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, &on_error, &on_warning);
  if (!png) throw std::runtime_error(path + ": libpng could not start");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* p;
    png_infop* i;
    ~Guard() { png_destroy_read_struct(p, i, nullptr); }
  } guard{&png, &info};
  if (!info) throw std::runtime_error(path + ": libpng could not start");
  Header h;
  if (!read_header(png, info, file.get(), &h))
    throw std::runtime_error(path + ": corrupt PNG (" + err.message + ")");
  const bool rgb = h.color_type == PNG_COLOR_TYPE_RGB || h.color_type == PNG_COLOR_TYPE_RGB_ALPHA;
  if (!rgb || h.bit_depth != 16)
    throw std::runtime_error(path + ": is " + colour_text(h.color_type, h.bit_depth) +
                             ", a KITTI flow file is a 16-bit RGB PNG");
  const std::size_t pixels = std::size_t(h.width) * std::size_t(h.height);
  if (pixels > limits.max_pixels)
    throw std::runtime_error(path + ": flow field of " + std::to_string(h.width) + "x" +
                             std::to_string(h.height) + " = " + std::to_string(pixels) +
                             " pixels exceeds the limit of " + std::to_string(limits.max_pixels) +
                             " pixels (--max-pixels)");
  std::vector<png_byte> bytes(pixels * 6);
  std::vector<png_bytep> rows(h.height);
  for (png_uint_32 y = 0; y < h.height; ++y) rows[y] = bytes.data() + std::size_t(y) * h.width * 6;
  if (!read_rows(png, info, rows))
    throw std::runtime_error(path + ": corrupt PNG (" + err.message + ")");
  FlowField flow(int(h.width), int(h.height));
  for (std::size_t i = 0; i < pixels; ++i) {
    const png_byte* p = bytes.data() + i * 6;  // big-endian 16-bit samples (PNG order)
    const unsigned r = (unsigned(p[0]) << 8) | p[1], g = (unsigned(p[2]) << 8) | p[3];
    const unsigned b = (unsigned(p[4]) << 8) | p[5];
    if (b == 0) {
      flow.u[i] = flow.v[i] = kUnknownFlow;
    } else {
      flow.u[i] = float((double(r) - 32768.0) / 64.0);
      flow.v[i] = float((double(g) - 32768.0) / 64.0);
    }
  }
  return flow;
}

FlowField read_kitti_flow_png(const std::string& path) {
  return read_kitti_flow_png(path, default_image_limits());
}

void write_kitti_flow_png(const std::string& path, const FlowField& flow) {
  const std::size_t pixels = std::size_t(std::max(flow.width, 0)) * std::max(flow.height, 0);
  if (flow.width < 1 || flow.height < 1 || flow.u.size() != pixels || flow.v.size() != pixels)
    throw std::invalid_argument(path + ": empty or inconsistent flow field (" +
                                std::to_string(flow.width) + "x" + std::to_string(flow.height) +
                                ")");
  std::vector<png_byte> bytes(pixels * 6, 0);
  for (std::size_t i = 0; i < pixels; ++i) {
    if (!is_known_flow(flow.u[i], flow.v[i])) continue;
    const std::uint16_t s[3] = {encode(flow.u[i]), encode(flow.v[i]), 1};
    for (int c = 0; c < 3; ++c) {
      bytes[i * 6 + 2 * c] = png_byte(s[c] >> 8);
      bytes[i * 6 + 2 * c + 1] = png_byte(s[c] & 0xff);
    }
  }
  std::vector<png_bytep> rows(std::size_t(flow.height));
  for (int y = 0; y < flow.height; ++y) rows[y] = bytes.data() + std::size_t(y) * flow.width * 6;
  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (!file) throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
  PngError err;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, &on_error, &on_warning);
  if (!png) throw std::runtime_error(path + ": libpng could not start");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* p;
    png_infop* i;
    ~Guard() { png_destroy_write_struct(p, i); }
  } guard{&png, &info};
  if (!info) throw std::runtime_error(path + ": libpng could not start");
  if (!write_rows(png, info, file.get(), png_uint_32(flow.width), png_uint_32(flow.height), rows))
    throw std::runtime_error(path + ": cannot write PNG (" + err.message + ")");
  if (std::fflush(file.get()) != 0)
    throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
}

}  // namespace flowtune
