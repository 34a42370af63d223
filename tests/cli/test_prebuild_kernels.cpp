// `tune --prebuild-kernels` end to end, with the NVRTC this build links (no GPU needed): the
// cache folder it writes holds the kernel sets of the run's start and those one tunable step
// from them; a second prebuild compiles nothing (it resumes); a run on the board that reads
// the folder as its prebuilt cache (FLOWTUNE_PREBUILT_KERNELS) compiles nothing at its start.
// With --prebuild-scope space it holds every kernel set that `tune space` keeps.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Labels ("global f32 block_x=32 block_y=4 ...") that differ in exactly one word.
bool one_word_apart(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = words(a), y = words(b);
  if (x.size() != y.size()) return false;
  int differ = 0;
  for (std::size_t i = 0; i < x.size(); ++i) differ += x[i] != y[i];
  return differ == 1;
}

class CliPrebuildKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("flowtune_prebuild_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "local");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // One variant and precision: a few kernel sets, seconds of NVRTC.
  std::string prebuild() const {
    return "FLOWTUNE_CACHE_DIR=" + path("local") +
           " " FLOWTUNE_TUNE_EXE
           " --board agx-orin --variant global --precision f32 "
           "--prebuild-kernels " +
           path("pk") + " 2>&1";
  }
  fs::path dir_;
};

TEST_F(CliPrebuildKernels, BuildsTheStartAndItsNeighboursResumesAndServesTheBoard) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable in this build";
  const test::TuneResult first = test::run_shell(prebuild());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(first.output, m,
                                std::regex("prebuilt kernels for board agx-orin \\(sm_87, NVRTC "
                                           "([0-9.]+)\\) in (\\S+): ([0-9]+) kernel sets built, "
                                           "0 not built; ([0-9]+) compiled")))
      << first.output;
  const std::string folder = m[2];
  EXPECT_EQ(fs::path(folder), dir_ / "pk" / ("sm_87-nvrtc" + std::string(m[1])));
  const int built = std::stoi(m[3]), compiled = std::stoi(m[4]);
  EXPECT_GT(compiled, 0);

  // The manifest: the start's kernel sets first, then each other one a single tunable away
  // from one of them (the labels name variant, precision and every tunable).
  std::ifstream manifest(folder + "/manifest-agx-orin.tsv");
  ASSERT_TRUE(manifest) << folder;
  std::string header;
  std::getline(manifest, header);
  ASSERT_TRUE(
      std::regex_search(header, m, std::regex("; scope start: ([0-9]+) of the strategy's first")))
      << header;
  const std::size_t start_sets = std::stoul(m[1]);
  std::vector<std::string> labels;
  for (std::string line; std::getline(manifest, line);) {
    ASSERT_EQ(line.rfind("built\t", 0), 0u) << line;
    labels.push_back(line.substr(6));
  }
  ASSERT_EQ(labels.size(), std::size_t(built));
  ASSERT_GE(start_sets, 1u);
  ASSERT_GT(labels.size(), start_sets);
  for (const std::string& label : labels) EXPECT_EQ(label.rfind("global f32 ", 0), 0u) << label;
  for (std::size_t i = start_sets; i < labels.size(); ++i) {
    bool near = false;
    for (std::size_t k = 0; k < start_sets; ++k)
      near = near || one_word_apart(labels[i], labels[k]);
    EXPECT_TRUE(near) << labels[i] << " is not one tunable from a start kernel set";
  }
  // One cubin and one log per compile, each log a ptxas report for sm_87; the local cache of
  // the machine is neither read nor written.
  std::size_t cubins = 0;
  for (const auto& e : fs::directory_iterator(folder)) {
    if (e.path().extension() != ".cubin") continue;
    ++cubins;
    std::ifstream log(fs::path(e.path()).replace_extension(".log"));
    std::stringstream text;
    text << log.rdbuf();
    EXPECT_NE(text.str().find("for 'sm_87'"), std::string::npos) << e.path();
  }
  EXPECT_EQ(cubins, std::size_t(compiled));
  EXPECT_TRUE(fs::is_empty(dir_ / "local"));

  // Again: every build is already in the folder.
  const test::TuneResult again = test::run_shell(prebuild());
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(
      again.output.find("; 0 compiled (0.0 s), " + std::to_string(compiled) + " local cache hits"),
      std::string::npos)
      << again.output;

  // The board's run (here a coordinator without workers: nothing is measured) finds the
  // kernels of its start in the prebuilt folder and compiles none.
  const test::TuneResult run = test::run_shell("FLOWTUNE_CACHE_DIR=" + path("board") +
                                               " FLOWTUNE_PREBUILT_KERNELS=" + folder +
                                               " " FLOWTUNE_TUNE_EXE
                                               " --board agx-orin --variant global --precision f32 "
                                               "--workers 0 --time-budget 2s --db " +
                                               path("run.db") + " 2>&1");
  ASSERT_TRUE(std::regex_search(
      run.output, m,
      std::regex("this process 0 compiled \\(0.0 s\\), 0 local cache hits, ([0-9]+) from the "
                 "prebuilt cache")))
      << run.output;
  EXPECT_GT(std::stoi(m[1]), 0);

  // Installed: tune in <prefix>/bin finds the folder under <prefix>/share/flowtune/kernels by
  // itself (the layout of the package and of scripts/jetson-setup's build tree).
  const fs::path prefix = dir_ / "prefix";
  fs::create_directories(prefix / "bin");
  fs::copy_file(FLOWTUNE_TUNE_EXE, prefix / "bin" / "tune");
  fs::permissions(prefix / "bin" / "tune", fs::perms::owner_exec, fs::perm_options::add);
  fs::create_directories(prefix / "share/flowtune/kernels");
  fs::copy(folder, prefix / "share/flowtune/kernels" / fs::path(folder).filename());
  const test::TuneResult installed = test::run_shell(
      "env -u FLOWTUNE_PREBUILT_KERNELS FLOWTUNE_CACHE_DIR=" + path("installed") + " " +
      (prefix / "bin" / "tune").string() +
      " --board agx-orin --variant global --precision f32 --workers 0 --time-budget 2s "
      "--db " +
      path("installed.db") + " 2>&1");
  EXPECT_TRUE(std::regex_search(installed.output,
                                std::regex("this process 0 compiled \\(0.0 s\\), 0 local cache "
                                           "hits, [1-9][0-9]* from the prebuilt cache")))
      << installed.output;
}

// The labels of a manifest's "built" lines.
std::set<std::string> built_labels(const std::string& manifest_path) {
  std::ifstream in(manifest_path);
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("built\t", 0) == 0) out.insert(line.substr(6));
  return out;
}

TEST_F(CliPrebuildKernels, ScopeSpaceBuildsEveryKernelSetThatTheSpaceKeeps) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable in this build";
  const std::string space_options =
      " --board agx-orin --variant global --precision f32 --no-default-dimensions";
  const test::TuneResult r = test::run_shell(
      "FLOWTUNE_CACHE_DIR=" + path("local") + " " FLOWTUNE_TUNE_EXE + space_options +
      " --prebuild-kernels " + path("pk") + " --prebuild-scope space 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m,
                                std::regex("in (\\S+): ([0-9]+) kernel sets built, 0 not built")))
      << r.output;
  const std::string manifest = m[1].str() + "/manifest-agx-orin.tsv";
  const std::set<std::string> built = built_labels(manifest);
  EXPECT_EQ(built.size(), std::stoul(m[2]));
  {
    std::ifstream in(manifest);
    std::string header;
    std::getline(in, header);
    EXPECT_NE(header.find("scope space: every one of the space's"), std::string::npos) << header;
  }

  // The oracle: `tune space --list` of the same space, which checks every config against the
  // variant's rules and the board's registers and shared memory. Every config it keeps has its
  // kernel set built; every kernel set built is one of the space's.
  const test::TuneResult listing = test::run_shell(FLOWTUNE_TUNE_EXE " space" + space_options +
                                                   " --list --format csv 2>/dev/null");
  ASSERT_EQ(listing.exit_code, 0) << listing.output;
  std::set<std::string> labels, kept;
  std::istringstream rows(listing.output);
  const std::regex row("^\"([^\"]*)\",\"[^\"]*\",([01]),");
  for (std::string line; std::getline(rows, line);) {
    if (!std::regex_search(line, m, row)) continue;
    labels.insert(m[1]);
    if (m[2] == "1") kept.insert(m[1]);
  }
  ASSERT_FALSE(kept.empty()) << listing.output;
  ASSERT_LT(built.size(), labels.size()) << "the rules prune some of the space's kernel sets";
  for (const std::string& label : kept) EXPECT_TRUE(built.count(label)) << label << " not built";
  for (const std::string& label : built) EXPECT_TRUE(labels.count(label)) << label;

  // The start's kernel sets are among them: a start prebuild into the same folder compiles
  // nothing.
  const test::TuneResult start =
      test::run_shell("FLOWTUNE_CACHE_DIR=" + path("local") + " " FLOWTUNE_TUNE_EXE +
                      space_options + " --prebuild-kernels " + path("pk") + " 2>&1");
  ASSERT_EQ(start.exit_code, 0) << start.output;
  EXPECT_NE(start.output.find("; 0 compiled (0.0 s), "), std::string::npos) << start.output;
  for (const std::string& label : built_labels(manifest))
    EXPECT_TRUE(built.count(label)) << label << " of the start is not in the space's";
}

TEST_F(CliPrebuildKernels, ScopeIsCheckedAndNeedsPrebuildKernels) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable in this build";
  const test::TuneResult bad =
      test::run_shell(FLOWTUNE_TUNE_EXE " --board agx-orin --prebuild-kernels " + path("pk") +
                      " --prebuild-scope everything 2>&1");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--prebuild-scope: start or space, got 'everything'"),
            std::string::npos)
      << bad.output;
  const test::TuneResult alone =
      test::run_shell(FLOWTUNE_TUNE_EXE " --board agx-orin --prebuild-scope space 2>&1");
  EXPECT_EQ(alone.exit_code, 2) << alone.output;
  EXPECT_NE(alone.output.find("--prebuild-scope needs --prebuild-kernels DIR"), std::string::npos)
      << alone.output;
  EXPECT_FALSE(fs::exists(dir_ / "pk"));
}

TEST_F(CliPrebuildKernels, IsRefusedForABoardWithoutGpuKernels) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable in this build";
  const test::TuneResult r =
      test::run_shell(FLOWTUNE_TUNE_EXE " --board host --prebuild-kernels " + path("pk") + " 2>&1");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("--prebuild-kernels: board host runs no GPU kernels"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "pk"));
}

}  // namespace
}  // namespace flowtune
