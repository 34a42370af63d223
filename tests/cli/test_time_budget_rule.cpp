// The time budget's rule (tuner/time_budget.hpp) against hand-computed values, and `tune`
// with the deterministic measurer of tests/doubles: a short time budget ends within 5%,
// points that do not fit are not started, and a point past the budget is cancelled, never
// recorded as failed, and measured by the resumed run.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "db/repository.hpp"
#include "tests/cli/test_files.hpp"
#include "tests/localflow/localflow_test_data.hpp"
#include "tuner/time_budget.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

TEST(TimeBudgetRule, PointTimeFromTheMeasuredPointsElseThePrior) {
  PointTimeEstimate none;
  EXPECT_FALSE(none.seconds(1));
  PointTimeEstimate prior(0.5);  // 0.5 s per cost unit
  ASSERT_TRUE(prior.seconds(4));
  EXPECT_DOUBLE_EQ(*prior.seconds(4), 2);
  // Observed: 3 s for cost 1 and 9 s for cost 3; below 3 points the prior still counts.
  prior.observe(1, 3);
  prior.observe(3, 9);
  EXPECT_DOUBLE_EQ(*prior.seconds(2), 1);
  // A first point's 40 s (the measuring process's start, its builds) is an outlier: the
  // median of 3, 3 and 40 s per unit is 3, the prior no longer counts.
  prior.observe(1, 40);
  EXPECT_DOUBLE_EQ(*prior.seconds(2), 6);
  EXPECT_DOUBLE_EQ(*prior.seconds(0), 3);  // no cost model: cost 1
  prior.observe(1, 5);                     // 3, 3, 5, 40: the median is 4
  EXPECT_DOUBLE_EQ(*prior.seconds(1), 4);
  PointTimeEstimate observed;
  observed.observe(1, 2);
  observed.observe(1, 2);
  EXPECT_FALSE(observed.seconds(1));  // no prior, 2 points: none yet
}

TEST(TimeBudgetRule, APointStartsOnlyWhenItFinishesInTheTimeLeft) {
  // Points measure within 98% of a 20 s budget: until 19.6 s.
  EXPECT_DOUBLE_EQ(kTimeBudgetPointsFraction, 0.98);
  EXPECT_TRUE(point_fits_time_budget(10, 20, 9.6));   // ends at 19.6 s: exactly in time
  EXPECT_FALSE(point_fits_time_budget(10, 20, 9.7));  // would end at 19.7 s
  EXPECT_TRUE(point_fits_time_budget(1000, 0, 1e9));  // no time budget
  // Without an estimate a point starts while the budget lasts; cancelling bounds it.
  EXPECT_TRUE(point_fits_time_budget(19.5, 20, std::nullopt));
  EXPECT_FALSE(point_fits_time_budget(19.6, 20, std::nullopt));
  EXPECT_FALSE(past_time_budget(19.59, 20));
  EXPECT_TRUE(past_time_budget(19.6, 20));
  EXPECT_FALSE(past_time_budget(1e9, 0));
}

using test::read;

class TuneTimeBudget : public ::testing::Test {
 protected:
  void SetUp() override {
    std::error_code ec;
    if (!fs::exists(FLOWTUNE_TEST_MEASURER_EXE, ec))
      GTEST_SKIP() << "no " << FLOWTUNE_TEST_MEASURER_EXE;
    dir_ = fs::temp_directory_path() /
           ("flowtune_budget_rule_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "t.db").string();
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // `tune` over 40 host points whose fake measurement sleeps sleep_ms; the wall time in s.
  double tune(int sleep_ms, const std::string& extra) {
    const std::string cmd = "FLOWTUNE_TEST_FAKE_MEASURE=" + std::to_string(sleep_ms) + " " +
                            FLOWTUNE_TEST_MEASURER_EXE + " --board host --db " + db_ + " --data " +
                            test::repo_middlebury_dir() +
                            " --items RubberWhale --variant kokkos_global --tunable tile_x=32 "
                            "--tunable tile_y=4 --no-default-dimensions --param "
                            "lambda=0.01:0.4:lin:40 --strategy brute_force " +
                            extra + " >" + (dir_ / "out").string() + " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    rc_ = WEXITSTATUS(std::system(cmd.c_str()));
    out_ = read(dir_ / "out");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  fs::path dir_;
  std::string db_, out_;
  int rc_ = -1;
};

// 40 points of 250 ms each (lambda moves no cost: each costs the same) take 10 s and more;
// the 4 s budget stops the run within 5% of it (the process from start to exit), and not
// before the last point that fits.
TEST_F(TuneTimeBudget, AShortTimeBudgetEndsWithinFivePercent) {
  const double wall_s = tune(250, "--time-budget 4s");
  ASSERT_EQ(rc_, 0) << out_;
  EXPECT_LE(wall_s, 4 * 1.05) << out_;
  EXPECT_GE(wall_s, 4 - 2 * 0.25 - 0.3) << out_;
  EXPECT_NE(out_.find("time budget spent"), std::string::npos) << out_;
  const std::size_t measured = db::Repository(db_).measured("host").size();
  EXPECT_GE(measured, 4u) << out_;
  EXPECT_LT(measured, 40u) << out_;
  // Lines name the varying parameter only, never the fixed ones (they are the header's).
  EXPECT_NE(out_.find("% lambda=0.01: "), std::string::npos) << out_;
  const std::size_t lines = out_.find("[1/40]"), end = out_.find("time budget spent");
  ASSERT_LT(lines, end) << out_;
  EXPECT_EQ(out_.substr(lines, end - lines).find("iterations="), std::string::npos) << out_;
  EXPECT_NE(out_.find("budget left: "), std::string::npos) << out_;
}

// A point longer than the whole budget: started (nothing measured gives an estimate), then
// cancelled at the budget, recorded neither as measured nor as failed; the run ends within
// 5% and exits 0. In this process (the cancellation flag) and in the worker process.
TEST_F(TuneTimeBudget, APointPastTheBudgetIsCancelledNotFailed) {
  for (const std::string mode : {"--in-process", ""}) {
    fs::remove(db_);
    const double wall_s = tune(20000, "--time-budget 5s --max-evals 1 " + mode);
    EXPECT_EQ(rc_, 0) << mode << "\n" << out_;
    EXPECT_LE(wall_s, 5 * 1.05) << mode << "\n" << out_;
    EXPECT_NE(out_.find("cancelled at the time budget"), std::string::npos) << mode << "\n" << out_;
    const db::Repository repo(db_, db::OpenMode::read_only);
    EXPECT_EQ(repo.measured("host").size(), 0u) << out_;
    EXPECT_EQ(repo.failures("host").size(), 0u) << out_;
  }
  // Resumed with a budget that fits, the cancelled point is measured.
  tune(10, "--time-budget 0 --max-evals 1");
  EXPECT_EQ(rc_, 0) << out_;
  EXPECT_EQ(db::Repository(db_).measured("host").size(), 1u) << out_;
}

// The run's last activity line: the shares of the wall clock add up to 100% (rounding aside),
// the measuring share is at least the sleeps' (12 points of 200 ms in the worker process) over
// the process's wall time, and the rate lies between 12 points over that wall time and one
// point per 200 ms.
TEST_F(TuneTimeBudget, TheWallClockSharesAddUpAndTheRateIsThePoints) {
  const double wall_s = tune(200, "--max-evals 12");
  ASSERT_EQ(rc_, 0) << out_;
  const std::size_t at = out_.find("the wall clock: measuring ");
  ASSERT_NE(at, std::string::npos) << out_;
  int measuring = -1, builds = -1, idle = -1;
  double rate = -1;
  ASSERT_EQ(std::sscanf(out_.c_str() + at,
                        "the wall clock: measuring %d%%, waiting for builds %d%%, otherwise idle "
                        "%d%%, %lf points/s",
                        &measuring, &builds, &idle, &rate),
            4)
      << out_.substr(at, 200);
  EXPECT_NEAR(measuring + builds + idle, 100, 2) << out_.substr(at, 200);
  EXPECT_GE(measuring, int(100 * 12 * 0.2 / wall_s) - 1)
      << wall_s << " s: " << out_.substr(at, 200);
  EXPECT_LE(rate, 1 / 0.2 + 0.05) << out_.substr(at, 200);
  EXPECT_GE(rate, 12 / wall_s - 0.05) << wall_s << " s: " << out_.substr(at, 200);
}

}  // namespace
}  // namespace flowtune
