// Replay of strategies against a recorded run, on a DB written here with known values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "db/repository.hpp"
#include "tuner/replay.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

db::ConfigRow config(int tile_x, int tile_y) {
  db::ConfigRow c;
  c.board = "host";
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}, {"tile_y", tile_y}};
  c.label = "kokkos_global";
  c.params = {{"iterations", 10}};
  c.key = db::config_key(c);
  return c;
}

db::MeasurementRow measurement(std::int64_t run, double time_ms, double aepe) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = "d";
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 3;
  m.ns_per_unit = time_ms;
  m.metrics = {{"aepe", aepe}};
  return m;
}

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ =
        fs::temp_directory_path() / ("flowtune_test_replay_" + std::to_string(::getpid()) + ".db");
    fs::remove(path_);
    db::Repository repo(path_.string());
    db::WorkloadRow w;
    w.name = "tvl1";
    w.work_unit = "px";
    w.front_objectives = {"time_ms", "aepe"};
    w.metrics = {{"aepe", "px", "endpoint error", true}};
    repo.record_workload(w);
    const std::int64_t run =
        repo.begin_run({"host", "tvl1", "tune", "abc", "ci", "", "", "", "", "d"});
    // A 4 x 4 grid of tiles: time = 1 + |log2(tile_x/32)| + |log2(tile_y/4)| (optimum 1 ms at
    // 32 x 4), aepe falling with tile_x (a trade-off); tile_y 16 fails, tile_x 256 is pruned.
    for (int tx : {16, 32, 64, 128})
      for (int ty : {2, 4, 8, 16}) {
        const double time = 1 + std::abs(std::log2(tx / 32.0)) + std::abs(std::log2(ty / 4.0));
        if (ty == 16)
          repo.record_failure(run, config(tx, ty), "d", "runtime", "boom");
        else
          repo.record_measurement(config(tx, ty), measurement(run, time, 1.0 / tx));
      }
    for (int ty : {2, 4, 8, 16}) repo.record_pruned(run, config(256, ty), "too big");
    repo.end_run(run, "done");
  }
  void TearDown() override { fs::remove(path_); }
  fs::path path_;
};

TEST_F(ReplayTest, LoadsMeasuredFailedAndPrunedPoints) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  EXPECT_EQ(rs.dataset, "d");
  EXPECT_EQ(rs.configs.size(), 20u);
  EXPECT_EQ(rs.n_evaluable(), 16u);  // 12 measured + 4 failed; pruned are free
  EXPECT_EQ(std::count(rs.outcomes.begin(), rs.outcomes.end(), Outcome::failed), 4);
  EXPECT_THROW(load_recorded_space(repo, "agx"), std::invalid_argument);
}

TEST_F(ReplayTest, BruteForceEvaluatesEveryUnprunedPointAndFindsTheOptimum) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 2;
  ro.budget = 100;
  ro.objectives = {"time_ms", "aepe"};
  const ReplayResult r = replay(rs, ro);
  EXPECT_DOUBLE_EQ(r.optimum, 1.0);
  ASSERT_EQ(r.seeds.size(), 2u);
  for (const SeedResult& s : r.seeds) {
    EXPECT_EQ(s.evaluations, 16u);
    // Recorded order: tile_x 16 (3 measured), then 32 x 2, 32 x 4: the 5th point.
    EXPECT_EQ(s.evals_to_within, 5u);
    EXPECT_DOUBLE_EQ(s.best, 1.0);
    EXPECT_DOUBLE_EQ(s.hypervolume_fraction, 1.0);  // every point seen
  }
  EXPECT_EQ(r.n_within(), 2u);
}

TEST_F(ReplayTest, ABudgetCutsTheSearchAndLowersTheHypervolume) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.budget = 3;  // the three tile_x = 16 points: 2, 1 and 2 ms off the optimum
  ro.objectives = {"time_ms", "aepe"};
  const ReplayResult r = replay(rs, ro);
  EXPECT_EQ(r.seeds[0].evaluations, 3u);
  EXPECT_EQ(r.seeds[0].evals_to_within, 0u);
  EXPECT_DOUBLE_EQ(r.seeds[0].best, 2.0);
  EXPECT_LT(r.seeds[0].hypervolume_fraction, 1.0);
  EXPECT_GT(r.seeds[0].hypervolume_fraction, 0.0);
  ro.objectives = {"no_such_metric"};
  EXPECT_THROW(replay(rs, ro), std::invalid_argument);
  ro.objectives = {"time_ms"};
  ro.budget = 0;
  EXPECT_THROW(replay(rs, ro), std::invalid_argument);
}

TEST_F(ReplayTest, AdaptiveStrategiesAreReproducibleOnARecording) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  for (const std::string& name : strategy_names()) {
    SCOPED_TRACE(name);
    ReplayOptions ro;
    ro.strategy = name;
    ro.seeds = 3;
    ro.budget = 8;
    ro.objectives = {"time_ms", "aepe"};
    const ReplayResult a = replay(rs, ro), b = replay(rs, ro);
    for (std::size_t i = 0; i < a.seeds.size(); ++i) {
      EXPECT_EQ(a.seeds[i].evals_to_within, b.seeds[i].evals_to_within);
      EXPECT_EQ(a.seeds[i].best, b.seeds[i].best);
      EXPECT_LE(a.seeds[i].evaluations, 8u);
    }
  }
}

}  // namespace
}  // namespace flowtune
