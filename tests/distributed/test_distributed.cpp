// Distributed tuning end to end (ARCHITECTURE.md "Scale-out"): a coordinator and 3 workers started
// as separate processes on one store, one worker SIGKILLed mid-config. With the test-only
// fake measurer (tuner/fake_measure.hpp: timings hashed from the config key, so nothing
// depends on machine noise) it checks that every point is measured exactly once, that the
// killed point is measured again after its lease expired, and that the front equals the
// front of a single-worker run.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "db/repository.hpp"
#include "tests/distributed/host_space.hpp"
#include "tests/distributed/store_fixture.hpp"
#include "tests/distributed/tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;
using test::read_text;
using test::wait_exit;
using Clock = std::chrono::steady_clock;

using test::kSpace;
using test::kSpaceSize;

// The front of a `tune --json` output as comparable text: config JSON, time and metrics.
std::multiset<std::string> front_of(const std::string& json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text);
  std::multiset<std::string> out;
  for (const nlohmann::json& f : j.at("front"))
    out.insert(f.at("config").dump() + " " + f.at("time_ms").dump() + " " + f.at("metrics").dump());
  return out;
}

class DistributedTest : public test::StoreTest {
 protected:
  void SetUp() override { start("flowtune_test_distributed"); }
};

TEST_P(DistributedTest, ThreeWorkersOneKilledMeasureEveryPointOnceAndGiveTheSameFront) {
  const std::string log_path = (dir_ / "measured.log").string();
  const std::map<std::string, std::string> env = {{"FLOWTUNE_TEST_FAKE_MEASURE", "300"},
                                                  {"FLOWTUNE_TEST_FAKE_MEASURE_LOG", log_path}};
  // The reference: one worker.
  const std::string ref_store = store("reference");
  std::vector<std::string> ref_args = kSpace;
  for (const char* a : {"--workers", "1"}) ref_args.push_back(a);
  ref_args.insert(ref_args.end(), {"--storage", ref_store});
  ASSERT_EQ(wait_exit(test::spawn_tune(ref_args, {{"FLOWTUNE_TEST_FAKE_MEASURE", "0"}},
                                       (dir_ / "reference.json").string())),
            0);
  const std::multiset<std::string> reference_front = front_of(read_text(dir_ / "reference.json"));
  ASSERT_FALSE(reference_front.empty());

  // The coordinator alone (--workers 0), then 3 workers as any launcher would start them.
  const std::string s = store("distributed");
  std::vector<std::string> args = kSpace;
  args.insert(args.end(), {"--storage", s, "--workers", "0", "--lease-s", "3"});
  const pid_t coordinator = test::spawn_tune(args, env, (dir_ / "distributed.json").string());
  std::int64_t run_id = 0;
  for (const auto t0 = Clock::now(); Clock::now() - t0 < std::chrono::seconds(60);) {
    try {
      db::Repository repo(s);
      if (!repo.runs().empty()) {
        run_id = repo.runs().back().id;
        break;
      }
    } catch (const db::DbError&) {  // not created yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(run_id, 0);
  const std::vector<std::string> worker_args = {
      "worker", "--storage", s, "--run", std::to_string(run_id), "--lease-s", "3"};
  std::vector<pid_t> workers;
  for (int i = 0; i < 3; ++i)
    workers.push_back(
        test::spawn_tune(worker_args, env, (dir_ / ("worker" + std::to_string(i))).string()));

  // Kill the first worker ~100 ms into a point (each takes 300 ms), after it measured one;
  // the point it held at its death is read after the kill.
  db::Repository repo(s);
  std::int64_t killed_worker = 0;
  for (const auto t0 = Clock::now();
       !killed_worker && Clock::now() - t0 < std::chrono::seconds(60);) {
    for (const db::WorkerRow& w : repo.workers(run_id)) {
      if (w.pid != workers[0] || w.n_done < 1) continue;
      for (const db::TaskRow& t : repo.tasks(run_id, "claimed"))
        if (t.worker_id == w.id && !killed_worker) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          kill(workers[0], SIGKILL);
          killed_worker = w.id;
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GT(killed_worker, 0) << "the first worker never held a point";
  EXPECT_EQ(wait_exit(workers[0]), 128 + SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a last write lands
  std::string killed_key;
  double lease_of_killed = 0;
  for (const db::TaskRow& t : repo.tasks(run_id, "claimed"))
    if (t.worker_id == killed_worker) {
      killed_key = t.config_key;
      lease_of_killed = t.lease_until_s;
    }
  ASSERT_FALSE(killed_key.empty()) << "the first worker held no point when it was killed";

  ASSERT_EQ(wait_exit(coordinator), 0) << read_text(dir_ / "distributed.json.log");
  EXPECT_EQ(wait_exit(workers[1]), 0);
  EXPECT_EQ(wait_exit(workers[2]), 0);

  // Every point measured exactly once: one "end" per key in the measurers' log; the killed
  // point began twice.
  std::map<std::string, int> begins, ends;
  std::ifstream log(log_path);
  for (std::string line; std::getline(log, line);) {
    if (line.rfind("begin ", 0) == 0) ++begins[line.substr(6)];
    if (line.rfind("end ", 0) == 0) ++ends[line.substr(4)];
  }
  EXPECT_EQ(ends.size(), kSpaceSize);
  for (const auto& [key, n] : ends) EXPECT_EQ(n, 1) << key;
  for (const auto& [key, n] : begins) EXPECT_EQ(n, key == killed_key ? 2 : 1) << key;
  const std::vector<db::TaskRow> tasks = repo.tasks(run_id);
  ASSERT_EQ(tasks.size(), kSpaceSize);
  const std::vector<db::MeasuredConfig> measured = repo.measured("host");
  EXPECT_EQ(measured.size(), kSpaceSize);
  std::set<std::string> keys;
  for (const db::MeasuredConfig& mc : measured) keys.insert(mc.config.key);
  EXPECT_EQ(keys.size(), kSpaceSize);

  // The killed point: claimed again by another worker once its lease had expired.
  for (const db::TaskRow& t : tasks) {
    EXPECT_EQ(t.state, "done") << t.config_key;
    if (t.config_key != killed_key) {
      EXPECT_EQ(t.attempts, 1) << t.config_key;
      continue;
    }
    EXPECT_EQ(t.attempts, 2);
    EXPECT_NE(t.worker_id, killed_worker);
    EXPECT_GE(t.claimed_s, lease_of_killed);
  }
  // `tune status` reports the same from the store: every point done, three workers, all
  // "exited": the killed one never said goodbye, and the run's end signed it off (a worker
  // of this host whose process is gone), with the points it finished.
  const pid_t status_pid =
      test::spawn_tune({"status", "--storage", s, "--run", std::to_string(run_id), "--json"}, {},
                       (dir_ / "status.json").string());
  ASSERT_EQ(wait_exit(status_pid), 0) << read_text(dir_ / "status.json.log");
  const nlohmann::json status = nlohmann::json::parse(read_text(dir_ / "status.json")).at(0);
  EXPECT_EQ(status.at("done").get<std::size_t>(), kSpaceSize);
  EXPECT_EQ(status.at("pending").get<std::size_t>() + status.at("claimed").get<std::size_t>(), 0u);
  ASSERT_EQ(status.at("workers").size(), 3u);
  std::size_t done_by_workers = 0;
  for (const nlohmann::json& w : status.at("workers")) {
    done_by_workers += w.at("done").get<std::size_t>();
    EXPECT_EQ(w.at("status"), "exited");
    if (w.at("id").get<std::int64_t>() == killed_worker) {
      EXPECT_GE(w.at("done").get<std::size_t>(), 1u);
    }
  }
  EXPECT_EQ(done_by_workers, kSpaceSize);

  // The same front as the single worker's.
  EXPECT_EQ(front_of(read_text(dir_ / "distributed.json")), reference_front);
  const nlohmann::json summary = nlohmann::json::parse(read_text(dir_ / "distributed.json"));
  EXPECT_EQ(summary.at("measured").get<std::size_t>(), kSpaceSize);
  EXPECT_EQ(summary.at("failed").get<std::size_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Stores, DistributedTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace flowtune
