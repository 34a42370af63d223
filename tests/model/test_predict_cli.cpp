// The model's command-line edges: --prior and --calibrate-from refuse bad input with a clear
// message and a non-zero exit, before anything is built or tuned.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "db/repository.hpp"
#include "tests/tuner/tune_process.hpp"
#include "variants/variant.hpp"

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

// The model does not cost the accuracy additions of the default dimensions: predict keeps them
// off unless --param asks, and says so. One kernel config of the global scheme x the 32
// parameter points of the other default dimensions; median_window 0, 5 asked: 64.
TEST(PredictCli, AccuracyAdditionsStayOffUnlessAskedFor) {
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  const fs::path out =
      fs::temp_directory_path() / ("flowtune_predict_add_" + std::to_string(getpid()) + ".json");
  const std::string space =
      "predict --board h200 --variant global --precision f32 --tunable block_x=32 --tunable "
      "block_y=8 --tunable resident_px=0 --tunable tiled_px=0 --tunable persistent_px=0 --out " +
      out.string();
  const test::TuneResult off = test::run_tune(space);
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("not costed by the model, kept off (--param to vary): median_window "
                            "nl_median_window texture_alpha rof_iterations"),
            std::string::npos)
      << off.output;
  // The default dimensions the model costs: iterations 10 x n_warpings 6 x zoom 9 x n_scales 7.
  EXPECT_NE(off.output.find("\n3780 configs, 3780 predicted"), std::string::npos) << off.output;
  const test::TuneResult asked = test::run_tune(space + " --param median_window=0,5");
  ASSERT_EQ(asked.exit_code, 0) << asked.output;
  EXPECT_NE(asked.output.find(
                "kept off (--param to vary): nl_median_window texture_alpha rof_iterations\n"),
            std::string::npos)
      << asked.output;
  EXPECT_NE(asked.output.find("\n7560 configs, 7560 predicted"), std::string::npos) << asked.output;
  // Without the default dimensions every parameter takes its default, but median_window's
  // (5) is an addition the model does not cost: off there too, the one config predicted
  // with median_window 0.
  const test::TuneResult plain = test::run_tune(space + " --no-default-dimensions");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("kept off (--param to vary): median_window nl_median_window "
                              "texture_alpha rof_iterations\n"),
            std::string::npos)
      << plain.output;
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j.at("configs").size(), 1u) << j.dump();
  EXPECT_EQ(j.at("configs")[0].at("params").at("median_window"), 0) << j.dump();
  fs::remove(out);
}

}  // namespace
}  // namespace flowtune
