// Test-only: reading back the files the command-line tests write.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace flowtune::test {

/// The whole content of the file at `p` ("" if it cannot be opened).
inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace flowtune::test
