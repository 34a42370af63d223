// Test-only: reading back the files the board tests write or load.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace flowtune_test {

/// The whole content of the file at `path` ("" if it cannot be opened).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace flowtune_test
