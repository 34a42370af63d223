// Replay of strategies against a recorded run, on a DB written here with known values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <limits>

#include "db/repository.hpp"
#include "tests/tuner/tvl1_test_store.hpp"
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

using testing_store::begin_tvl1_run;
using testing_store::tvl1_measurement;

class ReplayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ =
        fs::temp_directory_path() / ("flowtune_test_replay_" + std::to_string(::getpid()) + ".db");
    fs::remove(path_);
    db::Repository repo(path_.string());
    const std::int64_t run = begin_tvl1_run(repo);
    // A 4 x 4 grid of tiles: time = 1 + |log2(tile_x/32)| + |log2(tile_y/4)| (optimum 1 ms at
    // 32 x 4), aepe falling with tile_x (a trade-off); tile_y 16 fails, tile_x 256 is pruned.
    for (int tx : {16, 32, 64, 128})
      for (int ty : {2, 4, 8, 16}) {
        const double time = 1 + std::abs(std::log2(tx / 32.0)) + std::abs(std::log2(ty / 4.0));
        if (ty == 16)
          repo.record_failure(run, config(tx, ty), "d", "runtime", "boom");
        else
          repo.record_measurement(config(tx, ty), tvl1_measurement(run, time, 1.0 / tx));
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

TEST_F(ReplayTest, EachPointCostsItsTimedRunsPlusTheOverhead) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  EXPECT_GE(rs.overhead_s, 0.0);
  for (std::size_t i = 0; i < rs.configs.size(); ++i) {
    if (rs.outcomes[i] == Outcome::pruned) {
      EXPECT_EQ(rs.cost_s[i], 0.0);
    } else if (rs.outcomes[i] == Outcome::failed) {
      EXPECT_EQ(rs.cost_s[i], rs.overhead_s);
    } else {  // no item rows: the median time x (3 timed runs + 1 warm-up)
      const double t = rs.measurements[i].measurement.time_ms_median;
      EXPECT_NEAR(rs.cost_s[i] - rs.overhead_s, t * 4 / 1000, 1e-12);
    }
  }
}

TEST_F(ReplayTest, ATimeBudgetStopsBeforeThePointThatWouldExceedIt) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.objectives = {"time_ms", "aepe"};
  // The first three evaluable points in recorded order (tile_x 16 x {2, 4, 8}).
  std::vector<std::size_t> evaluable;
  for (std::size_t i = 0; i < rs.configs.size(); ++i)
    if (rs.outcomes[i] != Outcome::pruned) evaluable.push_back(i);
  ro.budget_s = rs.cost_s[evaluable[0]] + rs.cost_s[evaluable[1]] + rs.cost_s[evaluable[2]];
  ro.budget_s *= 1 + 1e-9;
  ReplayResult r = replay(rs, ro);
  EXPECT_EQ(r.seeds[0].evaluations, 3u);
  EXPECT_NEAR(r.seeds[0].cost_s, ro.budget_s, 2e-9 * ro.budget_s);
  double all = 0;
  for (double c : rs.cost_s) all += c;
  ro.budget_s = all * 2;
  r = replay(rs, ro);
  EXPECT_EQ(r.seeds[0].evaluations, 16u);
  EXPECT_NEAR(r.seeds[0].cost_s, all, 1e-9 * all);
}

TEST_F(ReplayTest, PicksAndConstraintsAreComparedWithTheRecordingsBest) {
  const db::Repository repo(path_.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.objectives = {"time_ms", "aepe"};
  // Fastest with aepe <= 1/64: tile_x 64 or 128; time 1 + 1 + |log2(ty/4)| -> 2 ms at 64 x 4.
  // Lowest aepe within 2 ms: tile_x 64 (1/64) at ty 4 (2 ms); 128 needs 3 ms.
  ro.picks = {{"time_ms", {{"aepe", 1.0 / 64}}}, {"aepe", {{"time_ms", 2}}}};
  ro.budget = 100;
  ReplayResult r = replay(rs, ro);
  ASSERT_EQ(r.pick_optimum.size(), 2u);
  EXPECT_DOUBLE_EQ(r.pick_optimum[0], 2.0);
  EXPECT_DOUBLE_EQ(r.pick_optimum[1], 1.0 / 64);
  EXPECT_EQ(r.n_pick_within(0, 0.0), 1u);
  EXPECT_EQ(r.n_pick_within(1, 0.0), 1u);
  // Three evaluations (tile_x 16 only): no point satisfies aepe <= 1/64; within 2 ms the
  // best is 1/16 (16 x 4, 2 ms).
  ro.budget = 3;
  r = replay(rs, ro);
  EXPECT_EQ(r.seeds[0].picks[0], std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(r.seeds[0].picks[1], 1.0 / 16);
  EXPECT_EQ(r.n_pick_within(0, 0.05), 0u);
  EXPECT_EQ(r.n_pick_within(1, 0.05), 0u);
  // A constraint moves objective 1's optimum to the best feasible point.
  ro.picks.clear();
  ro.constraints = {{"aepe", 1.0 / 64}};
  ro.budget = 100;
  r = replay(rs, ro);
  EXPECT_DOUBLE_EQ(r.optimum, 2.0);
  EXPECT_DOUBLE_EQ(r.seeds[0].best, 2.0);
  EXPECT_EQ(r.strategy, "brute_force");
  ro.strategy = "auto";  // 16 evaluable points: brute force is exact and cheap
  EXPECT_EQ(replay(rs, ro).strategy, "brute_force");
}

// Multi-fidelity replay on a recording with two items per point, brute force in recorded
// order: point A (item 0: 1 ms, aepe 0.1) is the first screen and is promoted; B (2 ms, 0.2
// on item 0) is dominated by A's screen, 1 of 2 screens, not fewer than ceil(2/3) = 1: screened
// out; C (0.5 ms, 0.5) is dominated by none: promoted. Costs by hand: each screen is the
// overhead + item 0's time x (3 + 1) runs; a promoted point adds its full cost.
TEST(ReplayMultiFidelity, ScreensOnTheFirstItemAndCountsOnlyPromotedPointsInTheFront) {
  const fs::path path =
      fs::temp_directory_path() / ("flowtune_test_replay_mf_" + std::to_string(::getpid()) + ".db");
  fs::remove(path);
  {
    db::Repository repo(path.string());
    const std::int64_t run = begin_tvl1_run(repo);
    auto record = [&](int tx, double t0, double a0, double t1, double a1) {
      db::MeasurementRow m = tvl1_measurement(run, (t0 + t1) / 2, (a0 + a1) / 2);
      m.items = {{"first", t0, {{"aepe", a0}}}, {"second", t1, {{"aepe", a1}}}};
      repo.record_measurement(config(tx, 4), m);
    };
    record(16, 1.0, 0.1, 3.0, 0.3);   // A
    record(32, 2.0, 0.2, 0.1, 0.01);  // B: in full 1.05 ms, aepe 0.105 (the best)
    record(64, 0.5, 0.5, 0.5, 0.5);   // C
    repo.end_run(run, "done");
  }
  const db::Repository repo(path.string(), db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(repo, "host");
  ASSERT_EQ(rs.configs.size(), 3u);
  ASSERT_EQ(rs.configs[0].tunables.at("tile_x"), 16);
  ASSERT_EQ(rs.configs[1].tunables.at("tile_x"), 32);
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.budget = 10;
  ro.objectives = {"time_ms", "aepe"};
  ro.picks = {{"aepe", {}}};
  ro.multi_fidelity = true;
  const ReplayResult r = replay(rs, ro);
  const SeedResult& s = r.seeds[0];
  EXPECT_EQ(s.evaluations, 3u);
  EXPECT_EQ(s.screened_out, 1u);
  const double o = rs.overhead_s;
  const double screens = 3 * o + (1.0 + 2.0 + 0.5) * 4 / 1000;
  EXPECT_NEAR(s.cost_s, screens + rs.cost_s[0] + rs.cost_s[2], 1e-12);
  // B (full aepe 0.105, the recording's best) was screened out: the seed's best aepe is A's 0.2.
  EXPECT_DOUBLE_EQ(r.pick_optimum[0], 0.105);
  EXPECT_DOUBLE_EQ(s.picks[0], 0.2);
  // Without screening every point is measured in full.
  ro.multi_fidelity = false;
  const ReplayResult full = replay(rs, ro);
  EXPECT_EQ(full.seeds[0].screened_out, 0u);
  EXPECT_NEAR(full.seeds[0].cost_s, rs.cost_s[0] + rs.cost_s[1] + rs.cost_s[2], 1e-12);
  EXPECT_DOUBLE_EQ(full.seeds[0].picks[0], 0.105);
  fs::remove(path);
}

}  // namespace
}  // namespace flowtune
