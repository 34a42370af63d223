#include "kernels/png_io.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "kernels/file_error.hpp"
#include "kernels/png_support.hpp"

namespace flowtune {

namespace {

// The setjmp rule of kernels/png_support.hpp holds for every function below that calls setjmp.
using png_support::FilePtr;
using png_support::PngError;
constexpr auto on_png_error = &png_support::on_error;
constexpr auto on_png_warning = &png_support::on_warning;

struct ReadHeader {
  png_uint_32 width = 0, height = 0;
  int color_type = 0;
  bool has_trns = false;
};

// Reads the signature-checked file up to the first IDAT: IHDR, PLTE and tRNS.
bool read_png_info(png_structp png, png_infop info, std::FILE* file, ReadHeader* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  // Skip every ancillary chunk but tRNS unread (text, ICC profiles, ...: nothing here uses
  // them). libpng would otherwise allocate (and zero) a buffer of the length a chunk header
  // declares before finding the file too short: a 106-byte file declaring a 1.7 GB tEXt
  // chunk took 1.7 GB and 3 s (found by tests/fuzz/fuzz_png).
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
  png_read_info(png, info);
  out->width = png_get_image_width(png, info);
  out->height = png_get_image_height(png, info);
  out->color_type = png_get_color_type(png, info);
  out->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  return true;
}

struct RowLayout {
  int channels = 0, bit_depth = 0, passes = 1;
  std::size_t rowbytes = 0;
};

// Sets up the transformations to 8- or 16-bit gray or RGB without alpha, decoded row by row
// (libpng de-interlaces: every pass delivers every row). libpng allocates its own row
// buffers here (png_read_update_info), so this runs only after the size budget is checked.
bool set_up_transforms(png_structp png, png_infop info, const ReadHeader& header, RowLayout* out) {
  if (setjmp(png_jmpbuf(png))) return false;
  const int depth = png_get_bit_depth(png, info);
  if (header.color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (header.color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  // png_set_palette_to_rgb also turns a tRNS chunk into an alpha channel: strip it too.
  if ((header.color_type & PNG_COLOR_MASK_ALPHA) || header.has_trns) png_set_strip_alpha(png);
  out->passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  out->channels = png_get_channels(png, info);
  out->bit_depth = png_get_bit_depth(png, info);
  out->rowbytes = png_get_rowbytes(png, info);
  return true;
}

// Adam7: the first row and column of each pass and their steps (PNG spec, sec. 8.2).
constexpr int kPassStartRow[7] = {0, 0, 4, 0, 2, 0, 1};
constexpr int kPassRowStep[7] = {8, 8, 8, 4, 4, 2, 2};
constexpr int kPassStartCol[7] = {0, 4, 0, 2, 0, 1, 0};
constexpr int kPassColStep[7] = {8, 8, 4, 4, 2, 2, 1};

struct RowJob {
  png_bytep row;  // one decoded row: width * channels samples of bytes_per_sample bytes
  float* out;     // the output image, width * height
  std::size_t width, height;
  int channels, bytes_per_sample, passes;
};

// Converts the pixels x = first, first + step, ... of a decoded row to gray floats.
void convert_row(const RowJob& job, std::size_t y, std::size_t first, std::size_t step) {
  const double scale = job.bytes_per_sample == 2 ? 255.0 / 65535.0 : 1.0;
  const std::size_t pixel_bytes = std::size_t(job.channels) * std::size_t(job.bytes_per_sample);
  float* dst = job.out + y * job.width;
  for (std::size_t x = first; x < job.width; x += step) {
    const png_byte* p = job.row + x * pixel_bytes;
    double s[3] = {0.0, 0.0, 0.0};  // channels is 1 or 3 (read_png); GCC 11 cannot see it
    for (int c = 0; c < job.channels; ++c) {
      const png_byte* b = p + c * job.bytes_per_sample;
      const unsigned v = job.bytes_per_sample == 2 ? (unsigned(b[0]) << 8) | b[1] : b[0];
      s[c] = double(v) * scale;
    }
    const double gray = job.channels == 1 ? s[0] : 0.299 * s[0] + 0.587 * s[1] + 0.114 * s[2];
    dst[x] = static_cast<float>(gray);
  }
}

// Decodes every row into job.row and converts it. For an interlaced image libpng is called
// passes * height times; each call writes only the pixels of that pass (png_read_row's
// `row` argument), which are converted at once, so one row buffer is enough.
bool read_png_rows(png_structp png, png_infop info, const RowJob* job) {
  if (setjmp(png_jmpbuf(png))) return false;
  for (int pass = 0; pass < job->passes; ++pass) {
    for (std::size_t y = 0; y < job->height; ++y) {
      png_read_row(png, job->row, nullptr);
      if (job->passes == 1) {
        convert_row(*job, y, 0, 1);
      } else if (y >= std::size_t(kPassStartRow[pass]) &&
                 (y - std::size_t(kPassStartRow[pass])) % std::size_t(kPassRowStep[pass]) == 0) {
        convert_row(*job, y, std::size_t(kPassStartCol[pass]), std::size_t(kPassColStep[pass]));
      }
    }
  }
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

}  // namespace

Image read_png_gray(const std::string& path) {
  return read_png_gray(path, default_image_limits());
}

Image read_png_gray(const std::string& path, const ImageLimits& limits) {
  FilePtr file = png_support::open_png_for_reading(path, "PNG file");

  PngError err;
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, on_png_error, on_png_warning);
  if (png == nullptr) throw_file_error(path, "libpng could not allocate a read struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* png;
    png_infop* info;
    ~Guard() { png_destroy_read_struct(png, info, nullptr); }
  } guard{&png, &info};
  if (info == nullptr) throw_file_error(path, "libpng could not allocate an info struct");

  ReadHeader header;
  if (!read_png_info(png, info, file.get(), &header))
    throw_file_error(path, std::string("corrupt PNG header: ") + err.message);
  // The budget, from the IHDR alone, before libpng or this function allocates any row.
  const std::uint64_t pixels = std::uint64_t(header.width) * header.height;
  if (pixels > limits.max_pixels)
    throw_file_error(path, "image of " + std::to_string(header.width) + "x" +
                               std::to_string(header.height) + " = " + std::to_string(pixels) +
                               " pixels exceeds the limit of " + std::to_string(limits.max_pixels) +
                               " pixels (--max-pixels)");

  RowLayout layout;
  if (!set_up_transforms(png, info, header, &layout))
    throw_file_error(path, std::string("corrupt PNG header: ") + err.message);
  const int channels = layout.channels;
  const int bytes_per_sample = layout.bit_depth == 16 ? 2 : 1;
  if ((channels != 1 && channels != 3) || (layout.bit_depth != 8 && layout.bit_depth != 16))
    throw_file_error(path, "unsupported PNG layout (" + std::to_string(channels) + " channels, " +
                               std::to_string(layout.bit_depth) + " bits)");
  const std::size_t w = header.width, h = header.height;
  if (layout.rowbytes != w * std::size_t(channels) * std::size_t(bytes_per_sample))
    throw_file_error(path, "unexpected PNG row size");

  Image out(static_cast<int>(w), static_cast<int>(h));
  std::vector<png_byte> row(layout.rowbytes);
  const RowJob job{row.data(), out.data.data(), w, h, channels, bytes_per_sample, layout.passes};
  if (!read_png_rows(png, info, &job))
    throw_file_error(path, std::string("corrupt or truncated PNG data: ") + err.message);
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
  if (!file)
    throw_file_error(path, std::string("cannot open for writing: ") + std::strerror(errno));

  PngError err;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, on_png_error, on_png_warning);
  if (png == nullptr) throw_file_error(path, "libpng could not allocate a write struct");
  png_infop info = png_create_info_struct(png);
  struct Guard {
    png_structp* png;
    png_infop* info;
    ~Guard() { png_destroy_write_struct(png, info); }
  } guard{&png, &info};
  if (info == nullptr) throw_file_error(path, "libpng could not allocate an info struct");

  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (std::size_t y = 0; y < rows.size(); ++y)
    rows[y] = const_cast<png_bytep>(rgb.data() + y * std::size_t(width) * 3);
  if (!write_png_rows(png, info, file.get(), png_uint_32(width), png_uint_32(height), rows.data()))
    throw_file_error(path, std::string("PNG write failed: ") + err.message);
  if (std::fflush(file.get()) != 0 || std::ferror(file.get()))
    throw_file_error(path, std::string("write error: ") + std::strerror(errno));
  if (std::fclose(file.release()) != 0)
    throw_file_error(path, std::string("close failed: ") + std::strerror(errno));
}

}  // namespace flowtune

namespace flowtune {

std::vector<std::uint8_t> encode_png_rgb(int width, int height,
                                         const std::vector<std::uint8_t>& rgb) {
  if (width < 1 || height < 1)
    throw std::invalid_argument("cannot encode a " + std::to_string(width) + "x" +
                                std::to_string(height) + " PNG");
  if (rgb.size() != std::size_t(width) * std::size_t(height) * 3)
    throw std::invalid_argument("RGB buffer has " + std::to_string(rgb.size()) +
                                " bytes, expected " +
                                std::to_string(std::size_t(width) * std::size_t(height) * 3));
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = png_uint_32(width);
  image.height = png_uint_32(height);
  image.format = PNG_FORMAT_RGB;
  // One compression pass into a buffer of libpng's upper bound (a first call that asks for the
  // size would compress twice); PNG_IMAGE_FLAG_FAST picks zlib's fast settings: the tuner
  // encodes pictures of every measured point, where a few bytes matter less than milliseconds.
  image.flags = PNG_IMAGE_FLAG_FAST;
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(image);
  std::vector<std::uint8_t> out(size);
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, rgb.data(), 0, nullptr))
    throw std::runtime_error(std::string("PNG encoding failed: ") + image.message);
  out.resize(size);
  return out;
}

RgbImage decode_png_rgb(const std::vector<std::uint8_t>& png) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size()))
    throw std::runtime_error(std::string("PNG in memory: ") + image.message);
  const std::size_t pixels = std::size_t(image.width) * std::size_t(image.height);
  if (pixels > default_image_limits().max_pixels) {
    png_image_free(&image);
    throw std::runtime_error("PNG in memory: image of " + std::to_string(pixels) +
                             " pixels exceeds the limit");
  }
  image.format = PNG_FORMAT_RGB;
  RgbImage out;
  out.width = int(image.width);
  out.height = int(image.height);
  out.rgb.resize(pixels * 3);
  if (!png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr))
    throw std::runtime_error(std::string("PNG in memory: ") + image.message);
  return out;
}

}  // namespace flowtune
