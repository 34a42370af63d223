// Failures of the parts of a distributed run (one coordinator per run; a killed coordinator,
// a stopped worker, a hung measurement), each against SQLite and a throw-away PostgreSQL server,
// with the fake measurer of tests/doubles:
// - a second coordinator of the same run on another host is refused while the first lives;
//   the first SIGKILLed, `tune` started again (on another host) resumes the SAME run, the
//   external workers keep their claims and go on, every point is measured exactly once;
// - a worker stopped with SIGSTOP (with its measuring process) loses its lease, its point is
//   measured once elsewhere, and its late result after SIGCONT is dropped;
// - a measurement that hangs while its worker's heartbeat lives is stopped by the progress
//   deadline: the point is recorded as failed (timeout), never pruned, and the run ends.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "db/repository.hpp"
#include "tests/distributed/host_space.hpp"
#include "tests/distributed/store_fixture.hpp"
#include "tests/distributed/tune_process.hpp"
#include "tuner/store_worker.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;
using test::measured_ends;
using test::read_text;
using test::spawn_tune;
using test::wait_exit;
using Clock = std::chrono::steady_clock;

using test::kSpace;
using test::kSpaceSize;

// Polls cond every 50 ms for up to 60 s (a store not created yet reads as false).
template <typename F>
bool eventually(F&& cond) {
  for (const auto t0 = Clock::now(); Clock::now() - t0 < std::chrono::seconds(60);) {
    try {
      if (cond()) return true;
    } catch (const db::DbError&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Whether child pid has not exited yet (not reaped: wait_exit still reads its status).
bool running(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == 0;
}

class CoordinatorLeaseTest : public test::StoreTest {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name)
      if (c == '/') c = '_';
    start("flowtune_test_coordinator", name.substr(0, 12));
    log_path_ = (dir_ / "measured.log").string();
  }
  std::map<std::string, std::string> env(int sleep_ms, const std::string& host = "") const {
    std::map<std::string, std::string> e = {
        {"FLOWTUNE_TEST_FAKE_MEASURE", std::to_string(sleep_ms)},
        {"FLOWTUNE_TEST_FAKE_MEASURE_LOG", log_path_}};
    if (!host.empty()) e["FLOWTUNE_TEST_HOSTNAME"] = host;
    return e;
  }
  // Every point of the space has exactly one measurement row in the store.
  static void expect_each_point_stored_once(const std::string& s, std::size_t n = kSpaceSize) {
    const db::Repository repo(s, db::OpenMode::read_only);
    const std::vector<db::MeasuredConfig> measured = repo.measured("host");
    EXPECT_EQ(measured.size(), n);
    std::set<std::string> keys;
    for (const db::MeasuredConfig& mc : measured) keys.insert(mc.config.key);
    EXPECT_EQ(keys.size(), n);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string log_path_;
};

// Item 3 and 6(b).
TEST_P(CoordinatorLeaseTest, SecondCoordinatorRefusedKilledCoordinatorResumesTheSameRun) {
  const std::string s = store("restart");
  std::vector<std::string> args = kSpace;
  // One local worker: the coordinator keeps 2 points in flight, so most of the space is
  // published only after the restart, for the workers that waited.
  args.insert(args.end(), {"--storage", s, "--workers", "1", "--lease-s", "2"});
  const pid_t first = spawn_tune(args, env(300), path("first.json"));
  ASSERT_TRUE(eventually([&] { return !db::Repository(s).runs().empty(); }));
  const std::vector<std::string> worker = {"worker", "--storage", s,  "--run",
                                           "1",      "--lease-s", "2"};
  std::vector<std::string> impatient = worker;
  impatient.insert(impatient.end(), {"--coordinator-wait-s", "1"});
  const pid_t patient_pid = spawn_tune(worker, env(300), path("patient"));
  const pid_t impatient_pid = spawn_tune(impatient, env(300), path("impatient"));
  ASSERT_TRUE(eventually([&] { return db::Repository(s).task_counts(1).done >= 3; }));

  // A second coordinator of the same run on another host: refused while the first lives.
  const pid_t second = spawn_tune(args, env(300, "other-host"), path("second.json"));
  EXPECT_EQ(wait_exit(second, std::chrono::seconds(30)), 1);
  const std::string refusal = read_text(path("second.json.log"));
  EXPECT_NE(refusal.find("run 1 "), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("is coordinated by pid " + std::to_string(first)), std::string::npos)
      << refusal;
  EXPECT_NE(refusal.find("one coordinator per run"), std::string::npos) << refusal;
  EXPECT_EQ(db::Repository(s).runs().size(), 1u);

  // SIGKILL the coordinator: its local worker goes with it, the external ones stay.
  kill(first, SIGKILL);
  EXPECT_EQ(wait_exit(first), 128 + SIGKILL);
  // A point whose measurement ended in the killed coordinator's local worker before that
  // worker stored it is lost with it and measured again after the restart: the points that had
  // ended but were not in the store once the coordinator was dead may end twice; every other
  // point ends exactly once.
  std::set<std::string> unstored_at_kill;
  {
    std::set<std::string> stored;
    for (const db::MeasuredConfig& mc : db::Repository(s).measured("host"))
      stored.insert(mc.config.key);
    for (const auto& [key, n] : measured_ends(log_path_))
      if (!stored.count(key)) unstored_at_kill.insert(key);
  }
  std::map<std::int64_t, db::TaskRow> held;  // tasks the external workers hold
  {
    db::Repository repo(s);
    std::set<std::int64_t> external;
    for (const db::WorkerRow& w : repo.workers(1))
      if (w.pid == patient_pid || w.pid == impatient_pid) external.insert(w.id);
    for (const db::TaskRow& t : repo.tasks(1, "claimed"))
      if (external.count(t.worker_id)) held[t.id] = t;
  }
  // The worker with --coordinator-wait-s 1 stops once nothing is left; the other waits.
  EXPECT_EQ(wait_exit(impatient_pid, std::chrono::seconds(30)), 1);
  const std::string impatient_log = read_text(path("impatient.log"));
  EXPECT_NE(impatient_log.find("has had no coordinator for 1 s"), std::string::npos)
      << impatient_log;
  EXPECT_TRUE(running(patient_pid));

  // The same command again, from another host: it waits out the dead coordinator's lease and
  // resumes run 1; the waiting worker measures the rest with the new local worker.
  const pid_t again = spawn_tune(args, env(300, "other-host"), path("again.json"));
  ASSERT_EQ(wait_exit(again), 0) << read_text(path("again.json.log"));
  EXPECT_EQ(wait_exit(patient_pid), 0) << read_text(path("patient.log"));
  const std::string again_log = read_text(path("again.json.log"));
  EXPECT_NE(again_log.find("run 1: resuming it"), std::string::npos) << again_log;
  EXPECT_NE(read_text(path("patient.log")).find("has a coordinator again"), std::string::npos);

  const std::map<std::string, int> ends = measured_ends(log_path_);
  EXPECT_EQ(ends.size(), kSpaceSize);
  for (const auto& [key, n] : ends) EXPECT_LE(n, unstored_at_kill.count(key) ? 2 : 1) << key;
  expect_each_point_stored_once(s);
  const db::Repository repo(s, db::OpenMode::read_only);
  ASSERT_EQ(repo.runs().size(), 1u);  // the same run, not a new one
  EXPECT_EQ(repo.runs()[0].status, "done");
  const std::vector<db::TaskRow> tasks = repo.tasks(1);
  EXPECT_EQ(tasks.size(), kSpaceSize);
  std::size_t kept = 0;
  for (const db::TaskRow& t : tasks) {
    EXPECT_EQ(t.state, "done") << t.config_key;
    const auto it = held.find(t.id);
    if (it == held.end()) continue;
    // Finished by the worker that held it at the kill, never claimed again since.
    EXPECT_EQ(t.worker_id, it->second.worker_id) << "a claim held at the kill was taken away";
    EXPECT_EQ(t.attempts, it->second.attempts);
    ++kept;
  }
  EXPECT_EQ(kept, held.size());
}

// A coordinator stopped (SIGSTOP) for longer than its lease: another `tune` resumes its run;
// woken up, the stopped one finds its role gone and stops without touching the run.
TEST_P(CoordinatorLeaseTest, StoppedCoordinatorLosesItsRunToTheOneThatResumedIt) {
  const std::string s = store("stopped_coordinator");
  std::vector<std::string> args = kSpace;
  args.insert(args.end(), {"--storage", s, "--workers", "0", "--lease-s", "2"});
  const pid_t first = spawn_tune(args, env(150), path("first.json"), true);
  ASSERT_TRUE(eventually([&] { return !db::Repository(s).runs().empty(); }));
  const pid_t worker = spawn_tune({"worker", "--storage", s, "--run", "1", "--lease-s", "2"},
                                  env(150), path("worker"));
  ASSERT_TRUE(eventually([&] { return db::Repository(s).task_counts(1).done >= 2; }));
  kill(-first, SIGSTOP);
  // Past its lease (2 s): a stopped process of this host still lives, the lease decides.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const pid_t again = spawn_tune(args, env(150), path("again.json"));
  ASSERT_EQ(wait_exit(again), 0) << read_text(path("again.json.log"));
  EXPECT_NE(read_text(path("again.json.log")).find("run 1: resuming it"), std::string::npos);
  kill(-first, SIGCONT);
  EXPECT_EQ(wait_exit(first), 1);
  const std::string log = read_text(path("first.json.log"));
  EXPECT_NE(log.find("another process took this run over or closed it"), std::string::npos) << log;
  EXPECT_EQ(wait_exit(worker), 0);
  expect_each_point_stored_once(s);
  const db::Repository repo(s, db::OpenMode::read_only);
  ASSERT_EQ(repo.runs().size(), 1u);
  EXPECT_EQ(repo.runs()[0].status, "done");  // not "failed" or "interrupted" by the stale one
  const db::TaskCounts c = repo.task_counts(1);
  EXPECT_EQ(c.done, kSpaceSize);
  EXPECT_EQ(c.cancelled, 0u);
}

// Item 6(c).
TEST_P(CoordinatorLeaseTest, StoppedWorkerLosesItsLeaseAndItsLateResultIsDropped) {
  const std::string s = store("stopped");
  std::vector<std::string> args = kSpace;
  args.insert(args.end(), {"--storage", s, "--workers", "0", "--lease-s", "2"});
  const pid_t coordinator = spawn_tune(args, env(300), path("run.json"));
  ASSERT_TRUE(eventually([&] { return !db::Repository(s).runs().empty(); }));
  const std::vector<std::string> worker = {"worker", "--storage", s,  "--run",
                                           "1",      "--lease-s", "2"};
  const pid_t hung = spawn_tune(worker, env(300), path("hung"), true);
  const pid_t healthy = spawn_tune(worker, env(300), path("healthy"));

  // Stop the first worker and its measuring process ~100 ms into a point.
  std::string key;
  double lease_at_stop = 0;
  std::int64_t hung_id = 0;
  ASSERT_TRUE(eventually([&] {
    db::Repository repo(s);
    for (const db::WorkerRow& w : repo.workers(1))
      if (w.pid == hung && w.n_done >= 1) hung_id = w.id;
    for (const db::TaskRow& t : repo.tasks(1, "claimed"))
      if (hung_id && t.worker_id == hung_id) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        kill(-hung, SIGSTOP);
        key = t.config_key;
        lease_at_stop = t.lease_until_s;
        return true;
      }
    return false;
  }));
  // Its point is claimed again by the other worker once the lease expired, and measured.
  db::TaskRow redone;
  ASSERT_TRUE(eventually([&] {
    for (const db::TaskRow& t : db::Repository(s).tasks(1, "done"))
      if (t.config_key == key) redone = t;
    return redone.id != 0;
  }));
  kill(-hung, SIGCONT);
  ASSERT_EQ(wait_exit(coordinator), 0) << read_text(path("run.json.log"));
  EXPECT_EQ(wait_exit(healthy), 0);
  EXPECT_EQ(wait_exit(hung), 0);

  EXPECT_NE(redone.worker_id, hung_id);
  EXPECT_EQ(redone.attempts, 2);
  EXPECT_GE(redone.claimed_s, lease_at_stop);
  // The stopped measurement ended after SIGCONT, late: its result was dropped.
  const std::map<std::string, int> ends = measured_ends(log_path_);
  EXPECT_EQ(ends.size(), kSpaceSize);
  for (const auto& [k, n] : ends) EXPECT_EQ(n, k == key ? 2 : 1) << k;
  const std::string hung_log = read_text(path("hung.log"));
  EXPECT_NE(hung_log.find("lost the lease of task " + std::to_string(redone.id)), std::string::npos)
      << hung_log;
  expect_each_point_stored_once(s);
  const db::Repository repo(s, db::OpenMode::read_only);
  EXPECT_EQ(repo.runs()[0].status, "done");
  for (const db::TaskRow& t : repo.tasks(1)) {
    EXPECT_EQ(t.state, "done");
    if (t.config_key != key) {
      EXPECT_EQ(t.attempts, 1) << t.config_key;
    }
  }
}

// Item 6(d).
TEST_P(CoordinatorLeaseTest, MeasurementHangingWhileItsWorkerLivesIsStoppedByTheProgressDeadline) {
  const std::string s = store("hang");
  const std::vector<std::string> args = {"--board",
                                         "host",
                                         "--variant",
                                         "kokkos_global",
                                         "--tunable",
                                         "tile_x=8,16",
                                         "--tunable",
                                         "tile_y=4,8",
                                         "--param",
                                         "iterations=2",
                                         "--param",
                                         "n_warpings=1,5",
                                         "--param",
                                         "n_scales=1",
                                         "--param",
                                         "median_window=0",
                                         "--sequences",
                                         "RubberWhale",
                                         "--json",
                                         "--storage",
                                         s,
                                         "--workers",
                                         "2",
                                         "--lease-s",
                                         "2",
                                         "--progress-deadline-s",
                                         "2"};
  std::map<std::string, std::string> e = env(50);
  const std::string hang_path = path("hanging_key");
  e["FLOWTUNE_TEST_FAKE_MEASURE_HANG"] = hang_path;
  const pid_t coordinator = spawn_tune(args, e, path("run.json"));
  // The run ends (exit 1: a run with a failed config says so) instead of stalling.
  ASSERT_EQ(wait_exit(coordinator, std::chrono::seconds(60)), 1) << read_text(path("run.json.log"));

  const std::string key = read_text(hang_path);
  ASSERT_FALSE(key.empty());
  const db::Repository repo(s, db::OpenMode::read_only);
  EXPECT_EQ(repo.runs()[0].status, "done");
  const std::vector<db::FailureRow> failures = repo.failures("host");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].config.key, key);
  EXPECT_EQ(failures[0].failure_class, "timeout");
  EXPECT_NE(failures[0].message.find("no result within the progress deadline of 2 s"),
            std::string::npos)
      << failures[0].message;
  EXPECT_FALSE(repo.is_pruned("host", key));
  const std::map<std::string, int> ends = measured_ends(log_path_);
  EXPECT_EQ(ends.size(), 7u);
  EXPECT_EQ(ends.count(key), 0u);
  for (const auto& [k, n] : ends) EXPECT_EQ(n, 1) << k;
  expect_each_point_stored_once(s, 7);
  const nlohmann::json summary = nlohmann::json::parse(read_text(path("run.json")));
  EXPECT_EQ(summary.at("measured").get<std::size_t>(), 7u);
  EXPECT_EQ(summary.at("failed").get<std::size_t>(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Stores, CoordinatorLeaseTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& p) { return p.param; });

// The progress deadline of a task: fixed, none, or auto from the run's longest task; and the
// task body carries it (absent in a task of an older coordinator: none).
TEST(ProgressDeadline, AutoFollowsTheLongestTaskAndTheTaskCarriesIt) {
  EXPECT_EQ(progress_deadline_s(5, 1000), 5);
  EXPECT_EQ(progress_deadline_s(0, 1000), 0);
  EXPECT_EQ(progress_deadline_s(-1, 0), kAutoProgressDeadlineFloorS);
  EXPECT_EQ(progress_deadline_s(-1, 30), kAutoProgressDeadlineFloorS);
  EXPECT_EQ(progress_deadline_s(-1, 120), 1200);
  TaskRequest t;
  t.request.board = "host";
  t.dataset = "middlebury:Grove2";
  t.progress_deadline_s = 7.5;
  EXPECT_EQ(parse_task_request(task_request_json(t)).progress_deadline_s, 7.5);
  nlohmann::json j = nlohmann::json::parse(task_request_json(t));
  j.erase("progress_deadline_s");
  EXPECT_EQ(parse_task_request(j.dump()).progress_deadline_s, 0);
  j["progress_deadline_s"] = -1;
  EXPECT_THROW(parse_task_request(j.dump()), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
