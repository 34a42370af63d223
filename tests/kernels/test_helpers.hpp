// Shared helpers of the kernels tests: temporary paths and data locations.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace flowtune::test {

/// A fresh path under the system temp dir, removed (with what it names) on destruction.
class TempPath {
 public:
  explicit TempPath(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("flowtune_kernels_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline std::string shared_middlebury() {
  return std::string(FLOWTUNE_TEST_SHARED_DATA) + "/middlebury";
}
inline std::string repo_middlebury() {
  return std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury";
}

}  // namespace flowtune::test
