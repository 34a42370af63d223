// The grid + refinement search (Masson 2011, sec. 5.1.2) on a real workload, small enough for
// CI: TV-L1 on RubberWhale (train) and Grove2 (held out) with a one-level, few-iteration
// schedule. Oracles: the trace itself (the best is its minimum), hand-computed refinement
// grids, and the DB (every cell recorded once; a second search measures nothing new).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "db/repository.hpp"
#include "tuner/param_search.hpp"

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

TEST(ParamSearch, FindsTheTraceMinimumRecordsEveryCellAndResumes) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_search_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ParamSearchOptions o;
  o.board = "host";
  o.db_path = (dir / "s.db").string();
  o.space.variants = {"kokkos_global"};
  o.space.tunable_values = {{"tile_x", {32}}, {"tile_y", {4}}};
  o.space.default_dimensions = false;
  o.space.param_values = {
      {"n_scales", {1}}, {"n_warpings", {1}}, {"iterations", {5}}, {"epsilon", {0}}};
  o.dimensions = {{"lambda", {0.05, 0.2}}, {"theta", {0.1, 0.4}}};
  o.refinements = 1;
  o.metric = "aepe";
  o.isolate = false;  // this test binary is not `tune`: it cannot be a worker process
  const std::string data = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury";
  o.train = {data, {"RubberWhale"}};
  o.test = {data, {"Grove2"}};
  o.measure.min_rounds = 0;
  o.measure.max_rounds = 0;
  o.measure.min_window_ms = 0;
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

}  // namespace
}  // namespace flowtune
