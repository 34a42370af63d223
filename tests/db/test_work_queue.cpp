// Tasks claimed with a lease, heartbeats, exactly-once finishing (db/work_queue.cpp), and
// the v2 -> v3 migration that adds the workers and tasks tables; on SQLite and PostgreSQL.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "db/repository.hpp"
#include "db/schema.hpp"
#include "postgres_server.hpp"
#include "tests/test_dir.hpp"

namespace flowtune::db {
namespace {

namespace fs = std::filesystem;

fs::path test_dir() {
  return test::per_test_dir("flowtune_test_queue");
}

// The same tests on an SQLite file and on a PostgreSQL database of a throw-away server
// (skipped where there is none).
class WorkQueueTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    if (postgresql_supported())
      server_ = new test::PostgresServer(fs::temp_directory_path() /
                                         ("flowtune_test_queue_pg_" + std::to_string(::getpid())));
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    fs::remove_all(fs::temp_directory_path() /
                   ("flowtune_test_queue_pg_" + std::to_string(::getpid())));
  }
  void SetUp() override {
    dir_ = test_dir();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "flowtune.db").string();
    if (GetParam() == "postgresql") {
      if (!server_ || !server_->available())
        GTEST_SKIP() << (server_ ? server_->why_not() : "this build has no PostgreSQL store");
      static int n = 0;
      path_ = server_->create_database("queue" + std::to_string(++n));
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  static test::PostgresServer* server_;
  fs::path dir_;
  std::string path_;
};
test::PostgresServer* WorkQueueTest::server_ = nullptr;

class SqliteMigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_dir();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "flowtune.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::string path_;
};

const char* const kDataset = "host:a,b";

ConfigRow config(int tile_x) {
  ConfigRow c;
  c.board = "host";
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}};
  c.params = {{"iterations", 10}};
  c.key = config_key(c);
  c.label = "tile_x=" + std::to_string(tile_x);
  return c;
}

MeasurementRow measurement(std::int64_t run_id, double time_ms) {
  MeasurementRow m;
  m.run_id = run_id;
  m.dataset = kDataset;
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 1;
  m.ns_per_unit = time_ms;
  m.metrics = {{"aepe", 0.5}};
  return m;
}

std::int64_t begin(Repository& repo) {
  RunInfo info;
  info.board = "host";
  info.workload = "tvl1";
  info.dataset = kDataset;
  return repo.begin_run(info);
}

TEST_P(WorkQueueTest, ClaimsAreExclusiveAndPublishingTwiceKeepsOneTask) {
  Repository repo(path_);
  const std::int64_t run = begin(repo);
  const std::int64_t t1 = repo.publish_task(run, config(1).key, "{\"n\":1}", 100);
  const std::int64_t t2 = repo.publish_task(run, config(2).key, "{\"n\":2}", 100);
  EXPECT_EQ(repo.publish_task(run, config(1).key, "{\"other\":1}", 101), t1);
  const std::int64_t a = repo.register_worker(run, "h", 11, "", 100);
  const std::int64_t b = repo.register_worker(run, "h", 12, "", 100);
  const auto ca = repo.claim_task(run, a, 100, 10);
  const auto cb = repo.claim_task(run, b, 100, 10);
  ASSERT_TRUE(ca && cb);
  EXPECT_EQ(ca->id, t1);
  EXPECT_EQ(ca->request_json, "{\"n\":1}");  // the first publication is kept
  EXPECT_EQ(cb->id, t2);
  EXPECT_EQ(ca->attempts, 1);
  EXPECT_FALSE(repo.claim_task(run, a, 101, 10));  // both held, none pending
  const TaskCounts c = repo.task_counts(run);
  EXPECT_EQ(c.claimed, 2u);
  EXPECT_EQ(c.pending, 0u);
  EXPECT_THROW(repo.register_worker(run + 7, "h", 1, "", 0), DbError);
}

TEST_P(WorkQueueTest, AnExpiredLeaseIsClaimedAgainAndOnlyItsNewHolderFinishesIt) {
  Repository repo(path_);
  const std::int64_t run = begin(repo);
  const ConfigRow c1 = config(1);
  const std::int64_t t1 = repo.publish_task(run, c1.key, "{}", 100);
  const std::int64_t dead = repo.register_worker(run, "h", 11, "", 100);
  const std::int64_t live = repo.register_worker(run, "h", 12, "", 100);
  ASSERT_TRUE(repo.claim_task(run, dead, 100, 10));
  EXPECT_FALSE(repo.claim_task(run, live, 109.9, 10));  // lease runs to 110
  const auto again = repo.claim_task(run, live, 110.1, 10);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, t1);
  EXPECT_EQ(again->attempts, 2);
  EXPECT_EQ(again->worker_id, live);
  // The first holder comes back late: nothing of it is written.
  EXPECT_FALSE(repo.finish_task_measured(t1, dead, c1, measurement(run, 9), 111));
  EXPECT_FALSE(repo.is_measured("host", c1.key, kDataset));
  EXPECT_EQ(repo.heartbeat(dead, 111, 10), 0u);
  EXPECT_TRUE(repo.finish_task_measured(t1, live, c1, measurement(run, 3), 112));
  const auto m = repo.measurement_of("host", c1.key, kDataset);
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->measurement.time_ms_median, 3);
  EXPECT_FALSE(repo.finish_task_measured(t1, live, c1, measurement(run, 4), 113));  // done
  const std::vector<TaskRow> done = repo.finished_tasks(run);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].state, "done");
  EXPECT_DOUBLE_EQ(done[0].finished_s, 112);
  EXPECT_TRUE(repo.finished_tasks(run, t1).empty());
  const TaskCounts counts = repo.task_counts(run);
  EXPECT_EQ(counts.done, 1u);
  EXPECT_DOUBLE_EQ(counts.mean_task_s, 112 - 110.1);
}

TEST_P(WorkQueueTest, HeartbeatsKeepTheLease) {
  Repository repo(path_);
  const std::int64_t run = begin(repo);
  repo.publish_task(run, config(1).key, "{}", 100);
  const std::int64_t a = repo.register_worker(run, "h", 11, "CUDA_VISIBLE_DEVICES=0", 100);
  const std::int64_t b = repo.register_worker(run, "h", 12, "CUDA_VISIBLE_DEVICES=1", 100);
  ASSERT_TRUE(repo.claim_task(run, a, 100, 10));
  EXPECT_EQ(repo.heartbeat(a, 108, 10), 1u);  // lease now runs to 118
  EXPECT_FALSE(repo.claim_task(run, b, 115, 10));
  EXPECT_TRUE(repo.claim_task(run, b, 118.5, 10));
  const std::vector<WorkerRow> w = repo.workers(run);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_DOUBLE_EQ(w[0].heartbeat_s, 108);
  EXPECT_EQ(w[1].gpu, "CUDA_VISIBLE_DEVICES=1");
  repo.end_worker(a);
  EXPECT_EQ(repo.workers(run)[0].status, "exited");
}

TEST_P(WorkQueueTest, FailuresReleaseAndCancellation) {
  Repository repo(path_);
  const std::int64_t run = begin(repo);
  const ConfigRow c1 = config(1), c2 = config(2), c3 = config(3);
  const std::int64_t t1 = repo.publish_task(run, c1.key, "{}", 100);
  const std::int64_t t2 = repo.publish_task(run, c2.key, "{}", 100);
  repo.publish_task(run, c3.key, "{}", 100);
  const std::int64_t a = repo.register_worker(run, "h", 11, "", 100);
  ASSERT_EQ(repo.claim_task(run, a, 100, 10)->id, t1);
  EXPECT_THROW(repo.finish_task_failed(t1, a, c1, kDataset, "bogus", "x", 101), DbError);
  EXPECT_TRUE(repo.finish_task_failed(t1, a, c1, kDataset, "runtime", "boom", 101));
  EXPECT_EQ(repo.failure_class("host", c1.key, kDataset), "runtime");
  ASSERT_EQ(repo.failures("host").at(0).run_id, run);
  ASSERT_EQ(repo.claim_task(run, a, 102, 10)->id, t2);
  repo.release_task(t2, a);
  EXPECT_EQ(repo.claim_task(run, a, 103, 10)->id, t2);  // pending again
  EXPECT_EQ(repo.cancel_pending_tasks(run), 1u);        // c3
  const TaskCounts c = repo.task_counts(run);
  EXPECT_EQ(c.failed, 1u);
  EXPECT_EQ(c.claimed, 1u);
  EXPECT_EQ(c.cancelled, 1u);
  EXPECT_EQ(repo.tasks(run, "cancelled").at(0).config_key, c3.key);
  EXPECT_EQ(repo.workers(run).at(0).n_failed, 1u);
}

// Processes racing on one SQLite file: every task is claimed and finished exactly once.
TEST_P(WorkQueueTest, RacingProcessesFinishEveryTaskExactlyOnce) {
  constexpr int kTasks = 60, kProcesses = 4;
  std::int64_t run = 0;
  {
    Repository repo(path_);
    run = begin(repo);
    for (int i = 0; i < kTasks; ++i) repo.publish_task(run, config(i).key, std::to_string(i), 0);
  }
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        Repository repo(path_);
        const std::int64_t me = repo.register_worker(run, "h", ::getpid(), "", 0);
        std::ofstream log(dir_ / ("claims_" + std::to_string(p)));
        while (const auto t = repo.claim_task(run, me, 1, 1000)) {
          const int i = std::stoi(t->request_json);
          if (!repo.finish_task_measured(t->id, me, config(i), measurement(run, i + 1), 2))
            code = 2;
          log << i << '\n';
        }
      } catch (...) {
        code = 1;
      }
      _exit(code);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::multiset<int> claimed;
  for (int p = 0; p < kProcesses; ++p) {
    std::ifstream log(dir_ / ("claims_" + std::to_string(p)));
    for (int i; log >> i;) claimed.insert(i);
  }
  EXPECT_EQ(claimed.size(), std::size_t(kTasks));
  for (int i = 0; i < kTasks; ++i) EXPECT_EQ(claimed.count(i), 1u) << i;
  Repository repo(path_);
  EXPECT_EQ(repo.measured("host", kDataset).size(), std::size_t(kTasks));
  EXPECT_EQ(repo.task_counts(run).done, std::size_t(kTasks));
}

// A database at v2 (built here by migrations 1 and 2, as the v2 release wrote it) reads
// read-only as it is, and a read-write open migrates it to the current version keeping its rows.
TEST_F(SqliteMigrationTest, Version2DatabaseMigrates) {
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec(schema_version_table_sql());
    for (const Migration& m : migrations()) {
      if (m.version > 2) break;
      raw.exec(m.sql);
      raw.exec("INSERT INTO schema_version(version, description) VALUES (" +
               std::to_string(m.version) + ", 'test')");
    }
    raw.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    raw.exec("INSERT INTO runs(board, workload, status) VALUES ('host', 'tvl1', 'done')");
  }
  {  // Read-only (reports of a recording): readable as it is, with no distributed runs.
    const Repository old(path_, OpenMode::read_only);
    ASSERT_EQ(old.runs().size(), 1u);
    EXPECT_EQ(old.runs()[0].planned_points, -1);
    EXPECT_TRUE(old.tasks(1).empty());
    EXPECT_TRUE(old.workers(1).empty());
  }
  Repository repo(path_);
  EXPECT_EQ(repo.schema_version(), kSchemaVersion);
  ASSERT_EQ(repo.runs().size(), 1u);
  EXPECT_EQ(repo.run(1).status, "done");
  EXPECT_TRUE(repo.tasks(1).empty());
  EXPECT_GT(repo.publish_task(1, "k", "{}", 0), 0);
}

INSTANTIATE_TEST_SUITE_P(Stores, WorkQueueTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace flowtune::db
