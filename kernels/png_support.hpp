// What the libpng readers and writers of kernels/ share (kernels/png_io.cpp,
// kernels/kitti_flow_io.cpp): the error and warning handlers, the FILE guard and opening a PNG
// file for reading with its signature checked. Internal to kernels/.
//
// libpng reports errors by longjmp: the functions that call setjmp hold only trivially
// destructible locals and call nothing but libpng between setjmp and the jump, so no C++
// destructor is ever skipped; C++ objects (buffers, the FILE guard) live in their callers.
#pragma once

#include <png.h>

#include <cstdio>
#include <memory>
#include <string>

namespace flowtune::png_support {

/// libpng's last error message, filled by on_error (the error pointer of a png struct).
struct PngError {
  char message[256] = "unknown libpng error";
};

/// libpng's error handler: copies the message into the PngError of png_get_error_ptr, then
/// jumps back to the setjmp of the libpng call that failed.
void on_error(png_structp png, png_const_charp message);
/// libpng's warning handler: warnings are ignored (the readers check what they need).
void on_warning(png_structp png, png_const_charp message);

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

/// path opened for reading, positioned after its 8-byte PNG signature. Throws
/// std::runtime_error "<path>: is a directory, not a <what>", "<path>: cannot open: <errno
/// text>" or "<path>: not a PNG file (bad signature)".
FilePtr open_png_for_reading(const std::string& path, const std::string& what);

}  // namespace flowtune::png_support
