// The main job within a time budget: `tune --time-budget` stops cleanly, keeps every measured
// row and resumes; `--objective` with `--max-*` constraints prints the pick and the export
// command, checked against the DB (the fastest measured config within the bound).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cli/cli.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "tests/cli/test_files.hpp"
#include "tuner/tune_run.hpp"

namespace fs = std::filesystem;
using namespace flowtune;

namespace {

using flowtune::test::read;

class TimeBudget : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_budget_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "t.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  // `tune` on 6 host configs of RubberWhale (200 ms to 3 s each here) plus extra args.
  int tune(const std::string& extra) {
    const std::string cmd = std::string(FLOWTUNE_TUNE_EXE) + " --board host --db " + db_ +
                            " --data " + FLOWTUNE_TEST_REPO_DATA +
                            "/middlebury --sequences RubberWhale --variant kokkos_global"
                            " --tunable tile_x=32 --tunable tile_y=4 --no-default-dimensions"
                            " --param n_warpings=1,5 --param iterations=20,100,200"
                            " --max-rounds 0 " +
                            extra + " > " + (dir_ / "out.txt").string() + " 2>&1";
    const int rc = std::system(cmd.c_str());
    out_ = read(dir_ / "out.txt");
    return WEXITSTATUS(rc);
  }
  fs::path dir_;
  std::string db_, out_;
};

TEST_F(TimeBudget, ASpentBudgetStopsCleanlyAndTheSameCommandResumesExactlyOnce) {
  // 4 s: the set-up and the first points fit (a point that would end past it is not started).
  ASSERT_EQ(tune("--time-budget 4s"), 0) << out_;
  EXPECT_NE(out_.find("time budget spent"), std::string::npos) << out_;
  const std::size_t first = db::Repository(db_).measured("host").size();
  EXPECT_GE(first, 1u);
  EXPECT_LT(first, 6u) << out_;
  ASSERT_EQ(tune("--time-budget 0"), 0) << out_;
  const std::vector<db::MeasuredConfig> all = db::Repository(db_).measured("host");
  std::set<std::string> keys;
  for (const db::MeasuredConfig& mc : all) keys.insert(mc.config.key);
  EXPECT_EQ(all.size(), 6u);
  EXPECT_EQ(keys.size(), 6u);  // none measured twice
  EXPECT_NE(out_.find(std::to_string(first) + " already in the DB"), std::string::npos) << out_;
}

TEST_F(TimeBudget, ObjectiveAndConstraintPrintThePickAndTheExportCommand) {
  ASSERT_EQ(tune("--time-budget 0 --objective time --max-aepe 0.22"), 0) << out_;
  // The oracle: the fastest measured config with aepe <= 0.22, from the DB.
  const db::MeasuredConfig* best = nullptr;
  const std::vector<db::MeasuredConfig> all = db::Repository(db_).measured("host");
  for (const db::MeasuredConfig& mc : all)
    if (mc.measurement.metric("aepe") <= 0.22 &&
        (!best || mc.measurement.time_ms_median < best->measurement.time_ms_median))
      best = &mc;
  ASSERT_NE(best, nullptr);
  // The space leaves median_window at its default, 5, which the row stores (unlike its absent
  // value 0).
  EXPECT_EQ(best->config.params.at("median_window"), 5);
  const std::string params =
      "iterations=" + std::to_string(int(best->config.params.at("iterations"))) +
      " lambda=0.15 median_window=5 n_scales=0 n_warpings=" +
      std::to_string(int(best->config.params.at("n_warpings")));
  const auto pick = out_.find("pick (time, aepe <= 0.22): ");
  ASSERT_NE(pick, std::string::npos) << out_;
  EXPECT_NE(out_.find(params, pick), std::string::npos) << params << "\n" << out_;
  EXPECT_NE(out_.find("deploy it: tune export --board host --db " + db_ +
                      " --objective time --max aepe=0.22 -o tuned_host.h"),
            std::string::npos)
      << out_;
}

TEST_F(TimeBudget, ExportWithoutFlagsPicksWhatTheRunWasAskedFor) {
  ASSERT_EQ(tune("--time-budget 0 --objective time --max-aepe 0.22 --max-evals 6"), 0) << out_;
  const std::vector<db::MeasuredConfig> all = db::Repository(db_).measured("host");
  const db::MeasuredConfig* best = nullptr;
  for (const db::MeasuredConfig& mc : all)
    if (mc.measurement.metric("aepe") <= 0.22 &&
        (!best || mc.measurement.time_ms_median < best->measurement.time_ms_median))
      best = &mc;
  ASSERT_NE(best, nullptr);
  const std::string header = (dir_ / "t.h").string();
  const std::string cmd = std::string(FLOWTUNE_TUNE_EXE) + " export --board host --db " + db_ +
                          " -o " + header + " > " + (dir_ / "e.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read(dir_ / "e.txt");
  EXPECT_NE(read(dir_ / "e.txt").find("(--objective time --max aepe=0.22)"), std::string::npos)
      << read(dir_ / "e.txt");
  EXPECT_NE(read(header).find("//   config key     : " + best->config.key), std::string::npos)
      << read(header);
}

TEST(TimeBudgetOptions, DurationsAndTheAutoStrategyByHand) {
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "90"), 90);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "90s"), 90);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "10m"), 600);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "1.5h"), 5400);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "0"), 0);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "1h30m"), 5400);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "8m40s"), 520);
  EXPECT_EQ(cli::parse_duration_s("--time-budget", "2h0.5m"), 7230);
  for (const char* bad :
       {"", "m", "-1m", "5x", "10 m", "nan", "1h30", "30m1h", "1m1m", "1m-5s", "inf", "1e400s"})
    EXPECT_THROW(cli::parse_duration_s("--time-budget", bad), cli::UsageError) << bad;
  EXPECT_EQ(choose_strategy("auto", 256, 2), "brute_force");
  EXPECT_EQ(choose_strategy("auto", 257, 2), "additive_surrogate");
  EXPECT_EQ(choose_strategy("auto", 38016, 1), "additive_surrogate");
  EXPECT_EQ(choose_strategy("auto", std::size_t(1) << 24, 2), "additive_surrogate");
  EXPECT_EQ(choose_strategy("auto", (std::size_t(1) << 24) + 1, 2), "kernel_staged");
  EXPECT_EQ(choose_strategy("bayes_opt", 10, 1), "bayes_opt");
}

}  // namespace
