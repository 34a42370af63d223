// Test-only: a temporary folder name of the running test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace flowtune::test {

/// <system temp>/<prefix>_<pid>_<test name>, '/' of parameterised names replaced by '_'. The
/// folder is neither created nor removed here.
inline std::filesystem::path per_test_dir(const std::string& prefix) {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& c : name)
    if (c == '/') c = '_';
  return std::filesystem::temp_directory_path() /
         (prefix + "_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace flowtune::test
