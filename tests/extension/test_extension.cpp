// A strategy and a workload added in their own files (toy_strategy.cpp, toy_workload.cpp),
// run through `tune` end to end in tune_with_toys; the production `tune` knows neither.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "db/repository.hpp"

namespace fs = std::filesystem;
using namespace flowtune;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Extension : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_ext_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Runs exe with args; returns its exit code, its output in out_.
  int run(const std::string& exe, const std::string& args) {
    const fs::path log = dir_ / "out.txt";
    const int rc = std::system((exe + " " + args + " > " + log.string() + " 2>&1").c_str());
    out_ = read(log);
    return WEXITSTATUS(rc);
  }
  // The config keys of the measurements of db, in the order they were measured.
  static std::vector<std::string> measured_keys(const std::string& db) {
    std::vector<db::MeasuredConfig> m = db::Repository(db).measured("host");
    std::sort(m.begin(), m.end(),
              [](const auto& a, const auto& b) { return a.measurement_id < b.measurement_id; });
    std::vector<std::string> keys;
    for (const db::MeasuredConfig& mc : m) keys.push_back(mc.config.key);
    return keys;
  }
  fs::path dir_;
  std::string out_;
};

TEST_F(Extension, ToyStrategyAndToyWorkloadRunThroughTuneEndToEnd) {
  const std::string rev = (dir_ / "rev.db").string(), fwd = (dir_ / "fwd.db").string();
  const std::string common = "--board host --workload toy --max-rounds 0 --in-process --db ";
  ASSERT_EQ(run(FLOWTUNE_TOYS_TUNE_EXE, common + rev + " --strategy reverse_order"), 0) << out_;
  ASSERT_EQ(run(FLOWTUNE_TOYS_TUNE_EXE, common + fwd + " --strategy brute_force"), 0) << out_;
  // 2 unroll values x 4 values of x, each measured once, in reverse enumeration order.
  std::vector<std::string> r = measured_keys(rev), f = measured_keys(fwd);
  ASSERT_EQ(r.size(), 8u);
  std::reverse(f.begin(), f.end());
  EXPECT_EQ(r, f);
  // The workload's metric as the hand-computed (x - 3)^2.
  for (const db::MeasuredConfig& mc : db::Repository(rev).measured("host")) {
    const double x = mc.config.params.at("x");
    EXPECT_EQ(mc.measurement.metric("sq_error"), (x - 3) * (x - 3)) << mc.config.key;
  }
}

TEST_F(Extension, ToyStrategyRunsInAnIsolatedWorkerProcessToo) {
  const std::string db = (dir_ / "w.db").string();
  ASSERT_EQ(run(FLOWTUNE_TOYS_TUNE_EXE,
                "--board host --workload toy --max-rounds 0 --strategy reverse_order --db " + db),
            0)
      << out_;
  EXPECT_EQ(measured_keys(db).size(), 8u);
}

TEST_F(Extension, TheProductionTuneHasNeitherToy) {
  EXPECT_NE(run(FLOWTUNE_TUNE_EXE, "--board host --workload toy --db " + (dir_ / "a.db").string()),
            0);
  EXPECT_NE(out_.find("unknown workload 'toy'"), std::string::npos) << out_;
  EXPECT_NE(run(FLOWTUNE_TUNE_EXE,
                "--board host --strategy reverse_order --db " + (dir_ / "b.db").string()),
            0);
  EXPECT_NE(out_.find("unknown strategy 'reverse_order'"), std::string::npos) << out_;
}

}  // namespace
