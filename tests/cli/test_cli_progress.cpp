// `tune`'s progress on stderr: a line per point when stderr is no terminal (logs, pipes; the
// format of earlier releases), one updating bar on a terminal (a pseudo-terminal by
// script(1)), nothing but errors and the result with --quiet.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/localflow/localflow_test_data.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class CliProgress : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE;
    dir_ = fs::temp_directory_path() /
           ("flowtune_cli_progress_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Two quick block-matching points on the host (the scalar variant), into a DB of its own.
  std::string args(const std::string& db) const {
    return "--board host --workload bm --variant bm_cpu --param block=8,16 --param similarity=1 "
           "--items "
           "RubberWhale --max-rounds 0 --data " +
           test::repo_middlebury_dir() + " --db " + (dir_ / db).string();
  }
  // Runs `tune ARGS` with stdout and stderr into files; the exit code.
  int run(const std::string& a) const {
    const std::string cmd = std::string(FLOWTUNE_TUNE_EXE) + " " + a + " >" +
                            (dir_ / "out").string() + " 2>" + (dir_ / "err").string();
    return WEXITSTATUS(std::system(cmd.c_str()));
  }
  fs::path dir_;
};

TEST_F(CliProgress, NotATerminalKeepsOneLinePerPoint) {
  ASSERT_EQ(run(args("a.db")), 0) << read_file(dir_ / "err");
  const std::string err = read_file(dir_ / "err");
  EXPECT_EQ(err.rfind("run 1: workload bm, board host, 2 configs", 0), 0u) << err;
  // Only block varies: the lines name it, not the fixed variant and parameters.
  EXPECT_NE(err.find("\n[1/2] 50% block=8: "), std::string::npos) << err;
  EXPECT_NE(err.find("\n[2/2] 100% block=16: "), std::string::npos) << err;
  EXPECT_EQ(err.find("] 50% bm_cpu"), std::string::npos) << err;
  EXPECT_NE(err.find(" elapsed, budget left: "), std::string::npos) << err;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
  EXPECT_NE(read_file(dir_ / "out").find("Pareto front"), std::string::npos);
}

// Where the run shares its kernels (tuner/kernel_store.hpp) and what it built: on the host
// nothing is compiled by NVRTC, so every count is 0; a wrong --kernel-store is a usage error.
TEST_F(CliProgress, TheRunSaysWhereItSharesKernelsAndCountsItsBuilds) {
  ASSERT_EQ(run(args("k.db")), 0) << read_file(dir_ / "err");
  std::string err = read_file(dir_ / "err");
  EXPECT_NE(err.find("\nkernel store: off (kernels are shared through the local cache folder "
                     "only)\n"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("\nkernel builds of run 1: this process 0 compiled (0.0 s), 0 local cache "
                     "hits, 0 fetched from the store (0.0 s, 0 rejected), 0 published; measuring "
                     "process 0 compiled"),
            std::string::npos)
      << err;
  ASSERT_EQ(run("--kernel-store on --json " + args("k2.db")), 0) << read_file(dir_ / "err");
  err = read_file(dir_ / "err");
  EXPECT_NE(err.find("\nkernel store: " + (dir_ / "k2.db").string() + " (a local cache miss"),
            std::string::npos)
      << err;
  const std::string out = read_file(dir_ / "out");
  EXPECT_NE(out.find("\"kernel_builds\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"measuring_process\""), std::string::npos) << out;
  EXPECT_EQ(run("--kernel-store sometimes " + args("k3.db")), 2);
  EXPECT_NE(read_file(dir_ / "err").find("--kernel-store must be auto, on or off"),
            std::string::npos)
      << read_file(dir_ / "err");
}

TEST_F(CliProgress, QuietPrintsOnlyErrorsAndTheResult) {
  ASSERT_EQ(run("--quiet " + args("q.db")), 0) << read_file(dir_ / "err");
  EXPECT_EQ(read_file(dir_ / "err"), "");
  const std::string out = read_file(dir_ / "out");
  EXPECT_NE(out.find("2 measured now"), std::string::npos) << out;
  EXPECT_NE(out.find("deploy it: tune export"), std::string::npos) << out;
  // An error still reaches stderr.
  EXPECT_NE(run("-q --board host --workload bm --items NoSuchSequence --data " +
                test::repo_middlebury_dir() + " --db " + (dir_ / "e.db").string()),
            0);
  EXPECT_NE(read_file(dir_ / "err").find("NoSuchSequence"), std::string::npos)
      << read_file(dir_ / "err");
}

TEST_F(CliProgress, ATerminalShowsOneUpdatingBar) {
  if (std::system("script -qec true /dev/null >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no script(1) with a pseudo-terminal here";
  // script(1) runs the command on a pseudo-terminal (stdin, stdout and stderr) and copies
  // what it writes to its own stdout.
  const std::string inner = "COLUMNS=200 " + std::string(FLOWTUNE_TUNE_EXE) + " " + args("t.db");
  const std::string cmd =
      "script -qec '" + inner + "' /dev/null >" + (dir_ / "tty").string() + " 2>&1 </dev/null";
  ASSERT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 0) << read_file(dir_ / "tty");
  const std::string tty = read_file(dir_ / "tty");
  EXPECT_NE(tty.find("\r[##########..........] 1/2 50% | "), std::string::npos) << tty;
  EXPECT_NE(tty.find("\r[####################] 2/2 100% | "), std::string::npos) << tty;
  EXPECT_NE(tty.find(" points/s | best time_ms "), std::string::npos) << tty;
  EXPECT_NE(tty.find(", aepe "), std::string::npos) << tty;
  EXPECT_NE(tty.find("of 5 min budget"), std::string::npos) << tty;
  EXPECT_NE(tty.find("\x1b[K"), std::string::npos) << tty;
  EXPECT_EQ(tty.find("[1/2] 50%"), std::string::npos) << "no per-point lines:\n" << tty;
  EXPECT_NE(tty.find("Pareto front"), std::string::npos) << tty;
}

}  // namespace
}  // namespace flowtune
