// The grid + refinement search (Masson 2011, sec. 5.1.2) on a real workload, small enough for
// CI: TV-L1 on RubberWhale (train) and Grove2 (held out) with a one-level, few-iteration
// schedule. Oracles: the trace itself (the best is its minimum), hand-computed refinement
// grids, and the DB (every cell recorded once; a second search measures nothing new).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <utility>

#include "db/repository.hpp"
#include "tuner/param_search.hpp"
#include "workloads/workload.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

TEST(RefineAround, GeometricNeighboursInsideTheRange) {
  ParamSpec spec;
  spec.name = "lambda";
  spec.min = 0;
  spec.min_open = true;
  spec.max = 1;
  const auto g = refine_around(0.25, 4.0, spec);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_DOUBLE_EQ(g[0], 0.125);
  EXPECT_DOUBLE_EQ(g[1], 0.25);
  EXPECT_DOUBLE_EQ(g[2], 0.5);
  EXPECT_EQ(refine_around(0.8, 4.0, spec).size(), 2u);  // 1.6 is outside (0, 1]
  EXPECT_THROW(refine_around(0.8, 1.0, spec), std::invalid_argument);
}

// Integer parameters: the geometric neighbours rounded, duplicates and invalid values dropped.
TEST(RefineAround, IntegerNeighboursAreRounded) {
  ParamSpec spec;
  spec.name = "n_warpings";
  spec.type = ParamSpec::Type::integer;
  spec.min = 1;
  spec.max = 1000;
  EXPECT_EQ(refine_around(3, 2.0, spec), (std::vector<double>{2, 3, 4}));  // 2.12, 4.24
  EXPECT_EQ(refine_around(3, 1.1, spec), (std::vector<double>{3}));        // 2.86, 3.15
  EXPECT_EQ(refine_around(100, 4.0, spec), (std::vector<double>{50, 100, 200}));
  EXPECT_EQ(refine_around(1, 4.0, spec), (std::vector<double>{1, 2}));  // 0.5 rounds to 1
  spec.max = 150;
  EXPECT_EQ(refine_around(100, 4.0, spec), (std::vector<double>{50, 100}));
  spec.type = ParamSpec::Type::categorical;
  spec.choices = {"a", "b"};
  EXPECT_THROW(refine_around(1, 4.0, spec), std::invalid_argument);
}

// One refinement round over a real, a listed integer and a refined integer dimension, by
// hand: lambda 0.2 with ratio 4 -> {0.1, 0.2, 0.4}; median_window listed -> the best's 3
// only; n_warpings 5 with ratio 4 -> {round(2.5) = 3, 5, 10}.
TEST(RefinementGrid, RefinesRealAndIntegerKeepsListedValues) {
  const Workload& w = find_workload("tvl1");
  const std::vector<SearchDimension> dims = {{"lambda", {0.05, 0.2, 0.8}, true},
                                             {"median_window", {0, 3, 5}, false},
                                             {"n_warpings", {1, 4, 16}, true},
                                             {"warping_interp", {0, 1}, false}};
  std::vector<const ParamSpec*> specs;
  for (const SearchDimension& d : dims) specs.push_back(w.find_param(d.name));
  const ParamValues best = {
      {"lambda", 0.2}, {"median_window", 3}, {"n_warpings", 5}, {"warping_interp", 1}};
  const ParamDimensions g = refinement_grid(dims, specs, best, {4, 0, 4, 0});
  ASSERT_EQ(g.size(), 4u);
  ASSERT_EQ(g.at("lambda").size(), 3u);
  EXPECT_DOUBLE_EQ(g.at("lambda")[0], 0.1);
  EXPECT_DOUBLE_EQ(g.at("lambda")[1], 0.2);
  EXPECT_DOUBLE_EQ(g.at("lambda")[2], 0.4);
  EXPECT_EQ(g.at("median_window"), (std::vector<double>{3}));
  EXPECT_EQ(g.at("n_warpings"), (std::vector<double>{3, 5, 10}));
  EXPECT_EQ(g.at("warping_interp"), (std::vector<double>{1}));
  EXPECT_EQ(parameter_points(g).size(), 9u);
  EXPECT_THROW(refinement_grid(dims, specs, {{"lambda", 0.2}}, {4, 0, 4, 0}),
               std::invalid_argument);
}

ParamSearchOptions small_search(const fs::path& dir) {
  ParamSearchOptions o;
  o.board = "host";
  o.db_path = (dir / "s.db").string();
  o.space.variants = {"kokkos_global"};
  o.space.tunable_values = {{"tile_x", {32}}, {"tile_y", {4}}};
  o.space.default_dimensions = false;
  o.space.param_values = {
      {"n_scales", {1}}, {"n_warpings", {1}}, {"iterations", {5}}, {"epsilon", {0}}};
  o.metric = "aepe";
  o.isolate = false;  // this test binary is not `tune`: it cannot be a worker process
  const std::string data = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury";
  o.train = {data, {"RubberWhale"}};
  o.test = {data, {"Grove2"}};
  o.measure.min_rounds = 0;
  o.measure.max_rounds = 0;
  o.measure.min_window_ms = 0;
  return o;
}

TEST(ParamSearch, FindsTheTraceMinimumRecordsEveryCellAndResumes) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_search_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ParamSearchOptions o = small_search(dir);
  o.dimensions = {{"lambda", {0.05, 0.2}}, {"theta", {0.1, 0.4}}};
  o.refinements = 1;
  std::ostringstream log;
  const ParamSearchResult r = search_parameters(o, log);
  // 4 grid cells, then 3 x 3 around the best minus the best itself (ratio 4 -> sqrt 2 steps).
  EXPECT_GE(r.trace.size(), 4u + 1u);
  EXPECT_LE(r.trace.size(), 4u + 8u);
  const auto best = std::min_element(
      r.trace.begin(), r.trace.end(),
      [](const SearchPoint& a, const SearchPoint& b) { return a.train < b.train; });
  EXPECT_DOUBLE_EQ(r.best_train, best->train);
  EXPECT_DOUBLE_EQ(r.best.param("lambda"), best->values.at("lambda"));
  EXPECT_TRUE(std::isfinite(r.best_test));
  EXPECT_LE(r.best_train, r.baseline_train + 1e-12);
  EXPECT_EQ(r.train_key, "middlebury:RubberWhale");
  const std::size_t rows = db::Repository(o.db_path).measured("host").size();
  EXPECT_EQ(rows, r.trace.size() + 1 /* baseline on train */ + 2 /* best, baseline on test */);

  std::ostringstream again_log;
  const ParamSearchResult again = search_parameters(o, again_log);  // everything from the DB
  EXPECT_EQ(db::Repository(o.db_path).measured("host").size(), rows);
  EXPECT_DOUBLE_EQ(again.best_test, r.best_test);
  fs::remove_all(dir);
}

// Listed (integer, categorical) dimensions with a refined real one: the initial grid is the
// full product (2 x 2 x 2 cells), the refinement keeps the best cell's listed values and
// varies lambda only; the best is the trace's minimum; a median_window the workload rejects
// (1: only 0, 3, 5) and a refined categorical dimension are refused before any measurement.
TEST(ParamSearch, ListedIntegerAndCategoricalDimensions) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_search_cat_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ParamSearchOptions o = small_search(dir);
  o.dimensions = {{"lambda", {0.05, 0.2}, true},
                  {"median_window", {0, 3}, false},
                  {"warping_interp", {0, 1}, false}};
  o.refinements = 1;
  std::ostringstream log;
  const ParamSearchResult r = search_parameters(o, log);
  ASSERT_GE(r.trace.size(), 8u);
  EXPECT_LE(r.trace.size(), 8u + 2u);  // lambda's two new neighbours at most
  std::set<std::pair<double, double>> initial;
  for (std::size_t k = 0; k < 8; ++k)
    initial.insert({r.trace[k].values.at("median_window"), r.trace[k].values.at("warping_interp")});
  EXPECT_EQ(initial.size(), 4u);  // every (median, interp) pair, each at both lambdas
  const auto best = std::min_element(
      r.trace.begin(), r.trace.end(),
      [](const SearchPoint& a, const SearchPoint& b) { return a.train < b.train; });
  EXPECT_DOUBLE_EQ(r.best_train, best->train);
  const auto first8_best = std::min_element(
      r.trace.begin(), r.trace.begin() + 8,
      [](const SearchPoint& a, const SearchPoint& b) { return a.train < b.train; });
  for (std::size_t k = 8; k < r.trace.size(); ++k) {
    EXPECT_EQ(r.trace[k].values.at("median_window"), first8_best->values.at("median_window"));
    EXPECT_EQ(r.trace[k].values.at("warping_interp"), first8_best->values.at("warping_interp"));
  }
  // The listed values change the result: not all eight cells have the same metric.
  std::set<double> metrics;
  for (std::size_t k = 0; k < 8; ++k) metrics.insert(r.trace[k].train);
  EXPECT_GT(metrics.size(), 2u);

  ParamSearchOptions bad = small_search(dir);
  bad.dimensions = {{"median_window", {0, 1}, false}};
  EXPECT_THROW(search_parameters(bad, log), std::invalid_argument);
  bad.dimensions = {{"warping_interp", {0, 1}, true}};
  EXPECT_THROW(search_parameters(bad, log), std::invalid_argument);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
