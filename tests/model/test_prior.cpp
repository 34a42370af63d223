// The model_guided strategy's prior from tune predict's model (model/config_prediction.hpp
// predicted_time_prior through tuner/model_estimate.hpp strategy_prior): the prior orders a
// small space exactly as the model's predicted frame times, and model_guided asks in that
// order.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "model/config_prediction.hpp"
#include "model_test_configs.hpp"
#include "tuner/search_space.hpp"
#include "tuner/strategy.hpp"

namespace flowtune::model {
namespace {

using test_configs::kernel;

Config tvl1(const std::string& variant, const std::string& precision,
            std::map<std::string, int> tunables) {
  return test_configs::tvl1(variant, precision, std::move(tunables), 3, 2, 20);
}

TEST(ModelPrior, OrdersTheSpaceAsThePredictedTimesAndModelGuidedAsksInThatOrder) {
  const Workload& w = find_workload("tvl1");
  auto in =
      std::make_shared<ModelInputs>(load_model_inputs(load_board("h200"), w, "", kOccupancyToHide));
  // Occupancies differ (shared memory, registers) so that the order is not the calibration's.
  const std::vector<Config> space = {
      tvl1("global", "f32", {{"block_x", 32}, {"block_y", 4}}),
      tvl1("global", "f16", {{"block_x", 128}, {"block_y", 2}}),
      tvl1("shared_fusion", "f32", {{"block_x", 32}, {"block_y", 8}}),
      tvl1("shared_pipeline", "f32", {{"depth", 5}, {"w", 128}}),
      tvl1("shared_pipeline", "f16", {{"depth", 5}, {"w", 128}}),
      tvl1("global_pipeline", "mixed", {{"depth", 5}, {"w", 128}}),
      tvl1("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}}),  // not calibrated
  };
  const std::vector<std::vector<KernelResources>> kernels = {{kernel(128, 32, 0)},
                                                             {kernel(256, 32, 0)},
                                                             {kernel(256, 64, 20000)},
                                                             {kernel(128, 40, 40 * 1024)},
                                                             {kernel(128, 40, 20 * 1024)},
                                                             {kernel(128, 255, 0)},
                                                             {}};
  // Independently: the model's predicted frame time of each calibrated point.
  std::vector<double> predicted;
  for (std::size_t i = 0; i + 1 < space.size(); ++i) {
    const auto it = predict_config(*in, space[i], kernels[i]);
    ASSERT_TRUE(it) << space[i].label();
    predicted.push_back(predict_frame(in->board, *it, space[i], 584, 388).time_ms);
  }
  const std::vector<double> prior =
      strategy_prior(w, in->board, space, kernels, predicted_time_prior(in, 584, 388));
  ASSERT_EQ(prior.size(), space.size());
  for (std::size_t i = 0; i < predicted.size(); ++i) EXPECT_DOUBLE_EQ(prior[i], predicted[i]);
  // The uncalibrated point comes after every predicted one.
  EXPECT_GT(prior.back(), *std::max_element(predicted.begin(), predicted.end()));
  std::vector<std::size_t> by_prediction(predicted.size());
  std::iota(by_prediction.begin(), by_prediction.end(), std::size_t{0});
  std::sort(by_prediction.begin(), by_prediction.end(),
            [&](std::size_t a, std::size_t b) { return predicted[a] < predicted[b]; });
  // The predictions are not all equal (else the order says nothing).
  ASSERT_LT(predicted[by_prediction.front()], predicted[by_prediction.back()]);

  const SearchSpace search(space);
  StrategyOptions so;
  so.prior = prior;
  auto strategy = make_strategy("model_guided", search, so);
  // model_guided measures max(4, budget / 10) points in prior order first.
  for (std::size_t k = 0; k < 4; ++k) {
    const auto point = strategy->ask();
    ASSERT_TRUE(point);
    EXPECT_EQ(*point, by_prediction[k]) << "ask " << k;
    Observation o;
    o.point = *point;
    o.objectives = {double(k + 1)};
    strategy->tell(o);
  }
}

TEST(ModelPrior, WithoutAModelThePriorIsModelEstimate) {
  const Workload& w = find_workload("tvl1");
  const Board b = load_board("h200");
  const std::vector<Config> space = {tvl1("global", "f32", {{"block_x", 32}, {"block_y", 4}}),
                                     tvl1("global", "f16", {{"block_x", 32}, {"block_y", 4}})};
  const std::vector<std::vector<KernelResources>> kernels = {{kernel(128, 32, 0)},
                                                             {kernel(128, 32, 0)}};
  const std::vector<double> prior = strategy_prior(w, b, space, kernels);
  EXPECT_DOUBLE_EQ(prior[0], model_estimate(w, space[0], kernels[0], b));
  EXPECT_DOUBLE_EQ(prior[1], model_estimate(w, space[1], kernels[1], b));
  EXPECT_THROW(strategy_prior(w, b, space, {kernels[0]}), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune::model
