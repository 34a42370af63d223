// The error of the image and flow file readers and writers: the file's path, then the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace flowtune {

/// Throws std::runtime_error("<path>: <problem>"), the message of every reader and writer of
/// kernels/png_io.hpp and kernels/flo_io.hpp (callers print it as it is).
[[noreturn]] inline void throw_file_error(const std::string& path, const std::string& problem) {
  throw std::runtime_error(path + ": " + problem);
}

}  // namespace flowtune
