// model/predict.hpp against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "boards/board.hpp"
#include "model/calibration.hpp"
#include "model/predict.hpp"

namespace flowtune::model {
namespace {

std::vector<CalibrationEntry> calibration() {
  return {{"h200", "global", "f32", {{"block_x", 32}, {"block_y", 4}}, 0.2151, 529.8},
          {"h200", "shared_pipeline", "f32", {{"depth", 5}, {"w", 128}}, 0.0941, 530.0}};
}

Config config(const std::string& variant, std::map<std::string, int> tunables) {
  Config c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = "f32";
  c.tunables = std::move(tunables);
  c.params = {{"n_scales", 1}, {"n_warpings", 1}, {"iterations", 10}};
  return c;
}

KernelResources kernel_resources(int threads, int regs, int shared) {
  KernelResources k;
  k.kernel = "k";
  k.threads_per_block = threads;
  k.registers_per_thread = regs;
  k.static_shared_bytes = shared;
  return k;
}

TEST(Predict, FullOccupancyScalesByTheBandwidthRatio) {
  const Board agx = load_board("agx"), h200 = load_board("h200");
  const Config c = config("global", {{"block_x", 32}, {"block_y", 4}});
  const std::vector<KernelResources> ks = {kernel_resources(128, 32, 0)};
  const IterationPrediction p = predict_iterations(agx, h200, calibration(), c, ks, ks);
  // H200: 0.2151 ns/px less 10 x 2 launches x 3 us over 2048^2 px; x 4800 / 136.5 GB/s.
  const double work = 0.2151 - 20 * 3000.0 / (2048.0 * 2048.0);
  EXPECT_NEAR(p.ns_per_px_10it, work * 4800.0 / 136.5, 1e-9);
  EXPECT_EQ(p.bound, "memory");
  EXPECT_DOUBLE_EQ(p.launches_per_iteration, 2);
}

TEST(Predict, SharedMemoryBoundOccupancySlowsTheAgxDown) {
  const Board agx = load_board("agx"), tx2 = load_board("tx2"), h200 = load_board("h200");
  const Config c = config("shared_pipeline", {{"depth", 5}, {"w", 128}});
  // paper eq. 4: 36 KiB
  const std::vector<KernelResources> ks = {kernel_resources(128, 40, 36 * 1024)};
  const IterationPrediction a = predict_iterations(agx, h200, calibration(), c, ks, ks);
  // AGX 96 KiB: 2 blocks x 4 warps / 64 = 0.125 -> hide 0.5; H200: 6 blocks (37 KiB each with
  // the 1 KiB reserve) -> 0.375 -> hide 1. TX2 64 KiB: 1 block -> 0.0625 -> hide 0.25.
  EXPECT_EQ(a.blocks_per_sm, 2);
  EXPECT_EQ(a.limited_by, "shared_memory");
  EXPECT_NEAR(a.occupancy_calibration, 0.375, 1e-12);
  const double work = 0.0941 - 2 * 3000.0 / (2048.0 * 2048.0);
  EXPECT_NEAR(a.ns_per_px_10it, work * 4800.0 / 136.5 * 2, 1e-9);
  const IterationPrediction t = predict_iterations(tx2, h200, calibration(), c, ks, ks);
  EXPECT_EQ(t.blocks_per_sm, 1);
  EXPECT_NEAR(t.ns_per_px_10it, work * 4800.0 / 59.7 * 4, 1e-9);
}

TEST(Predict, FrameLevelsFollowZoomAndTheAutomaticScaleCount) {
  const Board agx = load_board("agx");
  IterationPrediction it;
  it.ns_per_px_10it = 5;
  it.launches_per_iteration = 1;
  Config c = config("shared_fusion", {});
  c.params["n_scales"] = 3;
  c.params["zoom"] = 0.8;
  // Levels 100x60, 80x48, 64x38 ((int)(48 x 0.8 + 0.5) = 38).
  const double aux = 80 / (136.5 * 0.5);
  EXPECT_NEAR(predict_frame(agx, it, c, 100, 60).kernel_ms,
              (6000 + 3840 + 64 * 38) * (5 + aux) * 1e-6, 1e-12);
  // n_scales 0 at zoom 0.5 on 640x480: 1 + log2(800 / 16) = 6.64 -> 6 levels (IPOL's rule).
  c.params["n_scales"] = 0;
  c.params["zoom"] = 0.5;
  EXPECT_NEAR(predict_frame(agx, it, c, 640, 480).launch_ms, 6 * (10 + 7) * 8.0 * 1e-3, 1e-12);
  // The board refit's factor multiplies the frame: kernels and launches.
  IterationPrediction refit = it;
  refit.board_factor = 2;
  const FramePrediction a = predict_frame(agx, it, c, 640, 480);
  const FramePrediction b = predict_frame(agx, refit, c, 640, 480);
  EXPECT_NEAR(b.kernel_ms, 2 * a.kernel_ms, 1e-12);
  EXPECT_NEAR(b.launch_ms, 2 * a.launch_ms, 1e-12);
  EXPECT_NEAR(b.energy_mj, 2 * a.energy_mj, 1e-9);
}

TEST(Predict, FrameAddsLevelsAuxWorkAndLaunches) {
  const Board agx = load_board("agx");
  IterationPrediction it;
  it.ns_per_px_10it = 5;
  it.launches_per_iteration = 1;
  Config c = config("shared_fusion", {});
  c.params["n_scales"] = 2;
  const FramePrediction f = predict_frame(agx, it, c, 100, 60);
  const double px = 100 * 60 + 50 * 30;
  const double aux = 80 / (136.5 * 0.5);
  EXPECT_NEAR(f.kernel_ms, px * (5 + aux) * 1e-6, 1e-12);
  EXPECT_NEAR(f.launch_ms, 2 * (10 + 7) * 8.0 * 1e-3, 1e-12);
  EXPECT_NEAR(f.energy_mj, 34.2 * f.kernel_ms + 23.2 * f.launch_ms, 1e-12);
  const int side = largest_square_side(agx, it, c, 5.0);
  EXPECT_LE(predict_frame(agx, it, c, side, side).time_ms, 5.0);
  EXPECT_GT(predict_frame(agx, it, c, side + 2, side + 2).time_ms, 5.0);
}

TEST(Predict, UncalibratedSchemeIsRefused) {
  const Board agx = load_board("agx"), h200 = load_board("h200");
  const Config c = config("shared_fusion", {});
  EXPECT_THROW(predict_iterations(agx, h200, calibration(), c, {}, {}), std::invalid_argument);
}

TEST(Calibration, ShippedFileLoadsAndBadFilesNameTheLine) {
  EXPECT_EQ(load_calibration(default_calibration_path()).size(), 12u);
  const std::string path = ::testing::TempDir() + "/bad_calibration.csv";
  std::ofstream(path) << "board,variant,precision,tunables,ns_per_px,flop_per_px\n"
                         "h200,global,f32,block_x=32,-1,5\n";
  try {
    load_calibration(path);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2"), std::string::npos) << e.what();
  }
}

TEST(BoardFacts, EveryGpuProfileHasSourcedModelFacts) {
  for (const std::string& name : list_boards()) {
    const Board b = load_board(name);
    if (b.target != "cuda") continue;
    EXPECT_TRUE(b.model.present) << name;
    EXPECT_FALSE(b.model.launch_latency_us.source.empty()) << name;
    EXPECT_NEAR(b.model.peak_fp32_gflops(b.sm_count, 1000),
                b.sm_count * b.model.fp32_lanes_per_sm.value * 2.0, 1e-9);
  }
}

TEST(BoardFacts, AnUnsourcedFactIsRejectedNamingFileAndKey) {
  std::ifstream in(boards_dir() + "/agx-xavier.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string toml = text.str();
  const std::string from = "fp16_rate = { value = 2, source = \"guide:";
  const auto at = toml.find(from);
  ASSERT_NE(at, std::string::npos);
  toml.replace(at, from.size(), "fp16_rate = { value = 2, source = \"somewhere:");
  const std::string dir = ::testing::TempDir() + "/facts";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/agx-xavier.toml";
  std::ofstream(path) << toml;
  try {
    load_board(path);
    FAIL() << "no error";
  } catch (const BoardError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("model.fp16_rate.source"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace flowtune::model
