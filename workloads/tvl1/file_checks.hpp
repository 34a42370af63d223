// Whether a path names a folder or a file, for the dataset readers' searches: an unreadable or
// missing path is neither (no exception), and the reader then says what it did not find.
#pragma once

#include <filesystem>
#include <system_error>

namespace flowtune {

/// True when `p` is an existing directory (false on any error).
inline bool is_dir(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p, ec);
}

/// True when `p` is an existing regular file (false on any error).
inline bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

}  // namespace flowtune
