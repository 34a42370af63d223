// The model's command-line edges: --prior and --calibrate-from refuse bad input with a clear
// message and a non-zero exit, before anything is built or tuned.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

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
  const test::TuneResult r = test::run_tune("predict --board agx-xavier --calibrate-from " +
                                            db.string() + " --out " + db.string() + ".json");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("holds no measurement of tvl1 on board agx-xavier"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(db.string() + ": nothing to calibrate board agx-xavier from"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(db.string() + ".json"));
  fs::remove(db);
}

// The model does not cost the accuracy additions of the default dimensions nor any parameter
// but iterations, n_scales, n_warpings and zoom: predict holds each such dimension at one value
// (the additions off unless --param asks) and says so. One kernel config of the global scheme
// x the 3780 points of the costed default dimensions (iterations 10 x n_warpings 6 x zoom 9 x
// n_scales 7); median_window 0, 5 asked: still 3780, median_window held at 0.
TEST(PredictCli, ParametersTheModelDoesNotCostAreHeldAtOneValue) {
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  const fs::path out =
      fs::temp_directory_path() / ("flowtune_predict_add_" + std::to_string(getpid()) + ".json");
  const std::string space =
      "predict --board h200 --variant global --precision f32 --tunable block_x=32 --tunable "
      "block_y=8 --tunable resident_px=0 --tunable tiled_px=0 --tunable persistent_px=0 --out " +
      out.string();
  const test::TuneResult off = test::run_tune(space);
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("not costed by the model (it predicts the same for each of their "
                            "values), each held at one value (--param to choose it):\n"
                            "  median_window (3 values) at 0, off\n"
                            "  nl_median_window (4 values) at 0, off\n"
                            "  rof_iterations (8 values) at 100, off\n"
                            "  texture_alpha (20 values) at 0, off\n"),
            std::string::npos)
      << off.output;
  EXPECT_NE(off.output.find("\n1 kernel configs x 3780 parameter points = 3780 configs "
                            "(computed, not listed); 1 kernel configs predicted (3780 configs)"),
            std::string::npos)
      << off.output;
  const test::TuneResult asked = test::run_tune(space + " --param median_window=0,5");
  ASSERT_EQ(asked.exit_code, 0) << asked.output;
  EXPECT_NE(asked.output.find("  median_window (2 values) at 0\n"), std::string::npos)
      << asked.output;
  EXPECT_NE(asked.output.find("= 3780 configs (computed, not listed)"), std::string::npos)
      << asked.output;
  // Without the default dimensions every parameter takes its default, but median_window's
  // (5) is an addition the model does not cost: off there too, the one config predicted
  // with median_window 0.
  const test::TuneResult plain = test::run_tune(space + " --no-default-dimensions");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_NE(plain.output.find("  median_window (1 value) at 0, off\n"), std::string::npos)
      << plain.output;
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j.at("configs").size(), 1u) << j.dump();
  EXPECT_EQ(j.at("configs")[0].at("params").at("median_window"), 0) << j.dump();
  fs::remove(out);
}

// The front of the Jetson's default space, typed with the alias: answered from the committed
// table (no build), with the alias note, and no two rows with the same time and energy.
TEST(PredictCli, AgxAnswersFromTheTableWithDistinctFrontRows) {
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  const fs::path out =
      fs::temp_directory_path() / ("flowtune_predict_agx_" + std::to_string(getpid()) + ".json");
  const test::TuneResult r = test::run_tune(
      "predict --board agx --variant global --variant shared_fusion --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("--board agx: an alias of agx-xavier"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("board agx-xavier (sm_72)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" 0 built here"), std::string::npos) << r.output;
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::set<std::pair<double, double>> front;
  std::size_t rows = 0;
  for (const auto& c : j.at("configs"))
    if (c.at("on_front").get<bool>()) {
      ++rows;
      front.insert({c.at("time_ms").get<double>(), c.at("energy_mj").get<double>()});
    }
  ASSERT_GT(rows, 0u) << r.output;
  // Configs predicted the same are one front row: the printed rows are the distinct pairs.
  std::size_t printed = 0;
  for (std::size_t p = r.output.find(" mJ "); p != std::string::npos;
       p = r.output.find(" mJ ", p + 1))
    ++printed;
  EXPECT_EQ(printed, front.size()) << r.output;
  fs::remove(out);
}

}  // namespace
}  // namespace flowtune
