// Bad input gets a clear error naming the file and the problem, and a non-zero exit code.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "boards/board.hpp"
#include "db/repository.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

using Result = test::TuneResult;
using test::run_tune;

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_cli_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string seq(const std::string& file) const {
    return std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/" + file;
  }
  fs::path dir_;
};

TEST_F(CliErrors, UnknownBoard) {
  const Result r = run_tune("--board no_such_board --db " + path("a.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("no_such_board"), std::string::npos) << r.output;
}

// A run whose every config is pruned says why (the rule, with an example) and exits 1, also
// when it is run again (its pruned configs then count as already in the DB).
TEST_F(CliErrors, AllPrunedRunSaysWhyAndFails) {
  const std::string cmd = "--board host --db " + path("p.db") +
                          " --variant kokkos_global --tunable tile_x=2000,3000 --tunable "
                          "tile_y=4 --no-default-dimensions --items RubberWhale";
  for (int run = 0; run < 2; ++run) {
    const Result r = run_tune(cmd);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("nothing measured on board host"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("2  kokkos_global: tile_x=N outside [N, N]"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("e.g. kokkos_global: tile_x=2000 outside [1, 1024]"), std::string::npos)
        << r.output;
  }
}

// A cuda board on a machine without a GPU: one environment refusal before anything is built,
// not a compile failure recorded per config.
TEST_F(CliErrors, GpuBoardWithoutGpuIsRefusedUpFront) {
  if (gpu_present()) GTEST_SKIP() << "this machine has a GPU";
  const Result r = run_tune("--board h200 --db " + path("g.db") + " --items RubberWhale");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("board h200: environment: it is a CUDA board (sm_90) but this "
                          "machine shows no GPU"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("compile"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("g.db")));
}

// Exit codes as the README says: a bad command line (unknown workload, variant, precision)
// 2, an unknown board (a file that is not there) 1.
TEST_F(CliErrors, ExitCodesFollowTheReadme) {
  const std::string db = " --db " + path("e.db");
  EXPECT_EQ(run_tune("--workload nope" + db).exit_code, 2);
  const Result variant = run_tune("--variant nope" + db);
  EXPECT_EQ(variant.exit_code, 2) << variant.output;
  EXPECT_NE(variant.output.find("--variant: unknown variant 'nope' of workload 'tvl1'"),
            std::string::npos)
      << variant.output;
  EXPECT_EQ(run_tune("space --variant nope").exit_code, 2);
  EXPECT_EQ(run_tune("--precision f64" + db).exit_code, 2);
  EXPECT_EQ(run_tune("--board nope" + db).exit_code, 1);
}

TEST_F(CliErrors, UnreadableBoardFile) {
  const std::string board = path("broken.toml");
  std::ofstream(board) << "name = \"broken\"\n[[[ not toml\n";
  const Result r = run_tune("space --board " + board);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("broken.toml"), std::string::npos) << r.output;
}

TEST_F(CliErrors, MissingPng) {
  const Result r =
      run_tune("flow " + path("nope.png") + " " + seq("frame11.png") + " -o " + path("f.flo"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("nope.png"), std::string::npos) << r.output;
}

TEST_F(CliErrors, CorruptPng) {
  const std::string bad = path("bad.png");
  std::ofstream(bad) << "\x89PNG\r\n\x1a\n garbage that is not a PNG stream";
  const Result r = run_tune("flow " + bad + " " + seq("frame11.png") + " -o " + path("f.flo"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("bad.png"), std::string::npos) << r.output;
}

TEST_F(CliErrors, FramesOfDifferentSizes) {
  const std::string grove = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/Grove2/frame11.png";
  const Result r = run_tune("flow " + seq("frame10.png") + " " + grove + " -o " + path("f.flo"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("different sizes"), std::string::npos) << r.output;
}

TEST_F(CliErrors, BadFlo) {
  const std::string bad = path("bad.flo");
  std::ofstream(bad) << "NOPE and more bytes";
  const Result r = run_tune("flow --param iterations=1 --param n_scales=1 " + seq("frame10.png") +
                            " " + seq("frame11.png") + " -o " + path("f.flo") + " --gt " + bad);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("bad.flo"), std::string::npos) << r.output;
}

TEST_F(CliErrors, DbPathNotWritable) {
  const std::string db = path("no_such_dir/sub/x.db");
  const Result r = run_tune("--board host --db " + db);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("x.db"), std::string::npos) << r.output;
}

TEST_F(CliErrors, UnknownOptionIsAUsageError) {
  const Result r = run_tune("--no-such-option");
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(CliErrors, ParametersAreCheckedAgainstTheWorkloadSchema) {
  Result r = run_tune("space --board host --param tau=0.5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("tau=0.5 outside (0, 0.25]"), std::string::npos) << r.output;
  r = run_tune("space --board host --param gamma=1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown parameter 'gamma'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("n_warpings"), std::string::npos)
      << "lists the valid names: " << r.output;
  r = run_tune("space --board host --param n_warpings=1.5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not a whole number"), std::string::npos) << r.output;
  r = run_tune("space --board host --workload nope");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("tvl1"), std::string::npos) << r.output;
}

TEST_F(CliErrors, OutOfRangeOptionsAreUsageErrorsWithTheValidRange) {
  const std::string db = " --db " + path("o.db");
  for (const auto& [args, expect] : std::vector<std::pair<std::string, std::string>>{
           {"--precision f64", "offered by none of the selected variants (f32"},
           {"--max-evals -3", "--max-evals must be >= 0"},
           {"--min-window-ms -5", "--min-window-ms must be a finite number >= 0"},
           {"--min-window-ms nan", "--min-window-ms must be a finite number >= 0"},
           {"--param tau=nan", "tau=nan is not a finite number"},
           {"--param tau=0", "tau=0 outside (0, 0.25]"},
           {"--param theta=0", "theta=0 outside (0, 10]"},
           {"--param lambda=-1", "lambda=-1 outside (0, 10]"},
           {"--param epsilon=-1", "epsilon=-1 outside [0, 1]"},
           {"--param iterations=2000000000", "iterations=2000000000 outside [1, 10000]"},
           {"--config-timeout-s -1", "--config-timeout-s must be >= 0"}}) {
    const Result r = run_tune(args + db);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(expect), std::string::npos) << args << ": " << r.output;
  }
  EXPECT_FALSE(fs::exists(path("o.db"))) << "nothing is created for a bad command line";
}

TEST_F(CliErrors, ParamsPrintsTheSchemaAndSpaceItsDimensions) {
  Result r = run_tune("params --workload tvl1 --markdown");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name :
       {"| `lambda` |", "| `n_warpings` |", "| `presmoothing_sigma` |", "IPOL 2013"})
    EXPECT_NE(r.output.find(name), std::string::npos) << name << " in " << r.output;
  r = run_tune(
      "space --board host --variant kokkos_global --tunable tile_x=32 --tunable tile_y=4 "
      "--param lambda=0.1:0.4:log:3 --no-default-dimensions");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  lambda 0.1..0.4 log, 3 points (3 values)\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("3 configs (the product of the discretised dimensions' counts), 3 kept"),
            std::string::npos)
      << r.output;
  // A range and a union on the command line; the fixed parameters are listed.
  r = run_tune(
      "space --board host --variant kokkos_global --tunable tile_x=32 --tunable tile_y=4 "
      "--param zoom=0.5:0.9:0.05 --param n_scales=0,3:8 --no-default-dimensions");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  zoom 0.50..0.90 step 0.05 (9 values)\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  n_scales 0, 3..8 (7 values)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parameter points: 7 x 9 = 63"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fixed parameters: epsilon=0.005, iterations=300,"), std::string::npos)
      << r.output;
  r = run_tune("space --board host --param zoom=0.5:0.9");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--param zoom=0.5:0.9: a real range needs a step"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace flowtune

namespace flowtune {
namespace {

// Distributed tuning's options: usage errors (exit 2) naming the option, and a worker of a
// run that is not in the store fails naming the store and the run.
TEST(CliDistributedErrors, WorkersLeaseAndStorageOptionsAreChecked) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_cli_distributed_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string db = (dir / "d.db").string();
  struct Case {
    std::string args, expected;
  };
  for (const Case& c :
       {Case{"--workers=-1 --db " + db, "--workers"}, Case{"--workers two --db " + db, "--workers"},
        Case{"--workers 2 --in-process --db " + db, "--in-process"},
        Case{"--workers 1 --lease-s 0 --db " + db, "--lease-s"},
        Case{"--db " + db + " --storage other.db", "--storage"},
        Case{"worker --run 1", "--storage"}, Case{"worker --storage " + db, "--run"}}) {
    const test::TuneResult r = test::run_tune(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.args << "\n" << r.output;
  }
  // A worker never creates a store (a typo would tune into a file of its own).
  const test::TuneResult absent = test::run_tune("worker --storage " + db + " --run 42");
  EXPECT_EQ(absent.exit_code, 1) << absent.output;
  EXPECT_NE(absent.output.find(db + ": no such database"), std::string::npos) << absent.output;
  EXPECT_FALSE(fs::exists(db));
  { const db::Repository created(db); }
  const test::TuneResult r = test::run_tune("worker --storage " + db + " --run 42");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(db + ": no run with id 42"), std::string::npos) << r.output;
  const test::TuneResult s = test::run_tune("status --storage " + db + " --run 42");
  EXPECT_EQ(s.exit_code, 1) << s.output;
  EXPECT_NE(s.output.find("no run with id 42"), std::string::npos) << s.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
