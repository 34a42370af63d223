// A tuning run killed with SIGKILL mid-way and restarted ends with every config measured
// exactly once and no row lost (ARCHITECTURE.md "Storage").
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db/repository.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

const std::vector<std::string> kArgs = {"--board",
                                        "host",
                                        "--variant",
                                        "kokkos_global",
                                        "--tunable",
                                        "tile_x=32,64",
                                        "--tunable",
                                        "tile_y=1,2",
                                        "--param",
                                        "iterations=20,30",
                                        "--param",
                                        "n_scales=2",
                                        "--param",
                                        "n_warpings=1",
                                        "--param",
                                        "epsilon=0",
                                        "--no-default-dimensions",
                                        "--sequences",
                                        "RubberWhale",
                                        "--min-rounds",
                                        "1",
                                        "--min-window-ms",
                                        "0"};
constexpr std::size_t kSpaceSize = 2 * 2 * 2;

pid_t spawn_tune(const std::string& db, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<std::string> args = {FLOWTUNE_TUNE_EXE, "--db", db, "--data",
                                     std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury"};
    args.insert(args.end(), kArgs.begin(), kArgs.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!freopen(log.c_str(), "w", stdout) || !freopen(log.c_str(), "a", stderr)) _exit(127);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

std::size_t measured_count(const std::string& db) {
  try {
    return db::Repository(db).measured("host").size();
  } catch (const std::exception&) {
    return 0;  // not created yet
  }
}

TEST(Resume, SigkillMidRunThenRestartMeasuresEveryConfigExactlyOnce) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_resume_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "tune.db").string();

  const pid_t first = spawn_tune(db, (dir / "first.log").string());
  ASSERT_GT(first, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  std::size_t before_kill = 0;
  while ((before_kill = measured_count(db)) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(kill(first, SIGKILL), 0);
  int status = 0;
  waitpid(first, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the first run ended before it could be killed";
  const std::size_t after_kill = measured_count(db);
  ASSERT_GE(after_kill, 3u);
  ASSERT_LT(after_kill, kSpaceSize) << "the first run measured everything before the kill";

  const pid_t second = spawn_tune(db, (dir / "second.log").string());
  waitpid(second, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);

  const db::Repository repo(db);
  const std::vector<db::MeasuredConfig> rows = repo.measured("host");
  std::set<std::string> keys;
  for (const auto& r : rows) keys.insert(r.config.key);
  EXPECT_EQ(rows.size(), kSpaceSize);
  EXPECT_EQ(keys.size(), kSpaceSize) << "a config was measured twice";
  const std::vector<db::RunRow> runs = repo.runs("host");
  ASSERT_EQ(runs.size(), 2u);
  std::size_t from_second = 0;
  for (const auto& r : rows) from_second += r.measurement.run_id == runs.back().id;
  EXPECT_EQ(from_second, kSpaceSize - after_kill)
      << "the restart re-measured configs of the killed run";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
