// Tuning on a user's own footage end to end: `tune --data` on frames the test writes (no
// ground truth) measures every config against the reference flow, the front and the default
// request use ref_aepe in place of aepe, `--max-ref-aepe` constrains the export, and a bad
// input is refused before any config runs, with no DB created; `tune flow --gt` reads a KITTI
// flow PNG.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "tests/cli/test_files.hpp"
#include "tests/kernels/textured_image.hpp"
#include "tests/test_dir.hpp"
#include "tests/tuner/tune_process.hpp"
#include "tests/workloads/dataset_files.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;
using test::run_tune;

class CliFootage : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE;
    dir_ = test::per_test_dir("flowtune_footage");
    fs::remove_all(dir_);
    // Four frames of a texture moving right by 1 px a frame, named as a camera would.
    for (int k = 0; k < 4; ++k)
      test::write_gray_png(dir_ / "cam" / ("img_" + std::to_string(k + 8) + ".png"),
                           test::textured(48, 32, k, 11));
    setenv("FLOWTUNE_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("FLOWTUNE_CACHE_DIR");
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string space() {
    return " --variant simd_fused --precision f32 --tunable band_rows=16 --tunable "
           "temporal_depth=1 --tunable tile_cols=0 --param iterations=5,30 --param n_warpings=1,2 "
           "--param median_window=0 --min-rounds 1 --max-rounds 2 --time-budget 2m";
  }
  fs::path dir_;
};

// warm_start on a stream (the folder at stride 1): a dimension of the run whose warm configs
// start each pair from the previous pair's flow, so that with one scale and few iterations
// (too few to reach a 1 px shift from 0) they come nearer the reference flow than the cold
// one; a variant that takes no initial flow is pruned naming the reason; `tune stream` times
// every frame of the stream after a warm-up pass.
TEST_F(CliFootage, WarmStartOnAStreamComesNearerTheReferenceAndStreamTimesEachFrame) {
  const std::string cheap =
      " --tunable tile_x=32 --tunable tile_y=4 --param n_scales=1 --param n_warpings=1 --param "
      "iterations=3 --param median_window=0";
  test::TuneResult r = run_tune("--board host --data " + path("cam") + " --db " + path("w.db") +
                                " --variant kokkos_global --param warm_start=0,1" + cheap +
                                " --min-rounds 1 --max-rounds 2 --time-budget 2m");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2 measured now"), std::string::npos) << r.output;
  const test::TuneResult best = run_tune("export --board host --db " + path("w.db") +
                                         " --objective ref_aepe -o " + path("best.h"));
  ASSERT_EQ(best.exit_code, 0) << best.output;
  EXPECT_NE(test::read(path("best.h")).find("\"warm_start\":1"), std::string::npos)
      << test::read(path("best.h"));

  r = run_tune("--board host --data " + path("cam") + " --db " + path("s.db") +
               " --variant simd_fused --param warm_start=1 --min-rounds 1 --max-rounds 1");
  EXPECT_NE(r.output.find("warm_start=1: variant simd_fused does not take an initial flow"),
            std::string::npos)
      << r.output;

  r = run_tune("stream --data " + path("cam") + " --variant kokkos_global --param warm_start=1" +
               cheap + " --passes 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("stream: 3 pairs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("steady state (passes 2-3, 6 frames): median "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ref_aepe "), std::string::npos) << r.output;
  r = run_tune("stream --data " + path("cam") + " --passes 1");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST_F(CliFootage, TunesFramesWithoutGroundTruthAgainstTheReference) {
  const test::TuneResult r = run_tune("--board host --data " + path("cam") + " --db " +
                                      path("f.db") + " --stride 1" + space());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("inputs: 3 pairs of 48x32 frames of the folder " + path("cam")),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("accuracy against the reference flow of simd_fused f32"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ref_aepe stands in for aepe"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("objectives: time_ms, ref_aepe"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Pareto front (time_ms vs ref_aepe), dataset frames:cam:3 pairs:"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("pick (time): simd_fused"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 measured now, 0 already in the DB, 0 pruned, 0 failed"),
            std::string::npos)
      << r.output;

  // The export of the most accurate by the reference, and a bound on it.
  test::TuneResult e = run_tune("export --board host --db " + path("f.db") +
                                " --objective ref_aepe -o " + path("best.h"));
  EXPECT_EQ(e.exit_code, 0) << e.output;
  EXPECT_TRUE(fs::exists(path("best.h")));
  e = run_tune("export --board host --db " + path("f.db") +
               " --objective time --max-ref-aepe 0 -o " + path("none.h"));
  EXPECT_NE(e.exit_code, 0) << e.output;
  EXPECT_NE(e.output.find("ref_aepe <= 0"), std::string::npos) << e.output;
  e = run_tune("export --board host --db " + path("f.db") +
               " --objective time --max-photometric 1000 -o " + path("fast.h"));
  EXPECT_EQ(e.exit_code, 0) << e.output;

  // The same command again: the reference comes from the cache and every point from the DB.
  const test::TuneResult again =
      run_tune("--board host --data " + path("cam") + " --db " + path("f.db") + space());
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("0 computed, 3 from the cache"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("0 measured now"), std::string::npos) << again.output;
}

TEST_F(CliFootage, BadFootageIsRefusedBeforeAnyConfigRuns) {
  test::write_gray_png(dir_ / "one" / "only.png", test::textured(8, 8, 0, 1));
  test::TuneResult r = run_tune("--board host --data " + path("one") + " --db " + path("x.db"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(path("one") + ": a single frame (only.png)"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(path("x.db")));
  test::write_gray_png(dir_ / "cam" / "img_99.png", test::textured(24, 32, 0, 1));
  r = run_tune("--board host --data " + path("cam") + " --db " + path("x.db"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("img_99.png: frames of mixed sizes"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("x.db")));
  r = run_tune("--board host --data " + path("cam") + " --stride 0 --db " + path("x.db"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_FALSE(fs::exists(path("x.db")));
}

// `tune flow --gt` takes a KITTI flow PNG as the ground truth: with the left half of its
// pixels valid, the AEPE is over 48 x 32 / 2 = 768 pixels.
TEST_F(CliFootage, FlowScoresAgainstAKittiGroundTruthPng) {
  FlowField gt(48, 32);
  std::vector<bool> valid(gt.size(), false);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 24; ++x) {
      gt.u[std::size_t(y) * 48 + x] = 1;
      valid[std::size_t(y) * 48 + x] = true;
    }
  test::write_kitti_flow_raw(dir_ / "gt.png", gt, valid);
  const test::TuneResult r =
      run_tune("flow " + path("cam/img_8.png") + " " + path("cam/img_9.png") + " --gt " +
               path("gt.png") + " --variant simd_fused --param iterations=5 --param n_warpings=1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(" deg over 768 pixels"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace flowtune
