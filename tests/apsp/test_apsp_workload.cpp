// The APSP workload (workloads/apsp/): schema, items, reference, runner and its exact check.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "kernels/apsp/floyd_warshall.hpp"
#include "tests/apsp/apsp_config.hpp"
#include "workloads/apsp/apsp_items.hpp"
#include "workloads/apsp/apsp_workload.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/cuda/cuda_driver.hpp"
#endif

namespace flowtune {
namespace {

using test::apsp_config;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(ApspWorkload, Schema) {
  const Workload& w = apsp_workload();
  EXPECT_EQ(w.name(), "apsp");
  EXPECT_EQ(w.work_unit(), "relaxation");
  EXPECT_TRUE(w.params().empty());
  ASSERT_EQ(w.metrics().size(), 1u);
  EXPECT_EQ(w.metrics()[0].name, "mismatches");
  EXPECT_TRUE(w.metrics()[0].minimize);
  EXPECT_EQ(w.front_objectives(), std::vector<std::string>{"time_ms"});
  EXPECT_TRUE(w.default_dimensions("cpu").empty());
  EXPECT_TRUE(w.default_dimensions("cuda").empty());
  EXPECT_EQ(w.variants(), apsp_variants());
  for (const Variant* v : w.variants()) EXPECT_EQ(v->workload(), w.name());
  EXPECT_EQ(w.invalid_reason(apsp_config("fw_cpu", {{"tile", 32}})), std::nullopt);
}

TEST(ApspWorkload, DefaultInputs) {
  const auto inputs = apsp_workload().load_inputs({});
  ASSERT_EQ(inputs->size(), 3u);
  EXPECT_EQ(inputs->item_name(0), "icosphere:2");
  EXPECT_EQ(inputs->item_name(1), "torus:24x16");
  EXPECT_EQ(inputs->item_name(2), "random:512");
  EXPECT_EQ(inputs->key(), "icosphere:2,torus:24x16,random:512");
  EXPECT_DOUBLE_EQ(inputs->item_work(0), 320.0 * 320.0 * 320.0);
  EXPECT_DOUBLE_EQ(inputs->item_work(1), 768.0 * 768.0 * 768.0);
  EXPECT_DOUBLE_EQ(inputs->item_work(2), 512.0 * 512.0 * 512.0);
  EXPECT_THROW(inputs->item_name(3), std::out_of_range);
}

TEST(ApspWorkload, ItemsAreParsedAndBadOnesNamed) {
  EXPECT_EQ(apsp::make_item_graph("icosphere:0").n(), 20);
  EXPECT_EQ(apsp::make_item_graph("torus:4x3").n(), 24);
  EXPECT_EQ(apsp::make_item_graph("random:20").n(), 20);
  EXPECT_EQ(apsp::make_item_graph("random:20").weights, apsp::make_item_graph("random:20").weights);
  for (const char* bad : {"cube:3", "torus:2x5", "torus:4x", "icosphere:6", "random:0",
                          "random:40000", "torus:999999999x3", "random:-3", ""}) {
    EXPECT_THROW(apsp::make_item_graph(bad), std::runtime_error) << bad;
    EXPECT_NE(message_of([&] { apsp::make_item_graph(bad); }).find("'" + std::string(bad) + "'"),
              std::string::npos);
  }
  InputOptions options;
  options.items = {"torus:4x3", "nonsense"};
  EXPECT_THROW(apsp_workload().load_inputs(options), std::runtime_error);
}

TEST(ApspWorkload, CpuRunnersPassTheCheck) {
  InputOptions options;
  options.items = {"icosphere:1", "torus:6x5", "random:70"};
  const auto inputs = apsp_workload().load_inputs(options);
  for (const Config& c : {apsp_config("fw_cpu", {{"tile", 16}}), apsp_config("dijkstra_cpu", {})}) {
    auto runner = apsp_workload().make_runner(c, *inputs);
    for (std::size_t i = 0; i < inputs->size(); ++i) {
      runner->run(i);
      EXPECT_EQ(runner->score(i), (std::map<std::string, double>{{"mismatches", 0}}))
          << c.label() << " " << inputs->item_name(i);
    }
  }
}

TEST(ApspWorkload, ScoreBeforeRunAndBadConfigsAreErrors) {
  InputOptions options;
  options.items = {"torus:3x3"};
  const auto inputs = apsp_workload().load_inputs(options);
  auto runner = apsp_workload().make_runner(apsp_config("fw_cpu", {{"tile", 16}}), *inputs);
  EXPECT_THROW(runner->score(0), std::logic_error);
  EXPECT_THROW(runner->run(1), std::out_of_range);
  EXPECT_THROW(apsp_workload().make_runner(apsp_config("global", {}), *inputs),
               std::invalid_argument);
  EXPECT_THROW(apsp_workload().make_runner(apsp_config("fw_cpu", {}), *inputs),
               std::invalid_argument);
  Config tvl1 = apsp_config("fw_cpu", {{"tile", 16}});
  tvl1.workload = "tvl1";
  EXPECT_THROW(apsp_workload().make_runner(tvl1, *inputs), std::invalid_argument);
}

TEST(ApspWorkload, CheckFailsOnACorruptedMatrix) {
  const apsp::Graph g = apsp::make_item_graph("torus:3x3");
  const apsp::DistMatrix expected = apsp::floyd_warshall(g.weights);
  EXPECT_EQ(check_apsp_distances(expected, expected, g.name), 0);
  apsp::DistMatrix corrupted = expected;
  corrupted.at(2, 3) += 1;
  corrupted.at(5, 1) = apsp::kInf;
  const std::string msg = message_of([&] { check_apsp_distances(corrupted, expected, g.name); });
  EXPECT_EQ(msg, "apsp: 2 mismatches on torus:3x3, first at (2,3): got " +
                     std::to_string(expected.at(2, 3) + 1) + ", expected " +
                     std::to_string(expected.at(2, 3)));
  EXPECT_THROW(check_apsp_distances(corrupted, expected, g.name), CheckFailed);
  EXPECT_THROW(check_apsp_distances(apsp::DistMatrix(3), expected, g.name), CheckFailed);
}

/// A variant whose output is off by one at (0, 1): the runner's score must catch it.
class OffByOneVariant : public ApspVariant {
 public:
  std::string name() const override { return "off_by_one"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override { return {}; }
  std::unique_ptr<ApspSolver> make_solver(const Config& config) const override {
    (void)config;
    struct Solver : ApspSolver {
      apsp::DistMatrix solve(const apsp::Graph& g) override {
        apsp::DistMatrix d = apsp::floyd_warshall(g.weights);
        d.at(0, 1) -= 1;
        return d;
      }
    };
    return std::make_unique<Solver>();
  }
};

TEST(ApspWorkload, RunnerScoreThrowsCheckFailedOnAWrongOutput) {
  InputOptions options;
  options.items = {"icosphere:0"};
  const auto inputs = apsp_workload().load_inputs(options);
  const OffByOneVariant variant;
  auto runner = make_apsp_runner(variant, apsp_config("off_by_one", {}), *inputs);
  runner->run(0);
  EXPECT_THROW(runner->score(0), CheckFailed);
  EXPECT_NE(
      message_of([&] { runner->score(0); }).find("1 mismatches on icosphere:0, first at (0,1)"),
      std::string::npos);
}

#ifdef FLOWTUNE_HAVE_CUDA
TEST(ApspWorkload, CudaRunnerWithoutDeviceIsABuildError) {
  if (cuda::device_available()) GTEST_SKIP() << "a CUDA device is present";
  InputOptions options;
  options.items = {"icosphere:0"};
  const auto inputs = apsp_workload().load_inputs(options);
  EXPECT_THROW(
      apsp_workload().make_runner(
          apsp_config("fw_tiled", {{"tile", 32}, {"block_x", 32}, {"block_y", 8}}), *inputs),
      std::runtime_error);
}
#endif

}  // namespace
}  // namespace flowtune
