// Test-only: reading back the files the report tests write.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace flowtune::test {

/// The whole content of the file at `p` ("" if it cannot be opened).
inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

}  // namespace flowtune::test
