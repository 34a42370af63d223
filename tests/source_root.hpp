// The flowtune source tree as the running test finds it, not as the build host had it: a
// test binary copied to another machine (scripts/device-build) runs in a copy of the tree at
// another absolute path, so tests that hand source files to a compiler resolve them here.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#ifndef FLOWTUNE_TEST_SOURCE_DIR
#define FLOWTUNE_TEST_SOURCE_DIR ""
#endif

namespace flowtune::test {

/// The first of these folders that holds `relative` (e.g. "kernels/cuda/bm_match.cuh"):
/// $FLOWTUNE_SOURCE_DIR, the current directory and its parents, the folder of the test
/// executable and its parents, then the build host's source folder (FLOWTUNE_TEST_SOURCE_DIR).
/// Empty path when none holds it.
inline std::filesystem::path source_root_holding(const std::string& relative) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto holds = [&](const fs::path& dir) {
    return !dir.empty() && fs::exists(dir / relative, ec);
  };
  if (const char* env = std::getenv("FLOWTUNE_SOURCE_DIR"); env && holds(env)) return env;
  for (fs::path start : {fs::current_path(ec), fs::read_symlink("/proc/self/exe", ec)}) {
    for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
      if (holds(dir)) return dir;
      if (dir == dir.parent_path()) break;
    }
  }
  if (holds(FLOWTUNE_TEST_SOURCE_DIR)) return FLOWTUNE_TEST_SOURCE_DIR;
  return {};
}

}  // namespace flowtune::test
