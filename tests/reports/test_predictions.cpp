// `tune report --predicted FILE`: predictions next to measurements, the error per config and
// its summary against hand-computed values; Spearman's rho and the median |ln| against
// hand-computed values; bad prediction files name the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/predictions.hpp"
#include "reports/report.hpp"
#include "select/prediction_error.hpp"
#include "tests/reports/test_files.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

using test::read_all;

TEST(PredictionError, SpearmanAndMedianAbsLogAreHandComputed) {
  // Ranks 1 2 3 vs 1 3 2: d^2 = 0 + 1 + 1, rho = 1 - 6 x 2 / (3 x 8) = 0.5.
  EXPECT_NEAR(spearman({2, 4, 9}, {1, 4, 3}), 0.5, 1e-12);
  // Ties take the mean rank: a = (1, 2.5, 2.5, 4), b = (1, 2, 3, 4): Pearson of the ranks.
  const double ma = 2.5, mb = 2.5;
  const double ra[] = {1, 2.5, 2.5, 4}, rb[] = {1, 2, 3, 4};
  double sab = 0, saa = 0, sbb = 0;
  for (int i = 0; i < 4; ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  EXPECT_NEAR(spearman({1, 5, 5, 7}, {1, 2, 3, 4}), sab / std::sqrt(saa * sbb), 1e-12);
  EXPECT_TRUE(std::isnan(spearman({1}, {2})));
  EXPECT_TRUE(std::isnan(spearman({1, 1}, {2, 3})));
  // |ln 2|, 0, |ln 3| -> median ln 2; a non-positive pair is skipped.
  EXPECT_NEAR(median_abs_log_ratio({2, 4, 9, 0}, {1, 4, 3, 5}), std::log(2.0), 1e-12);
  EXPECT_NEAR(median_abs_log_ratio({2, 4}, {1, 4}), std::log(2.0) / 2, 1e-12);
  EXPECT_TRUE(std::isnan(median_abs_log_ratio({}, {})));
  EXPECT_THROW(spearman({1, 2}, {1}), std::invalid_argument);
}

db::ConfigRow global_config(int block_x) {
  db::ConfigRow c;
  c.board = "agx";
  c.workload = "tvl1";
  c.variant = "global";
  c.precision = "f32";
  c.tunables = {{"block_x", block_x}, {"block_y", 4}};
  c.label = "global f32 block_x=" + std::to_string(block_x);
  c.params = {{"iterations", 10}, {"n_scales", 1}};
  c.key = db::config_key(c);
  return c;
}

class PredictionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_predictions_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    repo_ = std::make_unique<db::Repository>((dir_ / "f.db").string());
    db::WorkloadRow w;
    w.name = "tvl1";
    w.work_unit = "px";
    w.front_objectives = {"time_ms", "aepe"};
    w.metrics = {{"aepe", "px", "endpoint error", true}};
    repo_->record_workload(w);
    const std::int64_t run = repo_->begin_run({"agx", "tvl1", "tune", "", "", "", "", "", "", ""});
    // Measured ns/px 1, 4, 3 (block_x 8, 16, 32); 64 is measured but not predicted.
    const double ns[] = {1, 4, 3, 5};
    const int bx[] = {8, 16, 32, 64};
    for (int i = 0; i < 4; ++i) {
      db::MeasurementRow m;
      m.run_id = run;
      m.dataset = "mb";
      m.ns_per_unit = ns[i];
      m.time_ms_median = m.time_ms_min = m.time_ms_max = ns[i] * 1e-6 * 1000 * 1000;
      m.n_repeats = 3;
      m.metrics = {{"aepe", 0.5}};
      if (i == 0) m.nj_per_unit = 10;
      repo_->record_measurement(global_config(bx[i]), m);
    }
  }
  void TearDown() override {
    repo_.reset();
    fs::remove_all(dir_);
  }
  // Predicted ns/px 2, 4, 9 for block_x 8, 16, 32, and one config never measured.
  std::string write_predictions(const std::string& board) {
    nlohmann::json j = {{"kind", "predicted"},   {"board", board},
                        {"workload", "tvl1"},    {"calibration", "cal.csv"},
                        {"frame", {1000, 1000}}, {"configs", nlohmann::json::array()}};
    const double ns[] = {2, 4, 9, 7};
    const int bx[] = {8, 16, 32, 128};
    for (int i = 0; i < 4; ++i)
      j["configs"].push_back({{"key", global_config(bx[i]).key},
                              {"label", global_config(bx[i]).label},
                              {"time_ms", ns[i]},
                              {"ns_per_px", ns[i]},
                              {"nj_per_px", 20.0}});
    const fs::path p = dir_ / ("predict-" + board + ".json");
    std::ofstream(p) << j.dump();
    return p.string();
  }
  fs::path dir_;
  std::unique_ptr<db::Repository> repo_;
};

TEST_F(PredictionsTest, ReportShowsPredictedNextToMeasuredWithTheError) {
  const std::string file = write_predictions("agx");
  const fs::path out = dir_ / "report";
  write_report(*repo_, "agx", out.string(), {file});
  const std::string md = read_all(out / "report.md");
  for (const char* part :
       {"## Predicted vs measured", "PREDICTED by the model", "frame 1000x1000",
        "3 of 4 measured configs have a prediction",
        "median \\|ln(pred/meas)\\| 0.693 (x2.00), Spearman rho 0.500",
        "energy over 1 configs: median \\|ln(pred/meas)\\| 0.693",
        "| global f32 block_x=8 | mb | 2.0000 | 1.0000 | 2.00 | 20.000 | 10.000 |",
        "| global f32 block_x=32 | mb | 9.0000 | 3.0000 | 3.00 | 20.000 | n/a |"}) {
    EXPECT_NE(md.find(part), std::string::npos) << "missing: " << part << "\n" << md;
  }
  EXPECT_EQ(md.find("block_x=64 | mb | "), std::string::npos) << "no prediction, no row";
  const std::string html = read_all(out / "index.html");
  EXPECT_NE(html.find("<table class=\"predicted\">"), std::string::npos);
  EXPECT_NE(html.find("Spearman rho 0.500"), std::string::npos);
  // Without prediction files the section is absent.
  write_report(*repo_, "agx", (dir_ / "plain").string());
  EXPECT_EQ(read_all(dir_ / "plain" / "report.md").find("Predicted vs measured"),
            std::string::npos);
}

TEST_F(PredictionsTest, BadPredictionFilesNameTheFile) {
  const std::string other = write_predictions("tx2");
  try {
    write_report(*repo_, "agx", (dir_ / "r1").string(), {other});
    FAIL() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(other), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tx2"), std::string::npos) << e.what();
  }
  const fs::path measured_like = dir_ / "not-predicted.json";
  std::ofstream(measured_like) << R"({"kind": "measured", "board": "agx"})";
  EXPECT_THROW(load_predictions(measured_like.string()), std::runtime_error);
  const fs::path old = dir_ / "old.json";
  std::ofstream(old) << R"({"kind": "predicted", "board": "agx", "frame": [8, 8],
                           "configs": [{"label": "x", "time_ms": 1}]})";
  try {
    load_predictions(old.string());
    FAIL() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(old.string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_predictions((dir_ / "missing.json").string()), std::runtime_error);
}

}  // namespace
}  // namespace flowtune::reports
