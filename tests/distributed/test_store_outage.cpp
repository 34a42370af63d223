// Store outages during a distributed run (a part fails, the run goes on): the SQLite write
// lock held by another connection for longer than the busy timeout, and the PostgreSQL
// server stopped with `pg_ctl stop -m immediate` and started again. The coordinator and its
// workers retry with backoff and finish the run, every point measured exactly once; past
// --store-retry-s they stop with an error naming the store, the dead run reads as aborted
// (never running) and the same command resumes it. Fake measurer: tests/doubles.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "../db/postgres_server.hpp"
#include "db/repository.hpp"
#include "tests/distributed/host_space.hpp"
#include "tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using test::measured_ends;
using test::read_text;
using test::spawn_tune;
using test::wait_exit;

using test::kSpace;
using test::kSpaceSize;

class StoreOutage : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_store_outage_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    log_path_ = (dir_ / "measured.log").string();
  }
  void TearDown() override {
    if (HasFailure())
      std::cerr << "logs kept in " << dir_ << '\n';
    else
      fs::remove_all(dir_);
  }
  std::map<std::string, std::string> env(int sleep_ms) const {
    return {{"FLOWTUNE_TEST_FAKE_MEASURE", std::to_string(sleep_ms)},
            {"FLOWTUNE_TEST_FAKE_MEASURE_LOG", log_path_}};
  }
  // Waits until run 1 of store has at least n finished tasks; false after 60 s.
  static bool wait_done(const std::string& store, std::size_t n) {
    for (const auto t0 = Clock::now(); Clock::now() - t0 < std::chrono::seconds(60);) {
      try {
        const db::Repository repo(store, db::OpenMode::read_only);
        if (!repo.runs().empty() && repo.task_counts(repo.runs().back().id).done >= n) return true;
      } catch (const db::DbError&) {  // not created yet
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  // Every point of the space has exactly one measurement row in the store.
  static void expect_each_point_stored_once(const std::string& store) {
    const db::Repository repo(store, db::OpenMode::read_only);
    const std::vector<db::MeasuredConfig> measured = repo.measured("host");
    EXPECT_EQ(measured.size(), kSpaceSize);
    std::set<std::string> keys;
    for (const db::MeasuredConfig& mc : measured) keys.insert(mc.config.key);
    EXPECT_EQ(keys.size(), kSpaceSize);
  }

  fs::path dir_;
  std::string log_path_;
};

// Holds SQLite's write lock on path (BEGIN IMMEDIATE on its own connection) for seconds.
void hold_write_lock(const std::string& path, double seconds) {
  SQLite::Database db(path, SQLite::OPEN_READWRITE, 10000);
  db.exec("BEGIN IMMEDIATE");
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  db.exec("COMMIT");
}

TEST_F(StoreOutage, SqliteLockedBeyondTheBusyTimeoutIsRetriedAndTheRunMeasuresEachPointOnce) {
  const std::string store = (dir_ / "locked.db").string();
  std::vector<std::string> args = kSpace;
  args.insert(args.end(), {"--storage", store, "--workers", "2", "--lease-s", "30"});
  const pid_t coordinator = spawn_tune(args, env(150), (dir_ / "run.json").string());
  ASSERT_TRUE(wait_done(store, 3));
  // 7 s: longer than the 5 s busy timeout of every connection of the run.
  hold_write_lock(store, 7);
  ASSERT_EQ(wait_exit(coordinator), 0) << read_text(dir_ / "run.json.log");

  const std::string log = read_text(dir_ / "run.json.log");
  EXPECT_NE(log.find("database is locked"), std::string::npos) << log;
  EXPECT_NE(log.find("retrying for up to"), std::string::npos) << log;
  const std::map<std::string, int> ends = measured_ends(log_path_);
  EXPECT_EQ(ends.size(), kSpaceSize);
  for (const auto& [key, n] : ends) EXPECT_EQ(n, 1) << key;
  expect_each_point_stored_once(store);
  const db::Repository repo(store, db::OpenMode::read_only);
  EXPECT_EQ(repo.runs().back().status, "done");
  EXPECT_EQ(repo.task_counts(repo.runs().back().id).done, kSpaceSize);
}

TEST_F(StoreOutage, SqliteLockedBeyondTheRetryLimitStopsTheRunWhichResumesLater) {
  const std::string store = (dir_ / "locked.db").string();
  std::vector<std::string> args = kSpace;
  args.insert(args.end(),
              {"--storage", store, "--workers", "2", "--lease-s", "30", "--store-retry-s", "1"});
  const pid_t coordinator = spawn_tune(args, env(150), (dir_ / "first.json").string());
  ASSERT_TRUE(wait_done(store, 3));
  std::thread lock([&] { hold_write_lock(store, 10); });  // > 5 s busy timeout + 1 s retries
  const int first_exit = wait_exit(coordinator);
  lock.join();
  const std::string log = read_text(dir_ / "first.json.log");
  EXPECT_EQ(first_exit, 1) << log;
  EXPECT_NE(log.find(store + ": "), std::string::npos) << log;  // names the store
  EXPECT_NE(log.find("the store stayed unavailable for"), std::string::npos) << log;
  EXPECT_NE(log.find("the same command resumes the run"), std::string::npos) << log;
  {
    // The dead run is not shown as running (read-only, as `tune status` reads it).
    const db::Repository repo(store, db::OpenMode::read_only);
    ASSERT_EQ(repo.runs().size(), 1u);
    EXPECT_NE(repo.runs()[0].status, "running");
  }
  const pid_t status_pid =
      spawn_tune({"status", "--storage", store, "--json"}, {}, (dir_ / "status.json").string());
  ASSERT_EQ(wait_exit(status_pid), 0);
  EXPECT_NE(nlohmann::json::parse(read_text(dir_ / "status.json")).at(0).at("status"), "running");

  // The same command again: the dead run is closed (its claims released, its workers
  // signed off) and the points it had not stored are measured.
  const pid_t again = spawn_tune(args, env(0), (dir_ / "second.json").string());
  ASSERT_EQ(wait_exit(again), 0) << read_text(dir_ / "second.json.log");
  expect_each_point_stored_once(store);
  const db::Repository repo(store, db::OpenMode::read_only);
  ASSERT_EQ(repo.runs().size(), 2u);
  EXPECT_NE(repo.runs()[0].status, "running");
  EXPECT_EQ(repo.runs()[1].status, "done");
  const db::TaskCounts first = repo.task_counts(repo.runs()[0].id);
  EXPECT_EQ(first.pending + first.claimed, 0u);
  for (const db::WorkerRow& w : repo.workers(repo.runs()[0].id)) EXPECT_EQ(w.status, "exited");
}

TEST(StoreOutagePostgresql, ServerStoppedImmediatelyAndRestartedTheRunGoesOnEachPointOnce) {
  if (!db::postgresql_supported()) GTEST_SKIP() << "this build has no PostgreSQL store";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_pg_outage_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  bool keep = true;
  {
    test::PostgresServer server(dir / "pg");
    if (!server.available()) GTEST_SKIP() << server.why_not();
    const std::string store = server.create_database("outage");
    const std::string log_path = (dir / "measured.log").string();
    std::vector<std::string> args = kSpace;
    args.insert(args.end(), {"--storage", store, "--workers", "2", "--lease-s", "30"});
    const pid_t coordinator = spawn_tune(
        args, {{"FLOWTUNE_TEST_FAKE_MEASURE", "150"}, {"FLOWTUNE_TEST_FAKE_MEASURE_LOG", log_path}},
        (dir / "run.json").string());
    bool started = false;
    for (const auto t0 = Clock::now(); !started && Clock::now() - t0 < std::chrono::seconds(60);) {
      try {
        const db::Repository repo(store, db::OpenMode::read_only);
        started = !repo.runs().empty() && repo.task_counts(repo.runs().back().id).done >= 3;
      } catch (const db::DbError&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(started);
    server.stop_immediately();
    std::this_thread::sleep_for(std::chrono::seconds(2));
    ASSERT_TRUE(server.start());
    ASSERT_EQ(wait_exit(coordinator), 0) << read_text(dir / "run.json.log");

    const std::string log = read_text(dir / "run.json.log");
    EXPECT_NE(log.find("retrying for up to"), std::string::npos) << log;
    const std::map<std::string, int> ends = measured_ends(log_path);
    EXPECT_EQ(ends.size(), kSpaceSize);
    for (const auto& [key, n] : ends) EXPECT_EQ(n, 1) << key;
    const db::Repository repo(store, db::OpenMode::read_only);
    EXPECT_EQ(repo.measured("host").size(), kSpaceSize);
    EXPECT_EQ(repo.runs().back().status, "done");
    keep = ::testing::Test::HasFailure();
  }
  if (keep)
    std::cerr << "logs kept in " << dir << '\n';
  else
    fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
