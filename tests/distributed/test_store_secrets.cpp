// Store names on the command line: a malformed --storage is a usage error that creates
// nothing; a worker never creates a store; the PostgreSQL password of a distributed run is
// neither stored (runs.command), nor printed, nor passed in a worker's arguments.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../db/postgres_server.hpp"
#include "db/repository.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

class StoreSecrets : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_store_secrets_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(StoreSecrets, AMalformedStoreIsAUsageErrorAndCreatesNothing) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  const test::TuneResult typo = test::run_tune("status --storage postgresql:tuning");
  const test::TuneResult empty = test::run_tune("status --storage ''");
  const test::TuneResult scheme = test::run_tune("worker --storage mysql://h/db --run 1");
  const test::TuneResult worker = test::run_tune("worker --storage typo.db --run 1");
  std::set<std::string> created;
  for (const auto& e : fs::directory_iterator(dir_)) created.insert(e.path().filename().string());
  fs::current_path(cwd);
  EXPECT_EQ(typo.exit_code, 2) << typo.output;
  EXPECT_NE(typo.output.find("'postgresql:tuning' is not a valid PostgreSQL URL"),
            std::string::npos)
      << typo.output;
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  EXPECT_EQ(scheme.exit_code, 2) << scheme.output;
  EXPECT_EQ(worker.exit_code, 1) << worker.output;
  EXPECT_NE(worker.output.find("typo.db: no such database"), std::string::npos) << worker.output;
  EXPECT_TRUE(created.empty()) << *created.begin();
}

// A read-only command on a DB in a folder it cannot write (as root: run as the user nobody).
TEST_F(StoreSecrets, ReadOnlyCommandsWorkOnADbInAReadOnlyFolder) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  std::string as;
  if (::geteuid() == 0) {
    if (std::system("id nobody > /dev/null 2>&1 && command -v runuser > /dev/null") != 0)
      GTEST_SKIP() << "running as root without a user nobody and runuser";
    as = "runuser -u nobody -- ";
  }
  const fs::path folder = dir_ / "ro";
  fs::create_directories(folder);
  const std::string db = (folder / "r.db").string();
  { const db::Repository created(db); }
  ASSERT_FALSE(fs::exists(db + "-wal"));
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read |
                              fs::perms::others_exec);
  const std::string cmd = as + FLOWTUNE_TUNE_EXE + " status --storage " + db + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  const int status = pclose(pipe);
  fs::permissions(folder, fs::perms::owner_all);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_EQ(out.find("readonly"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(db + "-shm"));
}

// The command lines of the children of pid (its local workers).
std::vector<std::string> children_command_lines(pid_t pid) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) != 2 || ppid != pid)
      continue;
    std::ifstream cmd(e.path() / "cmdline");
    std::string line((std::istreambuf_iterator<char>(cmd)), {});
    for (char& c : line)
      if (c == '\0') c = ' ';
    out.push_back(line);
  }
  return out;
}

TEST_F(StoreSecrets, ThePostgresqlPasswordIsNeitherStoredNorPrintedNorInWorkerArguments) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  if (!db::postgresql_supported()) GTEST_SKIP() << "this build has no PostgreSQL store";
  test::PostgresServer server(dir_ / "pg");
  if (!server.available()) GTEST_SKIP() << server.why_not();
  const std::string plain = server.create_database("secrets");  // trust: any password works
  const std::string secret = "s3cretPW";
  std::string url = plain;
  url.replace(url.find("flowtune@"), 9, "flowtune:" + secret + "@");
  const std::string out = (dir_ / "run.out").string();
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("FLOWTUNE_TEST_FAKE_MEASURE", "200", 1);
    if (!freopen(out.c_str(), "w", stdout) || dup2(1, 2) < 0) _exit(126);
    const std::vector<std::string> args = {FLOWTUNE_TEST_MEASURER_EXE,
                                           "--board",
                                           "host",
                                           "--variant",
                                           "kokkos_global",
                                           "--tunable",
                                           "tile_x=8,16,32",
                                           "--tunable",
                                           "tile_y=4,8",
                                           "--param",
                                           "iterations=2",
                                           "--param",
                                           "n_warpings=1",
                                           "--param",
                                           "n_scales=1",
                                           "--param",
                                           "median_window=0",
                                           "--sequences",
                                           "RubberWhale",
                                           "--storage",
                                           url,
                                           "--workers",
                                           "2"};
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::set<std::string> worker_lines;
  int status = 0;
  for (const auto t0 = std::chrono::steady_clock::now(); waitpid(pid, &status, WNOHANG) == 0;) {
    for (const std::string& line : children_command_lines(pid))
      if (line.find(" worker ") != std::string::npos) worker_lines.insert(line);
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(120)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::ifstream in(out);
  const std::string printed((std::istreambuf_iterator<char>(in)), {});
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << printed;
  EXPECT_EQ(printed.find(secret), std::string::npos) << printed;
  EXPECT_NE(printed.find(plain), std::string::npos) << printed;  // the URL, without it
  ASSERT_FALSE(worker_lines.empty()) << "no worker seen";
  for (const std::string& line : worker_lines) {
    EXPECT_EQ(line.find(secret), std::string::npos) << line;
    EXPECT_NE(line.find(plain), std::string::npos) << line;
  }
  const db::Repository repo(plain, db::OpenMode::read_only);
  ASSERT_EQ(repo.runs().size(), 1u);
  EXPECT_EQ(repo.runs()[0].info.command.find(secret), std::string::npos)
      << repo.runs()[0].info.command;
  EXPECT_EQ(repo.runs()[0].status, "done");
  EXPECT_EQ(repo.measured("host").size(), 6u);
}

}  // namespace
}  // namespace flowtune
