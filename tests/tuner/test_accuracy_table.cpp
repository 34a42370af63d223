// The accuracy table (tuner/accuracy_table.hpp): keys, the skip rule against hand-computed
// slacks, the re-check, loading from a store, and a replay that skips what the table rules
// out while finding the same optimum.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "db/repository.hpp"
#include "tests/tuner/tvl1_test_store.hpp"
#include "tuner/accuracy_table.hpp"
#include "tuner/replay.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

db::ConfigRow row(const std::string& board, const std::string& variant, int tile, double lambda,
                  const std::string& precision = "f32") {
  db::ConfigRow c;
  c.board = board;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = {{"tile_x", tile}};
  c.label = variant + " " + precision + " " + std::to_string(tile);
  c.params = {{"iterations", 10}, {"lambda", lambda}};
  c.key = db::config_key(c);
  return c;
}

db::MeasuredConfig measured(const db::ConfigRow& c, double time_ms, double aepe) {
  db::MeasuredConfig mc;
  mc.config = c;
  mc.measurement = testing_store::tvl1_measurement(0, time_ms, aepe);
  return mc;
}

Objective aepe_objective() {
  return {"aepe", "px", true};
}
Objective time_objective() {
  return {"time_ms", "ms", true};
}

TEST(AccuracyTable, TheKeyIsTheWorkloadPrecisionAndParametersOnly) {
  const db::ConfigRow a = row("h200", "global", 32, 0.15);
  EXPECT_EQ(AccuracyTable::key_of(a), R"(tvl1 f32 {"iterations":10,"lambda":0.15})");
  EXPECT_EQ(AccuracyTable::key_of(a),
            AccuracyTable::key_of(row("agx-orin", "shared_pipeline", 8, 0.15)));
  EXPECT_NE(AccuracyTable::key_of(a),
            AccuracyTable::key_of(row("h200", "global", 32, 0.15, "f16")));
  EXPECT_NE(AccuracyTable::key_of(a), AccuracyTable::key_of(row("h200", "global", 32, 0.3)));
}

TEST(AccuracyTable, KeepsTheRangeOfEachMetricAndTheBoards) {
  AccuracyTable t;
  t.add(measured(row("h200", "global", 32, 0.15), 1, 0.30));
  t.add(measured(row("h100", "shared_fusion", 16, 0.15), 2, 0.28));
  db::MeasuredConfig nan = measured(row("host", "kokkos_global", 32, 0.15), 3, 0);
  nan.measurement.metrics["aepe"] = std::numeric_limits<double>::quiet_NaN();
  t.add(nan);
  ASSERT_EQ(t.size(), 1u);
  const AccuracyEntry* e = t.find(row("agx", "global", 64, 0.15));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->rows, 3u);
  EXPECT_DOUBLE_EQ(e->lo.at("aepe"), 0.28);  // the NaN row adds no value
  EXPECT_DOUBLE_EQ(e->hi.at("aepe"), 0.30);
  EXPECT_EQ(t.boards(), (std::set<std::string>{"h100", "h200", "host"}));
  EXPECT_EQ(t.find(row("agx", "global", 64, 0.2)), nullptr);
}

// Slack (lo - max) / |max| with lo the key's lowest value: hand-computed for a bound of 0.25.
TEST(AccuracyTable, SkipsOnlyWhatBreaksAMetricBoundBeyondTheTolerance) {
  AccuracyTable t;
  t.add(measured(row("h200", "global", 32, 0.1), 1, 0.26));    // slack 0.04
  t.add(measured(row("h200", "global", 32, 0.2), 1, 0.2515));  // slack 0.006
  t.add(measured(row("h200", "global", 32, 0.3), 1, 0.20));    // slack -0.2
  const std::vector<std::pair<Objective, double>> bound = {{aepe_objective(), 0.25}};
  std::vector<double> slack;
  EXPECT_TRUE(t.known_infeasible(row("agx", "x", 1, 0.1), bound, 0.01, &slack));
  ASSERT_EQ(slack.size(), 1u);
  EXPECT_NEAR(slack[0], 0.04, 1e-12);
  EXPECT_FALSE(t.known_infeasible(row("agx", "x", 1, 0.2), bound, 0.01, &slack));
  EXPECT_NEAR(slack[0], 0.006, 1e-12);
  EXPECT_TRUE(t.known_infeasible(row("agx", "x", 1, 0.2), bound, 0.005));
  EXPECT_FALSE(t.known_infeasible(row("agx", "x", 1, 0.3), bound, 0.01));
  // Unknown keys and figures the table lacks (time) decide nothing.
  EXPECT_FALSE(t.known_infeasible(row("agx", "x", 1, 0.9), bound, 0.01, &slack));
  EXPECT_TRUE(std::isnan(slack[0]));
  EXPECT_FALSE(t.known_infeasible(row("agx", "x", 1, 0.1), {{time_objective(), 0.001}}, 0.01));
}

TEST(AccuracyTable, AgreementIsTheDistanceOutsideTheTablesRange) {
  AccuracyTable t;
  t.add(measured(row("h200", "global", 32, 0.1), 1, 0.20));
  t.add(measured(row("h200", "global", 64, 0.1), 1, 0.22));
  const AccuracyAgreement a = accuracy_agreement(
      t, {measured(row("agx", "global", 8, 0.1), 5, 0.21),   // inside [0.20, 0.22]: 0
          measured(row("agx", "global", 8, 0.1), 5, 0.25),   // |0.25 - 0.22| / 0.25 = 0.12
          measured(row("agx", "global", 8, 0.7), 5, 9.0)});  // no key
  EXPECT_EQ(a.rows, 3u);
  EXPECT_EQ(a.rows_with_key, 2u);
  EXPECT_NEAR(a.max_relative_difference.at("aepe"), 0.12, 1e-12);
}

class AccuracyStore : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_accuracy_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // A store of one run on `board` and dataset "d": per lambda of lambdas and tile of tiles, time
  // 1 + |log2(tile / 32)| + lambda ms and AEPE 1 - lambda (the parameters' alone).
  std::string write(const std::string& name, const std::string& board,
                    const std::vector<double>& lambdas, const std::vector<int>& tiles) {
    const std::string path = (dir_ / name).string();
    db::Repository repo(path);
    const std::int64_t run = testing_store::begin_tvl1_run(repo, board);
    for (double lambda : lambdas)
      for (int tile : tiles) {
        db::MeasuredConfig mc = measured(row(board, "global", tile, lambda),
                                         1 + std::abs(std::log2(tile / 32.0)) + lambda, 1 - lambda);
        mc.measurement.run_id = run;
        repo.record_measurement(mc.config, mc.measurement);
      }
    repo.end_run(run, "done");
    return path;
  }
  fs::path dir_;
};

TEST_F(AccuracyStore, LoadsEveryBoardOfTheDatasetAndNamesTheStoreWhenItHasNone) {
  const std::string path = write("a.db", "h100", {0.1, 0.2, 0.3}, {32, 64});
  const db::Repository repo(path, db::OpenMode::read_only);
  const AccuracyTable t = load_accuracy_table(repo, path, "tvl1", "d");
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.find(row("h200", "global", 16, 0.2))->rows, 2u);
  try {
    load_accuracy_table(repo, path, "tvl1", "middlebury:Grove2");
    FAIL() << "no throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("middlebury:Grove2"), std::string::npos) << what;
    EXPECT_NE(what.find("it holds d"), std::string::npos) << what;
  }
}

// The board: 8 lambdas x 4 tiles; AEPE <= 0.45 holds for lambda >= 0.55 (3 of 8). The table
// from another board's store rules out the other 5 lambdas (20 points) without timing them;
// brute force then evaluates the 12 feasible points and finds the same optimum (lambda 0.6 is
// the fastest feasible: 1 + 0.6 ms at tile 32).
TEST_F(AccuracyStore, AReplaySkipsWhatTheTableRulesOutAndFindsTheSameOptimum) {
  const std::vector<double> lambdas = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
  const std::string board_db = write("board.db", "agx", lambdas, {16, 32, 64, 128});
  const std::string other_db = write("other.db", "h200", lambdas, {32});
  const db::Repository board_repo(board_db, db::OpenMode::read_only);
  const db::Repository other_repo(other_db, db::OpenMode::read_only);
  const RecordedSpace rs = load_recorded_space(board_repo, "agx");
  const AccuracyTable table = load_accuracy_table(other_repo, other_db, "tvl1", "d");
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.budget = 100;
  ro.objectives = {"time_ms"};
  ro.constraints = {{"aepe", 0.45}};
  const ReplayResult without = replay(rs, ro);
  ro.accuracy = &table;
  const ReplayResult with = replay(rs, ro);
  EXPECT_EQ(without.seeds[0].evaluations, 32u);
  EXPECT_EQ(with.seeds[0].evaluations, 12u);
  EXPECT_EQ(with.seeds[0].not_timed, 20u);
  EXPECT_DOUBLE_EQ(with.optimum, 1.6);
  EXPECT_DOUBLE_EQ(with.seeds[0].best, 1.6);
  EXPECT_LT(with.seeds[0].cost_s, without.seeds[0].cost_s);
  EXPECT_GT(with.seeds[0].cost_to_within_s, 0);
}

}  // namespace
}  // namespace flowtune
