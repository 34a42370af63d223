// What a new user hits first: impossible options and mismatched files are refused before
// anything is computed or created, with the file or option named (exit 2 for usage errors).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "db/repository.hpp"
#include "kernels/flo_io.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;
using test::run_tune;

class CliInputChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE;
    dir_ = fs::temp_directory_path() /
           ("flowtune_input_checks_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string frames() {
    const std::string seq = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/";
    return seq + "frame10.png " + seq + "frame11.png";
  }
  static std::string quick() { return " --param iterations=5 --param n_warpings=1"; }
  fs::path dir_;
};

// A bound no figure can meet (errors, times, energies are >= 0) is refused at once.
TEST_F(CliInputChecks, AnImpossibleBoundIsAUsageError) {
  const test::TuneResult r = run_tune("--board host --db " + path("a.db") +
                                      " --objective time --max-aepe -1 --items RubberWhale");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--max-aepe -1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("aepe is never negative"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("a.db")));
  // The same through --max NAME=VALUE.
  EXPECT_EQ(run_tune("--board host --db " + path("a.db") + " --max time_ms=-0.5").exit_code, 2);
}

// A ground truth of another size: refused before the flow is computed or written, naming the
// file and both sizes.
TEST_F(CliInputChecks, AGroundTruthOfAnotherSizeIsRefusedBeforeComputing) {
  write_flo(path("small.flo"), FlowField(10, 8));
  const test::TuneResult r = run_tune("run " + frames() + quick() + " -o " + path("out.flo") +
                                      " --gt " + path("small.flo"));
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(path("small.flo") + ": ground truth is 10x8, the frames are 584x388"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("flow_error"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("out.flo"))) << "computed and written before the check";
}

// -o writes a .flo, --viz a PNG: a name that says another format is refused, nothing written.
TEST_F(CliInputChecks, AnOutputNameThatContradictsItsFormatIsRefused) {
  test::TuneResult r = run_tune("run " + frames() + quick() + " -o " + path("out.png"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("-o " + path("out.png") + ": the result is written as a Middlebury .flo"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("--viz " + path("out.png")), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("out.png")));
  r = run_tune("run " + frames() + quick() + " --viz " + path("out.flo"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(
      r.output.find("--viz " + path("out.flo") + ": the colour-coded flow is written as a PNG"),
      std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(path("out.flo")));
  // Upper-case extensions are the same formats.
  r = run_tune("run " + frames() + quick() + " -o " + path("OUT.FLO") + " --viz " + path("v.PNG"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// `tune run` says how long the frame took.
TEST_F(CliInputChecks, RunPrintsTheTimePerFrame) {
  const test::TuneResult r = run_tune("run " + frames() + quick() + " -o " + path("f.flo"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::size_t at = r.output.find("(time per frame ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const double ms = std::stod(r.output.substr(at + 16));
  EXPECT_GT(ms, 0) << r.output;
  EXPECT_NE(r.output.find(" ms)", at), std::string::npos) << r.output;
}

// A start that fails on its data creates no DB file; an existing DB keeps every byte.
TEST_F(CliInputChecks, AFailedStartLeavesNoDbAndTouchesNoExistingOne) {
  test::TuneResult r =
      run_tune("--board host --db " + path("new.db") + " --data " + path("no_such_dir"));
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no_such_dir"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("new.db"))) << r.output;
  EXPECT_FALSE(fs::exists(path("new.db-wal")));
  { db::Repository existing(path("old.db")); }
  const auto size = fs::file_size(path("old.db"));
  const auto time = fs::last_write_time(path("old.db"));
  r = run_tune("--board host --db " + path("old.db") + " --data " + path("no_such_dir"));
  EXPECT_NE(r.exit_code, 0) << r.output;
  ASSERT_TRUE(fs::exists(path("old.db")));
  EXPECT_EQ(fs::file_size(path("old.db")), size);
  EXPECT_EQ(fs::last_write_time(path("old.db")), time);
}

}  // namespace
}  // namespace flowtune
