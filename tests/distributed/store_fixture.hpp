// Test fixture of tests/distributed: one test over one store kind, the test parameter
// ("sqlite" or "postgresql").
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "db/repository.hpp"
#include "tests/db/postgres_server.hpp"

namespace flowtune::test {

/// A temporary folder of the test's own (under the system's temporary directory, named
/// prefix_<pid>_<suffix>_<store kind>), with a PostgreSQL server started in it when the
/// parameter is "postgresql" (the test is skipped, with the reason, where the build or the
/// machine has none). The folder is removed when the test passes and kept, its path printed,
/// when it fails.
class StoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  /// Call first in SetUp().
  void start(const std::string& prefix, const std::string& suffix = "") {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix + "_" + std::to_string(::getpid()) + (suffix.empty() ? "" : "_" + suffix) + "_" +
            GetParam());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    if (GetParam() == "postgresql") {
      if (!db::postgresql_supported()) GTEST_SKIP() << "this build has no PostgreSQL store";
      server_ = std::make_unique<PostgresServer>(dir_ / "pg");
      if (!server_->available()) GTEST_SKIP() << server_->why_not();
    }
  }
  void TearDown() override {
    server_.reset();
    if (HasFailure())
      std::cerr << "logs kept in " << dir_ << '\n';
    else
      std::filesystem::remove_all(dir_);
  }
  /// A fresh store for this test: an SQLite file in the folder, or a new PostgreSQL database.
  std::string store(const std::string& name) {
    if (server_) return server_->create_database(name);
    return (dir_ / (name + ".db")).string();
  }

  std::filesystem::path dir_;
  std::unique_ptr<PostgresServer> server_;
};

}  // namespace flowtune::test
