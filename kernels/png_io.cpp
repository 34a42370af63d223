#include "kernels/png_io.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace flowtune {

namespace {

// libpng reports errors by longjmp. The functions that call setjmp below hold only trivially
// destructible locals and call nothing but libpng between setjmp and the jump, so no C++
// destructor is ever skipped; C++ objects (buffers, the FILE guard) live in their callers.

struct PngError {
  char message[256] = "unknown libpng error";
};

void on_png_error(png_structp png, png_const_charp message) {
  auto* err = static_cast<PngError*>(png_get_error_ptr(png));
  if (err != nullptr) std::snprintf(err->message, sizeof err->message, "%s", message);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

struct ReadHeader {
  png_uint_32 width = 0, height = 0;
  int channels = 0, bit_depth = 0;
  std::size_t rowbytes = 0;
};

// Reads the header and sets up the transformations to 8- or 16-bit gray or RGB without alpha.
bool read_png_header(png_structp png, png_infop info, std::FILE* file, ReadHeader* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, 1u << 15, 1u << 15);  // reject absurd sizes before allocating
  png_read_info(png, info);
  const int color_type = png_get_color_type(png, info);
  const int depth = png_get_bit_depth(png, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (color_type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
  png_read_update_info(png, info);
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  out->channels = png_get_channels(png, info);
  out->bit_depth = png_get_bit_depth(png, info);
  out->rowbytes = png_get_rowbytes(png, info);
  return true;
}

bool read_png_rows(png_structp png, png_infop info, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, info);
  return true;
}

bool write_png_rows(png_structp png, png_infop info, std::FILE* file, png_uint_32 width,
                    png_uint_32 height, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw std::runtime_error(path + ": " + problem);
}

}  // namespace

Image read_png_gray(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) fail(path, std::string("cannot open: ") + std::strerror(errno));
  png_byte signature[8];
  if (std::fread(signature, 1, 8, file.get()) != 8 || png_sig_cmp(signature, 0, 8) != 0)
    fail(path, "not a PNG file (bad signature)");

  PngError err;
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, on_png_error, on_png_warning);
  if (png == nullptr) fail(path, "libpng could not allocate a read struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* png;
    png_infop* info;
    ~Guard() { png_destroy_read_struct(png, info, nullptr); }
  } guard{&png, &info};
  if (info == nullptr) fail(path, "libpng could not allocate an info struct");

  ReadHeader header;
  if (!read_png_header(png, info, file.get(), &header))
    fail(path, std::string("corrupt PNG header: ") + err.message);
  const int channels = header.channels;
  const int bytes_per_sample = header.bit_depth == 16 ? 2 : 1;
  if ((channels != 1 && channels != 3) || (header.bit_depth != 8 && header.bit_depth != 16))
    fail(path, "unsupported PNG layout (" + std::to_string(channels) + " channels, " +
                   std::to_string(header.bit_depth) + " bits)");
  const std::size_t w = header.width, h = header.height;
  if (header.rowbytes != w * std::size_t(channels) * bytes_per_sample)
    fail(path, "unexpected PNG row size");

  std::vector<png_byte> pixels(header.rowbytes * h);
  std::vector<png_bytep> rows(h);
  for (std::size_t y = 0; y < h; ++y) rows[y] = pixels.data() + y * header.rowbytes;
  if (!read_png_rows(png, info, rows.data()))
    fail(path, std::string("corrupt or truncated PNG data: ") + err.message);

  Image out(static_cast<int>(w), static_cast<int>(h));
  const double sample_scale = bytes_per_sample == 2 ? 255.0 / 65535.0 : 1.0;
  const png_byte* src = pixels.data();
  auto sample = [&](std::size_t index) {
    const png_byte* s = src + index * bytes_per_sample;
    const unsigned value = bytes_per_sample == 2 ? (unsigned(s[0]) << 8) | s[1] : s[0];
    return double(value) * sample_scale;
  };
  for (std::size_t i = 0; i < w * h; ++i) {
    double gray;
    if (channels == 1) {
      gray = sample(i);
    } else {
      gray = 0.299 * sample(3 * i) + 0.587 * sample(3 * i + 1) + 0.114 * sample(3 * i + 2);
    }
    out.data[i] = static_cast<float>(gray);
  }
  return out;
}

void write_png_rgb(const std::string& path, int width, int height,
                   const std::vector<std::uint8_t>& rgb) {
  if (width < 1 || height < 1)
    throw std::invalid_argument(path + ": cannot write a " + std::to_string(width) + "x" +
                                std::to_string(height) + " PNG");
  if (rgb.size() != std::size_t(width) * height * 3)
    throw std::invalid_argument(path + ": RGB buffer has " + std::to_string(rgb.size()) +
                                " bytes, expected " +
                                std::to_string(std::size_t(width) * height * 3));
  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (!file) fail(path, std::string("cannot open for writing: ") + std::strerror(errno));

  PngError err;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, on_png_error, on_png_warning);
  if (png == nullptr) fail(path, "libpng could not allocate a write struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* png;
    png_infop* info;
    ~Guard() { png_destroy_write_struct(png, info); }
  } guard{&png, &info};
  if (info == nullptr) fail(path, "libpng could not allocate an info struct");

  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (std::size_t y = 0; y < rows.size(); ++y)
    rows[y] = const_cast<png_bytep>(rgb.data() + y * std::size_t(width) * 3);
  if (!write_png_rows(png, info, file.get(), png_uint_32(width), png_uint_32(height), rows.data()))
    fail(path, std::string("PNG write failed: ") + err.message);
  if (std::fflush(file.get()) != 0 || std::ferror(file.get()))
    fail(path, std::string("write error: ") + std::strerror(errno));
  if (std::fclose(file.release()) != 0)
    fail(path, std::string("close failed: ") + std::strerror(errno));
}

}  // namespace flowtune
