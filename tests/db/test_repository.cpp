#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>

#include "db/repository.hpp"

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
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables_json = "{\"tile_x\":" + std::to_string(tile_x) + ",\"tile_y\":4}";
  c.iterations = iterations;
  c.n_scales = 3;
  c.n_warpings = 1;
  c.zoom = 0.5;
  c.epsilon = 0;
  c.tau = 0.25;
  c.lambda = 0.15;
  c.theta = 0.3;
  c.key =
      "kokkos_global f32 tile_x=" + std::to_string(tile_x) + " it=" + std::to_string(iterations);
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
  m.ns_per_px = time_ms * 1e6 / (640.0 * 480.0);
  m.aepe = aepe;
  m.aae_deg = aepe * 10;
  m.sequences = {{"Grove2", time_ms - 1, aepe - 0.1, 1.5},
                 {"RubberWhale", time_ms + 1, aepe + 0.1, 2.5}};
  return m;
}

RunInfo make_run(const std::string& board) {
  RunInfo r;
  r.board = board;
  r.command = "tune --board " + board;
  r.git_revision = "abc123";
  r.host = "ci";
  r.dataset = "middlebury:Grove2,RubberWhale";
  return r;
}

TEST_F(RepositoryTest, NewDatabaseHasSchemaVersion1InWalMode) {
  {
    Repository repo(path_);
    EXPECT_EQ(repo.schema_version(), 1);
    EXPECT_EQ(repo.journal_mode(), "wal");
  }
  // Checked independently of the repository, through SQLite itself.
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_EQ(raw.execAndGet("PRAGMA journal_mode").getString(), "wal");
  EXPECT_EQ(raw.execAndGet("SELECT max(version) FROM schema_version").getInt(), 1);
  for (const char* table :
       {"schema_version", "runs", "configs", "measurements", "sequence_results", "pruned"}) {
    EXPECT_TRUE(raw.tableExists(table)) << table;
  }
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
  m2.nj_per_px = 401.9;
  m2.power_w = 6.2;
  m2.clock_mhz_observed = 1300;
  m2.aae_deg = std::nan("");
  repo.record_measurement(c2, m2);
  repo.end_run(run, "done");

  const auto got = repo.measured("host");
  ASSERT_EQ(got.size(), 2u);
  const MeasuredConfig& a = got[0];
  EXPECT_EQ(a.config.key, c1.key);
  EXPECT_EQ(a.config.label, c1.label);
  EXPECT_EQ(a.config.tunables_json, c1.tunables_json);
  EXPECT_EQ(a.config.iterations, 10);
  EXPECT_EQ(a.config.n_scales, 3);
  EXPECT_DOUBLE_EQ(a.config.lambda, 0.15);
  EXPECT_EQ(a.measurement.run_id, run);
  EXPECT_EQ(a.measurement.dataset, m1.dataset);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_median, 12.5);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_min, 12.0);
  EXPECT_DOUBLE_EQ(a.measurement.time_ms_max, 13.0);
  EXPECT_EQ(a.measurement.n_repeats, 5);
  EXPECT_DOUBLE_EQ(a.measurement.ns_per_px, m1.ns_per_px);
  EXPECT_FALSE(a.measurement.energy_mj.has_value());
  EXPECT_FALSE(a.measurement.clock_mhz_observed.has_value());
  EXPECT_DOUBLE_EQ(a.measurement.aepe, 0.4);
  EXPECT_EQ(a.measurement.resources_json, m1.resources_json);
  ASSERT_EQ(a.measurement.sequences.size(), 2u);
  EXPECT_EQ(a.measurement.sequences[0].sequence, "Grove2");
  EXPECT_DOUBLE_EQ(a.measurement.sequences[0].aepe, 0.4 - 0.1);
  EXPECT_EQ(a.measurement.sequences[1].sequence, "RubberWhale");
  EXPECT_DOUBLE_EQ(a.measurement.sequences[1].time_ms, 13.5);
  EXPECT_FALSE(a.measured_at.empty());

  const MeasuredConfig& b = got[1];
  EXPECT_DOUBLE_EQ(*b.measurement.energy_mj, 123.5);
  EXPECT_DOUBLE_EQ(*b.measurement.nj_per_px, 401.9);
  EXPECT_DOUBLE_EQ(*b.measurement.power_w, 6.2);
  EXPECT_EQ(*b.measurement.clock_mhz_observed, 1300);
  EXPECT_TRUE(std::isnan(b.measurement.aae_deg));

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
  EXPECT_EQ(again.schema_version(), 1);
  EXPECT_TRUE(again.is_measured("host", c.key, dataset));
  const std::int64_t run2 = again.begin_run(make_run("host"));
  EXPECT_THROW(again.record_measurement(c, make_measurement(run2, 11, 0.5)), DbError);
  EXPECT_EQ(again.measured("host").size(), 1u);
  const auto pruned = again.pruned("host");
  ASSERT_EQ(pruned.size(), 1u);
  EXPECT_EQ(pruned[0].reason, "tile larger than the frame");
  EXPECT_EQ(pruned[0].config.tunables_json, "{\"tile_x\":4096,\"tile_y\":4}");
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
  EXPECT_EQ(repo.measured("host")[0].measurement.sequences.size(), 2u);
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

}  // namespace
}  // namespace flowtune::db
