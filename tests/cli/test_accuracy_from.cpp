// `tune --accuracy-from`: a run on another store's accuracy times only the points whose
// accuracy the table does not rule out, stores nothing of the others, and checks the table
// against what it measured; a store that cannot give accuracy stops the run before it begins.
// The deterministic measurer of tests/doubles (tune_with_test_measurer) stands in for the
// board: its AEPE depends on the config alone, as the numerics contract says the real one
// depends on the parameters and the precision.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "db/repository.hpp"
#include "tests/cli/test_files.hpp"

namespace fs = std::filesystem;
using namespace flowtune;

namespace {

class CliAccuracyFrom : public ::testing::Test {
 protected:
  void SetUp() override {
    std::error_code ec;
    if (!fs::exists(FLOWTUNE_TEST_MEASURER_EXE, ec))
      GTEST_SKIP() << "no " << FLOWTUNE_TEST_MEASURER_EXE;
    dir_ = fs::temp_directory_path() / ("flowtune_accuracy_from_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // `tune` over 16 host points (lambda varies, one kernel set) into db, plus extra; the exit
  // code, the output in out_.
  int tune(const std::string& db, const std::string& extra) {
    const std::string cmd = std::string("FLOWTUNE_TEST_FAKE_MEASURE=0 ") +
                            FLOWTUNE_TEST_MEASURER_EXE + " --board host --db " + db + " --data " +
                            FLOWTUNE_TEST_REPO_DATA +
                            "/middlebury --items RubberWhale --variant kokkos_global "
                            "--tunable tile_x=32 --tunable tile_y=4 --no-default-dimensions "
                            "--param lambda=0.01:0.4:lin:16 --strategy brute_force " +
                            extra + " >" + (dir_ / "out").string() + " 2>&1";
    const int rc = WEXITSTATUS(std::system(cmd.c_str()));
    out_ = test::read(dir_ / "out");
    return rc;
  }
  // AEPE by config key of every measurement of db.
  static std::map<std::string, double> aepe_of(const std::string& db) {
    std::map<std::string, double> out;
    for (const db::MeasuredConfig& mc : db::Repository(db).measured("host"))
      out[mc.config.key] = mc.measurement.metrics.at("aepe");
    return out;
  }
  fs::path dir_;
  std::string out_;
};

TEST_F(CliAccuracyFrom, TimesOnlyWhatTheTableDoesNotRuleOut) {
  const std::string source = (dir_ / "source.db").string(), board = (dir_ / "board.db").string();
  ASSERT_EQ(tune(source, ""), 0) << out_;
  const std::map<std::string, double> table = aepe_of(source);
  ASSERT_EQ(table.size(), 16u);
  std::vector<double> values;
  for (const auto& [key, v] : table) values.push_back(v);
  std::sort(values.begin(), values.end());
  const double bound = values[7];  // 8 of 16 at or under it
  std::size_t expected = 0;
  for (double v : values)
    if ((v - bound) / bound <= 0.01) ++expected;
  ASSERT_EQ(tune(board, "--accuracy-from " + source +
                            " --objective time --max aepe=" + std::to_string(bound)),
            0)
      << out_;
  const std::map<std::string, double> timed = aepe_of(board);
  EXPECT_EQ(timed.size(), expected) << out_;
  for (const auto& [key, v] : timed) EXPECT_LE((table.at(key) - bound) / bound, 0.01) << key;
  EXPECT_NE(out_.find("accuracy table: 16 keys"), std::string::npos) << out_;
  EXPECT_NE(out_.find(std::to_string(16 - expected) + " points not timed"), std::string::npos)
      << out_;
  // The measurer is deterministic: the board's AEPE equals the table's on every timed point.
  EXPECT_NE(out_.find(std::to_string(expected) + " of " + std::to_string(expected) +
                      " measured points of host have a key of the table, differing from it by "
                      "at most 0% in "),
            std::string::npos)
      << out_;
  EXPECT_NE(out_.find(", 0% in aepe"), std::string::npos) << out_;
  // The same rule in `tune replay`: brute force over the source's 16 points, one seed, evaluates
  // only the points the table does not rule out.
  const std::string cmd = std::string(FLOWTUNE_TEST_MEASURER_EXE) + " replay --db " + source +
                          " --accuracy-from " + source +
                          " --strategy brute_force --seeds 1 --budget 100% --objectives time_ms "
                          "--max aepe=" +
                          std::to_string(bound) + " --csv " + (dir_ / "replay.csv").string() +
                          " >" + (dir_ / "out").string() + " 2>&1";
  ASSERT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0) << test::read(dir_ / "out");
  out_ = test::read(dir_ / "out");
  EXPECT_NE(out_.find("16 of the recording's 16 measured points have a key of it"),
            std::string::npos)
      << out_;
  const std::string csv = test::read(dir_ / "replay.csv");
  EXPECT_NE(csv.find(",cost_to_within_s,not_timed\n"), std::string::npos) << csv;
  // The row: brute_force,1,16,<evaluations>,...,<not timed>.
  EXPECT_NE(csv.find("brute_force,1,16," + std::to_string(expected) + ","), std::string::npos)
      << csv;
  EXPECT_EQ(csv.substr(csv.rfind(',') + 1), std::to_string(16 - expected) + "\n") << csv;
}

TEST_F(CliAccuracyFrom, AStoreWithoutTheDatasetStopsTheRunBeforeItBegins) {
  const std::string board = (dir_ / "board.db").string();
  EXPECT_EQ(tune(board, "--accuracy-from " + (dir_ / "missing.db").string()), 2);
  EXPECT_NE(out_.find("missing.db: no such file"), std::string::npos) << out_;
  const std::string other = (dir_ / "other.db").string();
  ASSERT_EQ(tune(other, "--max-evals 1"), 0) << out_;
  const std::string cmd = std::string("FLOWTUNE_TEST_FAKE_MEASURE=0 ") +
                          FLOWTUNE_TEST_MEASURER_EXE + " --board host --db " + board + " --data " +
                          FLOWTUNE_TEST_REPO_DATA +
                          "/middlebury --items Grove2 --variant kokkos_global --tunable tile_x=32 "
                          "--tunable tile_y=4 --no-default-dimensions --accuracy-from " +
                          other + " >" + (dir_ / "out").string() + " 2>&1";
  EXPECT_NE(WEXITSTATUS(std::system(cmd.c_str())), 0);
  out_ = test::read(dir_ / "out");
  EXPECT_NE(out_.find(other + ": no measurement of workload tvl1 on dataset"), std::string::npos)
      << out_;
  EXPECT_FALSE(fs::exists(board)) << out_;
}

}  // namespace
