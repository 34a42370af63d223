// The model's command-line edges: --prior and --calibrate-from refuse bad input with a clear
// message and a non-zero exit, before anything is built or tuned.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "db/repository.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

TEST(PredictCli, UnknownPriorIsAUsageError) {
  const fs::path db = fs::temp_directory_path() / ("flowtune_prior_" + std::to_string(getpid()));
  const test::TuneResult r =
      test::run_tune("--board host --prior bogus --db " + db.string() + ".db");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--prior: estimate or predict, got 'bogus'"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(db.string() + ".db"));
}

TEST(PredictCli, CalibrateFromADbWithoutTheBoardSaysSoAndFails) {
  const fs::path db =
      fs::temp_directory_path() / ("flowtune_calfrom_" + std::to_string(getpid()) + ".db");
  fs::remove(db);
  { db::Repository repo(db.string()); }  // the schema, no measurement
  const test::TuneResult r = test::run_tune("predict --board agx --calibrate-from " + db.string() +
                                            " --out " + db.string() + ".json");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("holds no measurement of tvl1 on board agx"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(db.string() + ": nothing to calibrate board agx from"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(db.string() + ".json"));
  fs::remove(db);
}

}  // namespace
}  // namespace flowtune
