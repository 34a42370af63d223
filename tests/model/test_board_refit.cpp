// model/board_refit.hpp and model/config_prediction.hpp board_samples: the refit from the
// board's own measurements against hand-computed factors and leave-one-out errors, on a
// synthetic DB written here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "db/repository.hpp"
#include "model/board_refit.hpp"
#include "model/config_prediction.hpp"
#include "model_test_configs.hpp"
#include "select/config_rows.hpp"
#include "tuner/resources_json.hpp"

namespace flowtune::model {
namespace {

namespace fs = std::filesystem;

TEST(BoardRefit, FactorsAreGeometricMeansAndLeaveOneOutIsHandComputed) {
  // f_i = measured / (kernel + launches). Scheme A: 3 / 1.5 = 2 and 16 / 2 = 8 -> factor
  // sqrt(16) = 4. Scheme B: 3 / 1 = 3. Board-wide: (2 x 8 x 3)^(1/3).
  const std::vector<BoardSample> s = {
      {"a", "f32", "a1", 1, 0.5, 3}, {"a", "f32", "a2", 2, 0, 16}, {"b", "f16", "b1", 1, 0, 3}};
  const BoardRefit r = refit_board(s);
  EXPECT_EQ(r.n, 3u);
  EXPECT_NEAR(r.factor("a", "f32"), 4, 1e-12);
  EXPECT_NEAR(r.factor("b", "f16"), 3, 1e-12);
  EXPECT_NEAR(r.factor("c", "f32"), std::cbrt(48.0), 1e-12);  // no measurement: board-wide
  // Leave-one-out: a1 with a2's f = 8 -> 12 vs 3; a2 with a1's f = 2 -> 4 vs 16; b1 alone in
  // its scheme: the others' geometric mean 4 -> 4 vs 3.
  EXPECT_NEAR(r.loo_predicted_ms[0], 12, 1e-12);
  EXPECT_NEAR(r.loo_predicted_ms[1], 4, 1e-12);
  EXPECT_NEAR(r.loo_predicted_ms[2], 4, 1e-12);
  // |ln| = ln 4, ln 4, ln 4/3 -> median ln 4.
  EXPECT_NEAR(r.loo_median_abs_log, std::log(4.0), 1e-12);
  // Before: 1.5, 2, 1 vs 3, 16, 3: |ln| ln 2, ln 8, ln 3 -> median ln 3.
  EXPECT_NEAR(r.before_median_abs_log, std::log(3.0), 1e-12);
  // LOO predictions 12, 4, 4 rank 3, 1.5, 1.5; measured 3, 16, 3 rank 1.5, 3, 1.5: the
  // Pearson correlation of the ranks is -0.75 / 1.5 = -0.5.
  EXPECT_NEAR(r.loo_spearman, -0.5, 1e-12);
}

TEST(BoardRefit, RejectsANonPositivePrediction) {
  try {
    refit_board({{"a", "f32", "cfg-x", 0, 0, 1}});
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cfg-x"), std::string::npos) << e.what();
  }
}

using test_configs::kernel;

Config single_scale_tvl1(const std::string& variant, const std::string& precision,
                         std::map<std::string, int> tunables) {
  return test_configs::tvl1(variant, precision, std::move(tunables), 1, 1, 10);
}

// The H200 is the calibration board: the board's resource report is reused for it, so
// nothing is compiled. Measurements are written as f x the model's own frame time with
// hand-chosen f, and the refit must give back those f.
TEST(BoardRefit, RefitsFromASyntheticDbOfTheBoard) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_refit_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Workload& w = find_workload("tvl1");
  const ModelInputs in = load_model_inputs(load_board("h200"), w, "", kOccupancyToHide);
  const std::vector<KernelResources> ks = {kernel(128, 32, 0)};
  struct Case {
    Config c;
    double f;
  };
  const std::vector<Case> cases = {
      {single_scale_tvl1("global", "f32", {{"block_x", 32}, {"block_y", 4}}), 1.5},
      {single_scale_tvl1("global", "f32", {{"block_x", 64}, {"block_y", 4}}), 6.0},
      {single_scale_tvl1("shared_fusion", "f16", {{"block_x", 32}, {"block_y", 8}}), 0.5},
  };
  {
    db::Repository repo((dir / "board.db").string());
    repo.record_workload(to_workload_row(w));
    const std::int64_t run = repo.begin_run({"h200", "tvl1", "tune", "", "", "", "", "", "", ""});
    for (const Case& k : cases) {
      const auto it = predict_config(in, k.c, ks);
      ASSERT_TRUE(it);
      const FramePrediction f = predict_frame(in.board, *it, k.c, 1024, 1024);
      db::MeasurementRow m;
      m.run_id = run;
      m.dataset = "synthetic";
      m.time_ms_median = m.time_ms_min = m.time_ms_max = k.f * f.time_ms;
      m.n_repeats = 3;
      m.ns_per_unit = m.time_ms_median * 1e6 / (1024.0 * 1024.0);
      m.resources_json = resources_json(ks);
      repo.record_measurement(to_config_row("h200", k.c), m);
    }
    // Another board's measurement is not the board's.
    const std::int64_t other = repo.begin_run({"h100", "tvl1", "tune", "", "", "", "", "", "", ""});
    db::MeasurementRow m;
    m.run_id = other;
    m.dataset = "synthetic";
    m.time_ms_median = m.time_ms_min = m.time_ms_max = 1000;
    m.n_repeats = 3;
    m.ns_per_unit = 1;
    repo.record_measurement(to_config_row("h100", cases[0].c), m);
  }
  const db::Repository repo((dir / "board.db").string(), db::OpenMode::read_only);
  const std::vector<BoardSample> samples = board_samples(repo, in);
  ASSERT_EQ(samples.size(), 3u);
  const BoardRefit r = refit_board(samples);
  EXPECT_NEAR(r.factor("global", "f32"), 3.0, 1e-9);  // sqrt(1.5 x 6)
  EXPECT_NEAR(r.factor("shared_fusion", "f16"), 0.5, 1e-9);
  EXPECT_NEAR(r.global_factor, std::cbrt(1.5 * 6 * 0.5), 1e-9);
  // Leave-one-out: each global config gets the other's f (6 for the 1.5 one and the reverse:
  // |ln 4| either way), the shared_fusion one the globals' sqrt(1.5 x 6) = 3 against its 0.5
  // (|ln 6|): median ln 4.
  EXPECT_NEAR(r.loo_median_abs_log, std::log(4.0), 1e-9);
  ASSERT_EQ(samples[2].variant, "shared_fusion");
  EXPECT_NEAR(r.loo_predicted_ms[2], 3 * (samples[2].kernel_ms + samples[2].launch_ms), 1e-12);
  // The refit prediction of a measured config gives its scheme's factor x the kernel time.
  ModelInputs refit = in;
  refit.refit = r;
  const auto it = predict_config(refit, cases[2].c, ks);
  ASSERT_TRUE(it);
  EXPECT_NEAR(it->board_factor, 0.5, 1e-9);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune::model
