// The production `tune` has no test-only measurement switch: with the variable that the test
// binary tune_with_test_measurer reads (FLOWTUNE_TEST_FAKE_MEASURE), it measures for real.
// Oracle: the same config tuned without the variable (the CPU solver is deterministic, so
// the AEPE is equal), and the fake measurer's formula, which the figures must not follow.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "db/repository.hpp"

namespace fs = std::filesystem;
using namespace flowtune;

namespace {

// One kokkos_global config on RubberWhale, 1 scale x 1 warping x 5 iterations, into db.
int tune_one(const std::string& db, const std::string& env) {
  const std::string cmd = env + " " + std::string(FLOWTUNE_TUNE_EXE) + " --board host --db " + db +
                          " --data " + FLOWTUNE_TEST_REPO_DATA +
                          "/middlebury --sequences RubberWhale --variant kokkos_global"
                          " --tunable tile_x=32 --tunable tile_y=4 --no-default-dimensions"
                          " --param n_scales=1 --param n_warpings=1 --param iterations=5"
                          " --param epsilon=0 --max-rounds 0 > " +
                          db + ".log 2>&1";
  return std::system(cmd.c_str());
}

}  // namespace

TEST(ProductionTune, IgnoresTheTestMeasurerVariableAndMeasuresForReal) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_no_switch_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string with = (dir / "with.db").string(), without = (dir / "without.db").string();
  ASSERT_EQ(tune_one(with, "FLOWTUNE_TEST_FAKE_MEASURE=0"), 0);
  ASSERT_EQ(tune_one(without, "env -u FLOWTUNE_TEST_FAKE_MEASURE"), 0);
  const std::vector<db::MeasuredConfig> a = db::Repository(with).measured("host");
  const std::vector<db::MeasuredConfig> b = db::Repository(without).measured("host");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].measurement.metric("aepe"), b[0].measurement.metric("aepe"));
  // The fake would give a metric of the form k / 1000 and a single repeat of a whole
  // multiple of 10 us; the real RubberWhale AEPE of 5 iterations is above 0.2 px.
  EXPECT_GT(a[0].measurement.metric("aepe"), 0.2);
  const double milli = a[0].measurement.metric("aepe") * 1000;
  EXPECT_NE(milli, std::floor(milli));
  fs::remove_all(dir);
}
