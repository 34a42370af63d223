// The model over a whole space (model/space_prediction.hpp): the configs it predicts counted
// without listing them and checked against the enumeration, every front row's figures against
// predict_frame of its config, and configs the model cannot tell apart folded into one row.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "boards/board.hpp"
#include "model/space_prediction.hpp"
#include "tuner/constraint_checks.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune::model {
namespace {

struct Fixture {
  Board board = load_board("agx-xavier");
  const Workload& workload = find_workload("tvl1");
  SpaceOptions options;
  Fixture() {
    options.variants = {"global"};
    options.precisions = {"f32"};
    options.default_dimensions = false;
    options.tunable_values = {{"block_x", {32}},
                              {"block_y", {2, 4, 8}},
                              {"resident_px", {1024, 4096}},
                              {"tiled_px", {65536}},
                              {"persistent_px", {0}}};
    options.param_values = {{"iterations", {10, 20}}, {"n_warpings", {1, 3}}};
  }
};

TEST(SpacePrediction, CountsWhatTheEnumerationHolds) {
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  Fixture f;
  const ConfigSpace space = make_space(f.board, f.options);
  ConstraintChecks checks(f.board, f.workload, space, 0, ResourceSource::table_or_build);
  const ModelInputs inputs = load_model_inputs(f.board, f.workload, "", kOccupancyToHide);
  const SpacePrediction sp = predict_space(
      inputs, space, checks, [](const Config&) { return true; }, 584, 388, nullptr);
  // 3 block_y x 2 resident_px kernel configs x 2 x 2 parameter points, all kept.
  EXPECT_EQ(sp.kernel_configs, 6u);
  EXPECT_EQ(sp.points.size(), 4u);
  EXPECT_EQ(sp.predicted_configs(), enumerate_space(f.board, f.options).size());
  EXPECT_EQ(sp.predicted_configs(), 24u);
  EXPECT_EQ(sp.resources.table, 6u);  // every kernel config from the committed table
  EXPECT_EQ(sp.resources.built + sp.resources.estimated, 0u);
  // resident_px changes no kernel: at most 3 classes (one per block_y), never 6.
  EXPECT_LE(sp.classes.size(), 3u);
  // 3 x 4: each of the 3 kernel builds is one build whatever resident_px is.
  EXPECT_EQ(sp.distinct_builds, 3u);
}

TEST(SpacePrediction, FrontRowsAreDistinctAndMatchPredictFrame) {
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  Fixture f;
  const ConfigSpace space = make_space(f.board, f.options);
  ConstraintChecks checks(f.board, f.workload, space, 0, ResourceSource::table_or_build);
  const ModelInputs inputs = load_model_inputs(f.board, f.workload, "", kOccupancyToHide);
  const SpacePrediction sp = predict_space(
      inputs, space, checks, [](const Config&) { return true; }, 584, 388, nullptr);
  ASSERT_FALSE(sp.front.empty());
  std::set<std::pair<double, double>> seen;
  std::size_t configs = 0;
  for (const FrontRow& row : sp.front) {
    EXPECT_TRUE(seen.insert({row.frame.time_ms, row.frame.energy_mj}).second);
    for (const auto& [u, j] : row.ties)
      for (std::size_t m = 0; m < sp.classes[u].members.size(); ++m) {
        // The independent path: the whole frame from the config's own parameters.
        const Config c = sp.config(u, m, j);
        const FramePrediction direct = predict_frame(f.board, sp.classes[u].it, c, 584, 388);
        EXPECT_NEAR(direct.time_ms, row.frame.time_ms, 1e-9 * direct.time_ms) << c.label();
        EXPECT_NEAR(direct.energy_mj, row.frame.energy_mj, 1e-9 * direct.energy_mj);
      }
    configs += sp.configs_of(row);
  }
  // The cheapest point (10 iterations, 1 warping) wins; its two resident_px configs of the
  // fastest block are one row that names resident_px as their only difference.
  const FrontRow& first = sp.front.front();
  EXPECT_EQ(
      sp.config(first.ties.front().first, 0, first.ties.front().second).params.at("iterations"),
      10);
  EXPECT_GE(sp.configs_of(first), 2u);
  const std::vector<std::string> d = sp.differing(first);
  EXPECT_NE(std::find(d.begin(), d.end(), "resident_px"), d.end());
  EXPECT_EQ(std::find(d.begin(), d.end(), "iterations"), d.end());
  EXPECT_GE(configs, sp.front.size());
}

TEST(SpacePrediction, FrameWorkGivesPredictFramesFigures) {
  const Board agx = load_board("agx-xavier");
  IterationPrediction it;
  it.ns_per_px_10it = 3.5;
  it.launches_per_iteration = 2;
  it.board_factor = 1.1;
  Config c;
  c.params = {{"n_scales", 4}, {"n_warpings", 3}, {"iterations", 30}, {"zoom", 0.6}};
  const FramePrediction a = predict_frame(agx, it, c, 640, 480);
  const FramePrediction b = predict_frame(agx, it, frame_work(c, 640, 480));
  EXPECT_DOUBLE_EQ(a.time_ms, b.time_ms);
  EXPECT_DOUBLE_EQ(a.energy_mj, b.energy_mj);
  // 3 warpings x 30 iterations x 4 levels = 360 iteration launches x 2, and 3 x 7 x 4 aux.
  const FrameWork w = frame_work(c, 640, 480);
  EXPECT_DOUBLE_EQ(w.iterations, 360);
  EXPECT_DOUBLE_EQ(w.aux_launches, 84);
}

}  // namespace
}  // namespace flowtune::model
