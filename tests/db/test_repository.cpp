#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "db/repository.hpp"
#include "db/schema.hpp"

namespace flowtune::db {
namespace {

namespace fs = std::filesystem;

class RepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_db_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "flowtune.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string path_;
};

ConfigRow make_config(const std::string& board, int tile_x, int iterations) {
  ConfigRow c;
  c.board = board;
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}, {"tile_y", 4}};
  c.params = {{"iterations", iterations},
              {"n_scales", 3},
              {"n_warpings", 1},
              {"zoom", 0.5},
              {"epsilon", 0},
              {"tau", 0.25},
              {"lambda", 0.15},
              {"theta", 0.3}};
  c.key = config_key(c);
  c.label = "kokkos_global tile_x=" + std::to_string(tile_x);
  return c;
}

MeasurementRow make_measurement(std::int64_t run_id, double time_ms, double aepe) {
  MeasurementRow m;
  m.run_id = run_id;
  m.dataset = "middlebury:Grove2,RubberWhale";
  m.time_ms_median = time_ms;
  m.time_ms_min = time_ms - 0.5;
  m.time_ms_max = time_ms + 0.5;
  m.n_repeats = 5;
  m.ns_per_unit = time_ms * 1e6 / (640.0 * 480.0);
  m.metrics = {{"aepe", aepe}, {"aae_deg", aepe * 10}};
  m.items = {{"Grove2", time_ms - 1, {{"aepe", aepe - 0.1}, {"aae_deg", 1.5}}},
             {"RubberWhale", time_ms + 1, {{"aepe", aepe + 0.1}, {"aae_deg", 2.5}}}};
  return m;
}

RunInfo make_run(const std::string& board) {
  RunInfo r;
  r.board = board;
  r.workload = "tvl1";
  r.command = "tune --board " + board;
  r.git_revision = "abc123";
  r.host = "ci";
  r.dataset = "middlebury:Grove2,RubberWhale";
  return r;
}

TEST_F(RepositoryTest, NewDatabaseHasTheCurrentSchemaVersionInWalMode) {
  {
    Repository repo(path_);
    EXPECT_EQ(repo.schema_version(), kSchemaVersion);
    EXPECT_EQ(repo.journal_mode(), "wal");
  }
  // Checked independently of the repository, through SQLite itself.
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_EQ(raw.execAndGet("PRAGMA journal_mode").getString(), "wal");
  EXPECT_EQ(raw.execAndGet("SELECT max(version) FROM schema_version").getInt(), kSchemaVersion);
  for (const char* table :
       {"schema_version", "runs", "configs", "measurements", "metrics", "item_results", "pruned",
        "failures", "workloads", "metric_specs", "workers", "tasks"}) {
    EXPECT_TRUE(raw.tableExists(table)) << table;
  }
  EXPECT_FALSE(raw.tableExists("sequence_results"));
}

TEST_F(RepositoryTest, RecordsAndReadsBackEveryField) {
  Repository repo(path_);
  const std::int64_t run = repo.begin_run(make_run("host"));
  ASSERT_EQ(repo.runs("host").size(), 1u);
  EXPECT_EQ(repo.runs("host")[0].status, "running");
  EXPECT_EQ(repo.runs("host")[0].ended_at, "");

  const ConfigRow c1 = make_config("host", 32, 10);
  MeasurementRow m1 = make_measurement(run, 12.5, 0.4);
  m1.resources_json = "{\"registers\":32}";
  repo.record_measurement(c1, m1);
  const ConfigRow c2 = make_config("host", 64, 20);
  MeasurementRow m2 = make_measurement(run, 20.0, 0.3);
  m2.energy_mj = 123.5;
  m2.nj_per_unit = 401.9;
  m2.power_w = 6.2;
  m2.clock_mhz_observed = 1300;
  m2.metrics["aae_deg"] = std::nan("");
  repo.record_measurement(c2, m2);
  repo.end_run(run, "done");

  const auto got = repo.measured("host");
  ASSERT_EQ(got.size(), 2u);
  const MeasuredConfig& a = got[0];
  EXPECT_EQ(a.config.key, c1.key);
  EXPECT_EQ(a.config.label, c1.label);
  EXPECT_EQ(a.config.workload, "tvl1");
  EXPECT_EQ(a.config.tunables, c1.tunables);
  EXPECT_EQ(a.config.params, c1.params);
  EXPECT_DOUBLE_EQ(a.config.params.at("lambda"), 0.15);
  EXPECT_EQ(a.measurement.run_id, run);
  EXPECT_EQ(a.measurement.dataset, m1.dataset);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_median, 12.5);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_min, 12.0);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_max, 13.0);
  EXPECT_EQ(a.measurement.n_repeats, 5);
  EXPECT_DOUBLE_EQ(a.measurement.ns_per_unit, m1.ns_per_unit);
  EXPECT_FALSE(a.measurement.energy_mj.has_value());
  EXPECT_FALSE(a.measurement.clock_mhz_observed.has_value());
  EXPECT_DOUBLE_EQ(a.measurement.metric("aepe"), 0.4);
  EXPECT_DOUBLE_EQ(a.value("aepe"), 0.4);
  EXPECT_DOUBLE_EQ(a.value("time_ms"), 12.5);
  EXPECT_TRUE(std::isnan(a.value("energy_mj")));
  EXPECT_TRUE(std::isnan(a.value("no_such_metric")));
  EXPECT_EQ(a.measurement.resources_json, m1.resources_json);
  ASSERT_EQ(a.measurement.items.size(), 2u);
  EXPECT_EQ(a.measurement.items[0].item, "Grove2");
  EXPECT_DOUBLE_EQ(a.measurement.items[0].metrics.at("aepe"), 0.4 - 0.1);
  EXPECT_EQ(a.measurement.items[1].item, "RubberWhale");
  EXPECT_DOUBLE_EQ(a.measurement.items[1].time_ms, 13.5);
  EXPECT_FALSE(a.measured_at.empty());

  const MeasuredConfig& b = got[1];
  EXPECT_DOUBLE_EQ(*b.measurement.energy_mj, 123.5);
  EXPECT_DOUBLE_EQ(*b.measurement.nj_per_unit, 401.9);
  EXPECT_DOUBLE_EQ(*b.measurement.power_w, 6.2);
  EXPECT_EQ(*b.measurement.clock_mhz_observed, 1300);
  EXPECT_TRUE(std::isnan(b.measurement.metric("aae_deg")));

  // Missing energy is NULL in the file, never 0.
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM measurements WHERE energy_mj IS NULL").getInt(),
            1);
  EXPECT_EQ(raw.execAndGet("SELECT count(*) FROM measurements WHERE energy_mj = 0").getInt(), 0);

  const auto runs = repo.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].status, "done");
  EXPECT_FALSE(runs[0].ended_at.empty());
  EXPECT_EQ(runs[0].info.command, "tune --board host");
  EXPECT_EQ(runs[0].info.git_revision, "abc123");
  EXPECT_EQ(repo.boards(), std::vector<std::string>({"host"}));
  EXPECT_TRUE(repo.measured("host", "other-dataset").empty());
  EXPECT_EQ(repo.measured("host", m1.dataset).size(), 2u);
  EXPECT_TRUE(repo.measured("agx").empty());
}

TEST_F(RepositoryTest, ResumeSemanticsSurviveReopening) {
  const ConfigRow c = make_config("host", 32, 10);
  const std::string dataset = "middlebury:Grove2,RubberWhale";
  {
    Repository repo(path_);
    const std::int64_t run = repo.begin_run(make_run("host"));
    EXPECT_FALSE(repo.is_measured("host", c.key, dataset));
    repo.record_measurement(c, make_measurement(run, 10, 0.5));
    EXPECT_TRUE(repo.is_measured("host", c.key, dataset));
    EXPECT_FALSE(repo.is_measured("host", c.key, "middlebury:Venus"));
    EXPECT_FALSE(repo.is_measured("agx", c.key, dataset));

    const ConfigRow p = make_config("host", 4096, 10);
    EXPECT_FALSE(repo.is_pruned("host", p.key));
    repo.record_pruned(run, p, "tile larger than the frame");
    repo.record_pruned(run, p, "second reason is ignored");
    EXPECT_TRUE(repo.is_pruned("host", p.key));
    EXPECT_FALSE(repo.is_pruned("host", c.key));
  }
  Repository again(path_);
  EXPECT_EQ(again.schema_version(), kSchemaVersion);
  EXPECT_TRUE(again.is_measured("host", c.key, dataset));
  const std::int64_t run2 = again.begin_run(make_run("host"));
  EXPECT_THROW(again.record_measurement(c, make_measurement(run2, 11, 0.5)), DbError);
  EXPECT_EQ(again.measured("host").size(), 1u);
  const auto pruned = again.pruned("host");
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_EQ(pruned[0].reason, "tile larger than the frame");
  EXPECT_EQ(tunables_json(pruned[0].config.tunables), "{\"tile_x\":4096,\"tile_y\":4}");
  EXPECT_EQ(again.runs("host").size(), 2u);
}

TEST_F(RepositoryTest, MeasurementSurvivesSigkillRightAfterReturn) {
  const ConfigRow c = make_config("host", 16, 10);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      Repository repo(path_);
      const std::int64_t run = repo.begin_run(make_run("host"));
      repo.record_measurement(c, make_measurement(run, 9, 0.6));
    } catch (...) {
      ::_exit(3);
    }
    ::raise(SIGKILL);
    ::_exit(4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
  Repository repo(path_);
  EXPECT_TRUE(repo.is_measured("host", c.key, "middlebury:Grove2,RubberWhale"));
  ASSERT_EQ(repo.measured("host").size(), 1u);
  EXPECT_EQ(repo.measured("host")[0].measurement.items.size(), 2u);
  EXPECT_EQ(repo.runs()[0].status, "running");  // killed runs stay "running"
}

TEST_F(RepositoryTest, TwoConnectionsSeeEachOthersCommits) {
  Repository writer(path_);
  Repository reader(path_);
  const std::int64_t run = writer.begin_run(make_run("host"));
  writer.record_measurement(make_config("host", 8, 10), make_measurement(run, 5, 0.7));
  EXPECT_EQ(reader.measured("host").size(), 1u);
}

TEST_F(RepositoryTest, InvalidRunUpdatesAreRejected) {
  Repository repo(path_);
  const std::int64_t run = repo.begin_run(make_run("host"));
  EXPECT_THROW(repo.end_run(run, "finished"), DbError);
  RunInfo no_workload = make_run("host");
  no_workload.workload.clear();
  EXPECT_THROW(repo.begin_run(no_workload), DbError);
  EXPECT_THROW(repo.end_run(run + 100, "done"), DbError);
  // Foreign key: a measurement of an unknown run is refused, and nothing is left behind.
  EXPECT_THROW(
      repo.record_measurement(make_config("host", 8, 10), make_measurement(run + 100, 5, 0.7)),
      DbError);
  EXPECT_TRUE(repo.measured("host").empty());
  MeasurementRow nan_time = make_measurement(run, std::nan(""), 0.7);
  EXPECT_THROW(repo.record_measurement(make_config("host", 8, 10), nan_time), DbError);
}

// Runs `make` expecting a DbError whose message holds every one of `parts`.
template <typename F>
void expect_db_error(F make, const std::vector<std::string>& parts) {
  try {
    make();
    ADD_FAILURE() << "no DbError";
  } catch (const DbError& e) {
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "'" << e.what() << "' lacks '" << part << "'";
    }
  }
}

TEST_F(RepositoryTest, UnwritablePathErrorNamesThePath) {
  const std::string bad = (dir_ / "no_such_dir" / "flowtune.db").string();
  expect_db_error([&] { Repository r(bad); }, {bad, "cannot open"});
  expect_db_error([&] { Repository r(dir_.string()); }, {dir_.string()});
}

TEST_F(RepositoryTest, GarbageFileIsNotAnSqliteDatabase) {
  {
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < 512; ++i) out << "this is not an SQLite file. ";
  }
  expect_db_error([&] { Repository r(path_); }, {path_, "not an SQLite database"});
}

TEST_F(RepositoryTest, ForeignSqliteDatabaseIsRefusedAndLeftUntouched) {
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)");
  }
  expect_db_error([&] { Repository r(path_); }, {path_, "not a flowtune database", "photos"});
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_FALSE(raw.tableExists("runs"));
  EXPECT_FALSE(raw.tableExists("schema_version"));
}

TEST_F(RepositoryTest, NewerSchemaIsRefused) {
  { Repository repo(path_); }
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE);
    raw.exec("INSERT INTO schema_version(version, description) VALUES (7, 'from the future')");
  }
  expect_db_error([&] { Repository r(path_); }, {path_, "schema version 7", "newer"});
}

TEST(ConfigKey, CoversWorkloadVariantTunablesClockAndEveryParameter) {
  ConfigRow a = make_config("host", 32, 10);
  EXPECT_EQ(config_key(a),
            "tvl1 kokkos_global f32 {\"tile_x\":32,\"tile_y\":4} clock=0 "
            "{\"epsilon\":0,\"iterations\":10,\"lambda\":0.15,\"n_scales\":3,\"n_warpings\":1,"
            "\"tau\":0.25,\"theta\":0.3,\"zoom\":0.5}");
  const std::string base = config_key(a);
  for (const char* name : {"presmoothing_sigma", "lambda"}) {  // a new or a changed parameter
    ConfigRow b = a;
    b.params[name] = 0.7;
    EXPECT_NE(config_key(b), base) << name;
  }
  ConfigRow w = a;
  w.workload = "apsp";
  EXPECT_NE(config_key(w), base);
  // The JSON round trip keeps values exactly, and the key is the same after it.
  ConfigRow back = parse_config_json(config_json(a));
  back.board = a.board;
  EXPECT_EQ(back.params, a.params);
  EXPECT_EQ(back.tunables, a.tunables);
  EXPECT_EQ(back.key, base);
  EXPECT_THROW(parse_config_json("{\"workload\":\"tvl1\"}"), std::invalid_argument);
  EXPECT_THROW(parse_params_json("{\"lambda\":\"x\"}"), std::invalid_argument);
  EXPECT_THROW(parse_tunables_json("{\"tile_x\":1.5}"), std::invalid_argument);
}

TEST_F(RepositoryTest, FailuresAreRecordedPerDatasetWithTheirClass) {
  Repository repo(path_);
  const std::int64_t run = repo.begin_run(make_run("host"));
  const ConfigRow c = make_config("host", 32, 10);
  EXPECT_EQ(repo.failure_class("host", c.key, "d1"), "");
  repo.record_failure(run, c, "d1", "accuracy", "apsp: 3 mismatches");
  EXPECT_EQ(repo.failure_class("host", c.key, "d1"), "accuracy");
  EXPECT_EQ(repo.failure_class("host", c.key, "d2"), "");  // another dataset: not failed
  EXPECT_FALSE(repo.is_pruned("host", c.key));             // failed is never pruned
  EXPECT_THROW(repo.record_failure(run, c, "d1", "bad-luck", "x"), DbError);
  const auto failures = repo.failures("host");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].message, "apsp: 3 mismatches");
  EXPECT_EQ(failures[0].config.key, c.key);
}

TEST_F(RepositoryTest, WorkloadSpecsAndResultViewsAnswerInOneSelect) {
  Repository repo(path_);
  WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "endpoint error", true}, {"aae_deg", "deg", "angular error", true}};
  repo.record_workload(w);
  repo.record_workload(w);  // idempotent
  const WorkloadRow back = repo.workload("tvl1");
  EXPECT_EQ(back.front_objectives, w.front_objectives);
  ASSERT_EQ(back.metrics.size(), 2u);
  EXPECT_EQ(back.metrics[1].unit, "deg");
  EXPECT_THROW(repo.workload("nope"), DbError);

  const std::int64_t run = repo.begin_run(make_run("host"));
  repo.record_measurement(make_config("host", 32, 10), make_measurement(run, 12.5, 0.4));
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  SQLite::Statement q(raw,
                      "SELECT label, time_ms, json_extract(params_json, '$.iterations'), "
                      "json_extract(metrics_json, '$.aepe') FROM results");
  ASSERT_TRUE(q.executeStep());
  EXPECT_EQ(q.getColumn(0).getString(), "kokkos_global tile_x=32");
  EXPECT_DOUBLE_EQ(q.getColumn(1).getDouble(), 12.5);
  EXPECT_EQ(q.getColumn(2).getInt(), 10);
  EXPECT_DOUBLE_EQ(q.getColumn(3).getDouble(), 0.4);
  EXPECT_DOUBLE_EQ(
      raw.execAndGet("SELECT value FROM result_values WHERE name = 'lambda'").getDouble(), 0.15);
  EXPECT_DOUBLE_EQ(raw.execAndGet("SELECT value FROM result_values WHERE kind = 'metric' AND "
                                  "name = 'aae_deg'")
                       .getDouble(),
                   4.0);
}

// tests/db/fixtures/v1_flowtune.db was written by the v1 release (commit a3ff508):
// `tune --board host --variant kokkos_global --tunable tile_x=32 --tunable tile_y=4
// --iterations 2,3 --n-scales 3 --sequences RubberWhale --min-rounds 1 --min-window-ms 0`,
// then the same with tile_x=2048 (pruned).
TEST_F(RepositoryTest, Version1DatabaseMigratesKeepingEveryRow) {
  fs::copy_file(fs::path(FLOWTUNE_TEST_SOURCE_DIR) / "tests/db/fixtures/v1_flowtune.db", path_);
  {
    SQLite::Database raw(path_, SQLite::OPEN_READONLY);
    ASSERT_EQ(raw.execAndGet("SELECT max(version) FROM schema_version").getInt(), 1);
  }
  Repository repo(path_);
  EXPECT_EQ(repo.schema_version(), kSchemaVersion);
  const auto measured = repo.measured("host");
  ASSERT_EQ(measured.size(), 2u);
  const MeasuredConfig& m = measured[1];
  EXPECT_EQ(m.config.workload, "tvl1");
  EXPECT_EQ(m.config.params.at("iterations"), 3);
  EXPECT_EQ(m.config.params.at("n_scales"), 3);
  EXPECT_DOUBLE_EQ(m.config.params.at("presmoothing_sigma"), 0.8);  // fixed in v1, explicit now
  EXPECT_DOUBLE_EQ(m.config.params.at("lambda"), 0.15);
  EXPECT_EQ(m.config.key, config_key(m.config));  // re-keyed: a resumed run finds it
  EXPECT_NEAR(m.measurement.metric("aepe"), 0.637427103158306, 1e-12);  // the v1 value
  ASSERT_EQ(m.measurement.items.size(), 1u);
  EXPECT_EQ(m.measurement.items[0].item, "RubberWhale");
  EXPECT_NEAR(m.measurement.items[0].metrics.at("aae_deg"), 21.3646671082299, 1e-9);
  EXPECT_GT(m.measurement.ns_per_unit, 0);
  const auto pruned = repo.pruned("host");
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_NE(pruned[0].reason.find("tile_x=2048"), std::string::npos);
  EXPECT_EQ(repo.workload("tvl1").front_objectives, (std::vector<std::string>{"time_ms", "aepe"}));
  ASSERT_EQ(repo.runs("host").size(), 2u);
  EXPECT_EQ(repo.runs("host")[0].info.workload, "tvl1");
  // The migrated file still passes SQLite's own checks.
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_EQ(raw.execAndGet("PRAGMA integrity_check").getString(), "ok");
  SQLite::Statement fk(raw, "PRAGMA foreign_key_check");
  EXPECT_FALSE(fk.executeStep()) << "foreign key violation in " << fk.getColumn(0).getString();
}

}  // namespace
}  // namespace flowtune::db
