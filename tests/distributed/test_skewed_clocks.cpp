// Leases on the store's clock: workers whose host clocks run an hour ahead or behind (faked
// with libfaketime, Debian package faketime, through LD_PRELOAD) share one PostgreSQL run
// with a worker on the true clock. On the hosts' own clocks, the worker ahead would see every
// other lease as expired and steal it, and the leases of the worker behind would look
// expired to the others at once; on the store's clock (Repository::store_now_s) every point
// is measured exactly once and claimed once. (An SQLite file is shared by the processes of
// one host only, WAL's shared memory needs it, so it has one clock: nothing to skew.)
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <thread>

#include "../db/postgres_server.hpp"
#include "db/repository.hpp"
#include "tests/distributed/host_space.hpp"
#include "tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using test::kSpace;
using test::kSpaceSize;
const char* const kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

TEST(SkewedClocks, WorkersAnHourAheadAndBehindNeitherStealNorLoseLeases) {
  if (!db::postgresql_supported()) GTEST_SKIP() << "this build has no PostgreSQL store";
  if (!fs::exists(kFaketime)) GTEST_SKIP() << "no " << kFaketime << " (Debian package faketime)";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_skewed_clocks_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  bool keep = true;
  {
    test::PostgresServer server(dir / "pg");
    if (!server.available()) GTEST_SKIP() << server.why_not();
    const std::string store = server.create_database("skewed");
    const std::string log_path = (dir / "measured.log").string();
    const std::map<std::string, std::string> env = {{"FLOWTUNE_TEST_FAKE_MEASURE", "150"},
                                                    {"FLOWTUNE_TEST_FAKE_MEASURE_LOG", log_path}};
    std::vector<std::string> args = kSpace;
    args.insert(args.end(), {"--storage", store, "--workers", "0", "--lease-s", "20"});
    const pid_t coordinator = test::spawn_tune(args, env, (dir / "run.json").string());
    bool begun = false;
    for (const auto t0 = Clock::now(); !begun && Clock::now() - t0 < std::chrono::seconds(60);) {
      try {
        begun = !db::Repository(store, db::OpenMode::read_only).runs().empty();
      } catch (const db::DbError&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(begun);
    const std::vector<std::string> worker = {"worker", "--storage", store, "--run",
                                             "1",      "--lease-s", "20"};
    std::vector<pid_t> workers;
    int i = 0;
    for (const char* skew : {"+1h", "", "-1h"}) {
      std::map<std::string, std::string> e = env;
      if (*skew) {
        e["LD_PRELOAD"] = kFaketime;
        e["FAKETIME"] = skew;
        e["FAKETIME_DONT_FAKE_MONOTONIC"] = "1";  // timeouts and sleeps keep real time
      }
      workers.push_back(
          test::spawn_tune(worker, e, (dir / ("worker" + std::to_string(i++))).string()));
    }
    ASSERT_EQ(test::wait_exit(coordinator), 0) << test::read_text(dir / "run.json.log");
    for (std::size_t w = 0; w < workers.size(); ++w)
      EXPECT_EQ(test::wait_exit(workers[w]), 0)
          << test::read_text(dir / ("worker" + std::to_string(w) + ".log"));

    const std::map<std::string, int> ends = test::measured_ends(log_path);
    EXPECT_EQ(ends.size(), kSpaceSize);
    for (const auto& [key, n] : ends) EXPECT_EQ(n, 1) << key;
    const db::Repository repo(store, db::OpenMode::read_only);
    const std::vector<db::TaskRow> tasks = repo.tasks(1);
    ASSERT_EQ(tasks.size(), kSpaceSize);
    std::map<std::int64_t, int> by_worker;
    for (const db::TaskRow& t : tasks) {
      EXPECT_EQ(t.state, "done") << t.config_key;
      EXPECT_EQ(t.attempts, 1) << t.config_key;  // no lease taken over
      ++by_worker[t.worker_id];
    }
    EXPECT_EQ(by_worker.size(), 3u);  // the skewed workers measured too
    // Their heartbeats were written on the store's clock: within a minute of the server's.
    const double now = repo.store_now_s();
    for (const db::WorkerRow& w : repo.workers(1))
      EXPECT_LT(std::abs(now - w.heartbeat_s), 60) << w.id;
    keep = ::testing::Test::HasFailure();
  }
  if (keep)
    std::cerr << "logs kept in " << dir << '\n';
  else
    fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
