// Reliability of a tuning run (no failure is forgotten or fatal): signals stop any
// config quickly with the right exit code, a second tune on the same DB refuses, runs of dead
// processes are marked aborted, report/export read a read-only DB, and command lines that
// hung Boost.Program_options end with a usage error.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/repository.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A config whose one frame takes minutes: 50 warpings x 10^4 iterations, no stopping test.
const std::vector<std::string> kLongRun = {"--board",
                                           "host",
                                           "--variant",
                                           "kokkos_global",
                                           "--tunable",
                                           "tile_x=32",
                                           "--tunable",
                                           "tile_y=4",
                                           "--param",
                                           "iterations=10000",
                                           "--param",
                                           "n_warpings=50",
                                           "--param",
                                           "n_scales=1",
                                           "--param",
                                           "epsilon=0",
                                           "--no-default-dimensions",
                                           "--sequences",
                                           "RubberWhale",
                                           "--max-rounds",
                                           "0"};

class Reliability : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_rel_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "t.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  pid_t spawn(const std::vector<std::string>& extra, const std::string& log) {
    std::fflush(stdout);  // the child's freopen would flush the parent's pending output again
    const pid_t pid = fork();
    if (pid == 0) {
      std::vector<std::string> args = {FLOWTUNE_TUNE_EXE, "--db", db_, "--data",
                                       std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury"};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      if (!freopen(log.c_str(), "w", stdout) || !freopen(log.c_str(), "a", stderr)) _exit(127);
      execv(argv[0], argv.data());
      _exit(127);
    }
    return pid;
  }
  // Waits until the DB shows a running run (the process is measuring).
  bool wait_running() {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < deadline) {
      try {
        for (const auto& r : db::Repository(db_, db::OpenMode::read_only).runs())
          if (r.status == "running") return true;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }
  fs::path dir_;
  std::string db_;
};

// Runs `pid` to its end; returns the exit status and the seconds it took.
std::pair<int, double> wait_exit(pid_t pid) {
  const auto t0 = Clock::now();
  int status = 0;
  waitpid(pid, &status, 0);
  return {status, std::chrono::duration<double>(Clock::now() - t0).count()};
}

TEST_F(Reliability, SigtermStopsALongConfigQuicklyWithExit143) {
  for (const int sig : {SIGTERM, SIGINT}) {
    fs::remove(db_);
    const pid_t pid = spawn(kLongRun, (dir_ / "log.txt").string());
    ASSERT_TRUE(wait_running());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // inside the frame
    ASSERT_EQ(kill(pid, sig), 0);
    const auto [status, seconds] = wait_exit(pid);
    std::printf("signal %d: stopped after %.3f s\n", sig, seconds);
    ASSERT_TRUE(WIFEXITED(status)) << read(dir_ / "log.txt");
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig) << read(dir_ / "log.txt");
    EXPECT_LT(seconds, 10.0) << "the frame was not cancelled";
    db::Repository repo(db_);
    ASSERT_EQ(repo.runs().size(), 1u);
    EXPECT_EQ(repo.runs()[0].status, "interrupted");
    EXPECT_TRUE(repo.failures("host").empty()) << "a cancelled config is not a failure";
    EXPECT_TRUE(repo.measured("host").empty());
  }
}

TEST_F(Reliability, SecondSignalExitsAtOnceAndTheRunIsMarkedAbortedOnNextOpen) {
  const pid_t pid = spawn(kLongRun, (dir_ / "log.txt").string());
  ASSERT_TRUE(wait_running());
  // Both back to back: the second exits at once, before the run can be marked.
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const auto [status, seconds] = wait_exit(pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const std::string st = db::Repository(db_).runs()[0].status;  // read-write open
  EXPECT_TRUE(st == "aborted" || st == "interrupted") << st;    // interrupted if the first won
  (void)seconds;
}

TEST_F(Reliability, RunsLeftRunningByAKilledProcessBecomeAborted) {
  const pid_t pid = spawn(kLongRun, (dir_ / "log.txt").string());
  ASSERT_TRUE(wait_running());
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  wait_exit(pid);
  // A read-only open (tune status, tune report) already reads the dead run as aborted; a
  // read-write open records it.
  EXPECT_EQ(db::Repository(db_, db::OpenMode::read_only).runs()[0].status, "aborted");
  EXPECT_TRUE(db::Repository(db_, db::OpenMode::read_only).runs()[0].ended_at.empty());
  db::Repository repo(db_);  // a read-write open looks for dead runs
  EXPECT_EQ(repo.runs()[0].status, "aborted");
  EXPECT_FALSE(repo.runs()[0].ended_at.empty());
}

TEST_F(Reliability, ASecondTuneOnTheSameDbRefusesAndMarksNothingFailed) {
  const pid_t first = spawn(kLongRun, (dir_ / "first.txt").string());
  ASSERT_TRUE(wait_running());
  const pid_t second = spawn(kLongRun, (dir_ / "second.txt").string());
  const auto [status, seconds] = wait_exit(second);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string log = read(dir_ / "second.txt");
  EXPECT_NE(log.find("run 1 (board host"), std::string::npos) << log;
  EXPECT_NE(log.find("is coordinated by pid " + std::to_string(first)), std::string::npos) << log;
  kill(first, SIGTERM);
  wait_exit(first);
  db::Repository repo(db_);
  EXPECT_TRUE(repo.failures("host").empty());
  ASSERT_EQ(repo.runs().size(), 1u);  // the refused one began no run
  (void)seconds;
}

TEST_F(Reliability, ReportReadsAReadOnlyDbAndNeverCreatesOne) {
  fs::copy_file(fs::path(FLOWTUNE_TEST_SOURCE_DIR) / "tests/db/fixtures/v1_flowtune.db", db_);
  { db::Repository migrate(db_); }  // v1 -> v2 once, read-write
  fs::permissions(db_, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string tune = FLOWTUNE_TUNE_EXE;
  const std::string out = (dir_ / "rep").string();
  EXPECT_EQ(std::system((tune + " report --board host --db " + db_ + " -o " + out + " > " +
                         (dir_ / "r.txt").string() + " 2>&1")
                            .c_str()),
            0)
      << read(dir_ / "r.txt");
  EXPECT_TRUE(fs::exists(fs::path(out) / "report.md"));
  const std::string typo = (dir_ / "typo.db").string();
  const int rc = std::system((tune + " report --board host --db " + typo + " -o " + out + " > " +
                              (dir_ / "t.txt").string() + " 2>&1")
                                 .c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 1);
  EXPECT_NE(read(dir_ / "t.txt").find("no such database"), std::string::npos)
      << read(dir_ / "t.txt");
  EXPECT_FALSE(fs::exists(typo));
  fs::permissions(db_, fs::perms::owner_all);
}

TEST(CommandLine, PercentTokensEndWithAUsageErrorInsteadOfHanging) {
  for (const char* arg : {"--n-scales=%value%", "--x%original_token%", "--board%canonical_option%",
                          "space --board%canonical_option%"}) {
    const std::string cmd =
        std::string("timeout 20 ") + FLOWTUNE_TUNE_EXE + " " + arg + " >/dev/null 2>&1";
    const int rc = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(rc));
    EXPECT_EQ(WEXITSTATUS(rc), 2) << arg << (WEXITSTATUS(rc) == 124 ? " hung" : "");
  }
}

}  // namespace
}  // namespace flowtune

namespace flowtune {
namespace {

// A full disk (ulimit -f: writes beyond 300 KiB fail with EFBIG) stops the run with an
// error naming the DB; nothing is recorded as failed or pruned, and the resumed run measures
// exactly the configs that were missing (all 8, none lost between the two runs).
TEST(DiskFull, TheRunStopsAndTheResumeMeasuresEveryConfigOnce) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_full_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "d.db").string();
  const std::string args = " --db " + db + " --data " + std::string(FLOWTUNE_TEST_REPO_DATA) +
                           "/middlebury --board host --variant kokkos_global --tunable "
                           "tile_x=16,32,64,128 --tunable tile_y=4 --param iterations=1,2 --param "
                           "n_scales=1 --param n_warpings=1 --no-default-dimensions --sequences "
                           "RubberWhale --min-rounds 1 --min-window-ms 0 > " +
                           (dir / "log.txt").string() + " 2>&1";
  const int full = std::system(("bash -c \"ulimit -f 300; trap '' XFSZ; exec " +
                                std::string(FLOWTUNE_TUNE_EXE) + args + "\"")
                                   .c_str());
  ASSERT_TRUE(WIFEXITED(full));
  ASSERT_NE(WEXITSTATUS(full), 0) << "the 300 KiB limit did not bite (page size?)";
  std::size_t before = 0;
  {
    db::Repository repo(db);
    before = repo.measured("host").size();
    EXPECT_LT(before, 8u);
    EXPECT_TRUE(repo.failures("host").empty()) << "a full disk is not the config's failure";
    EXPECT_TRUE(repo.pruned("host").empty());
    // "failed" when the run could still write its end; "aborted" (a dead process's run, as
    // every read shows it) when the full disk refused that write too: never "running" or
    // "completed".
    const std::string status = repo.runs()[0].status;
    EXPECT_TRUE(status == "failed" || status == "aborted") << status;
  }
  const int resumed = std::system((std::string(FLOWTUNE_TUNE_EXE) + args).c_str());
  ASSERT_TRUE(WIFEXITED(resumed));
  EXPECT_EQ(WEXITSTATUS(resumed), 0);
  db::Repository repo(db);
  std::set<std::string> keys;
  for (const auto& mc : repo.measured("host")) keys.insert(mc.config.key);
  EXPECT_EQ(repo.measured("host").size(), 8u);
  EXPECT_EQ(keys.size(), 8u);
  std::printf("disk full after %zu of 8 configs; the resume measured the other %zu\n", before,
              8 - before);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
