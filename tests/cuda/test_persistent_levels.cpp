// The persistent levels (variants/cuda/persistent_levels.hpp, kernels/cuda/tvl1_persistent.cuh):
// all the iterations of a warping in one cooperative launch. Without a GPU: the tunable, its
// place outside the NVRTC defines and the pruning resources (the occupancy model gives the
// kernel resident blocks on every CUDA board). On a GPU: bit-for-bit equality with scheme
// `global` (both grid-sync counts, every precision) and shared_fusion (f32, f16), the double
// reference's bound, the stopping test inside the launch against EpsilonStop's rule, the
// occupancy model against the driver, and whole frames on RubberWhale (equal flows, CUDA
// Graph captured). GPU tests skip without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "tests/cuda/iteration_problem.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "tuner/constraints.hpp"
#include "tuner/occupancy.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/epsilon_stop.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {
namespace {

using testing::DeviceProblem;
using testing::Problem;
using testing::random_problem;
using testing::relative_l2;

Config scheme_config(const std::string& variant, const std::string& precision,
                     const Tvl1Params& params) {
  Config c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = {{"block_x", 32}, {"block_y", variant == "global" ? 4 : 8}};
  c.params = param_values_of(params);
  return c;
}

// ---- without a GPU ----------------------------------------------------------------------

TEST(PersistentLevels, TunableOfEverySchemeOffByDefaultAndNoKernelDefine) {
  for (const CudaVariant* v : tvl1_cuda_schemes()) {
    bool found = false;
    for (const auto& d : v->tunables())
      if (d.name == "persistent_px") {
        found = true;
        EXPECT_EQ(d.values.front(), 0) << v->name();  // off first: the default start point
        EXPECT_EQ(d.values.back(), 1048576) << v->name();
      }
    EXPECT_TRUE(found) << v->name();
  }
  Config c = scheme_config("shared_fusion", "f16", Tvl1Params{});
  EXPECT_EQ(persistent_px_of(c), 0);  // absent = off
  c.tunables["persistent_px"] = 1048576;
  EXPECT_EQ(persistent_px_of(c), 1048576);
  EXPECT_FALSE(shared_fusion_variant().invalid_reason(c).has_value());
  for (const auto& d : nvrtc_defines(c)) EXPECT_EQ(d.find("PERSISTENT"), std::string::npos) << d;
  EXPECT_THROW(persistent_kernel_config("f32", 3), std::invalid_argument);
}

// Pruning: with persistent_px > 0 the config's resources include ft_persistent (NVRTC, no
// GPU needed), and the occupancy model gives it resident blocks on every CUDA board of
// compute capability >= 6.0, so the cooperative launch has a grid (the count is what
// PersistentLevels sizes its grid by); below 6.0 (no cooperative launch) the config is pruned.
TEST(PersistentLevels, ResourcesIncludeThePersistentKernelWithResidentBlocksOnEveryBoard) {
  for (const std::string& name : list_boards()) {
    const Board board = load_board(name);
    if (board.target != "cuda") continue;
    Config c = scheme_config("shared_fusion", "f16", Tvl1Params{});
    c.tunables["persistent_px"] = 1048576;
    if (board.limits.cc_major < 6) {  // no cooperative launch: pruned, with the reason
      const auto why = prune_reason(board, shared_fusion_variant(), c);
      ASSERT_TRUE(why.has_value()) << name;
      EXPECT_NE(why->find("cooperative launch"), std::string::npos) << *why;
      std::printf("%s (%s): pruned: %s\n", name.c_str(), board.arch().c_str(), why->c_str());
      continue;
    }
    const std::vector<KernelResources> rs = shared_fusion_variant().resources(c, board.arch());
    bool found = false;
    for (const auto& r : rs) {
      if (r.kernel != "ft_persistent") continue;
      found = true;
      EXPECT_EQ(r.threads_per_block, kPersistentThreads);
      const OccupancyResult o = occupancy(board.limits, r);
      std::printf("%s (%s): ft_persistent %d registers, %d blocks/SM (%s)\n", name.c_str(),
                  board.arch().c_str(), r.registers_per_thread, o.active_blocks_per_sm,
                  o.limited_by.c_str());
      EXPECT_TRUE(o.error.empty()) << name << ": " << o.error;
      EXPECT_GE(o.active_blocks_per_sm, 1) << name;
    }
    EXPECT_TRUE(found) << name;
  }
  Config off = scheme_config("shared_fusion", "f16", Tvl1Params{});
  for (const auto& r : shared_fusion_variant().resources(off, "sm_90"))
    EXPECT_NE(r.kernel, "ft_persistent");
}

// ---- on a GPU ---------------------------------------------------------------------------

class PersistentLevelsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

/// u, p1, p2 after `iterations` iterations of config's scheme on pb.
std::vector<unsigned char> scheme_state(const Config& c, const Problem& pb, int iterations) {
  auto schedule = make_iteration_schedule(c);
  DeviceProblem dev(pb, storage_of(c.precision));
  schedule->run(dev.fields(), iterations, nullptr);
  check_cuda(cudaDeviceSynchronize(), "scheme run");
  return dev.state_bytes();
}

// Both grid-sync counts equal scheme `global` bit for bit in every precision (the same
// update_u / update_p on the same inputs; u rounded to the storage between the updates as
// `global` stores it), and shared_fusion in f32 and f16 (mixed: shared_fusion keeps u_new in
// float between its two updates); 7 iterations leave the ping-pong's result in the second set
// (copied back in the launch). The double reference's bound holds (iteration-schedule bounds).
TEST_F(PersistentLevelsGpu, EqualsGlobalAndSharedFusionBitForBit) {
  const Tvl1Params params;
  for (const int iterations : {10, 7}) {
    const Problem pb = random_problem(4321u + unsigned(iterations));
    Tvl1State<double> ref = pb.state;
    tvl1_iterate_reference(pb.data, ref, params, iterations);
    for (const std::string precision : {"f32", "f16", "mixed"}) {
      const auto global = scheme_state(scheme_config("global", precision, params), pb, iterations);
      const auto fusion =
          scheme_state(scheme_config("shared_fusion", precision, params), pb, iterations);
      for (const int syncs : {1, 2}) {
        SCOPED_TRACE(precision + " syncs " + std::to_string(syncs) + " iterations " +
                     std::to_string(iterations));
        PersistentLevels levels(scheme_config("global", precision, params), 1 << 20, syncs);
        ASSERT_TRUE(levels.takes(testing::kWidth, testing::kHeight));
        DeviceProblem dev(pb, storage_of(precision));
        levels.run(dev.fields(), iterations, nullptr);
        check_cuda(cudaDeviceSynchronize(), "persistent run");
        const auto mine = dev.state_bytes();
        EXPECT_TRUE(mine == global) << "differs from global";
        if (precision != "mixed") {
          EXPECT_TRUE(mine == fusion) << "differs from shared_fusion";
        }
        std::vector<double> u1, u2;
        dev.download_flow(u1, u2);
        const double err = relative_l2(u1, u2, ref);
        std::printf("[persistent] %s syncs %d iterations %d: %d blocks/SM, rel_l2 %.3e\n",
                    precision.c_str(), syncs, iterations, levels.blocks_per_sm(), err);
        EXPECT_LT(err, precision == "f32" ? 1e-4 : 2e-3);
      }
    }
  }
}

// A grid of fewer blocks than are resident (1 per SM) walks more pixels per thread: the same
// bits.
TEST_F(PersistentLevelsGpu, FewerBlocksPerSmGiveTheSameBits) {
  const Tvl1Params params;
  const Problem pb = random_problem(99u);
  const Config c = scheme_config("global", "f16", params);
  const auto global = scheme_state(c, pb, 9);
  for (const int syncs : {1, 2}) {
    PersistentLevels levels(c, 1 << 20, syncs, 1);
    EXPECT_EQ(levels.blocks_per_sm(), 1);
    DeviceProblem dev(pb, Storage::f16);
    levels.run(dev.fields(), 9, nullptr);
    check_cuda(cudaDeviceSynchronize(), "persistent run");
    EXPECT_TRUE(dev.state_bytes() == global) << "syncs " << syncs;
  }
}

/// mean over pixels of |a - b|^2 of two f32 flows (the stopping test's statistic).
double mean_change(const std::vector<double>& a1, const std::vector<double>& a2,
                   const std::vector<double>& b1, const std::vector<double>& b2) {
  double s = 0;
  for (std::size_t i = 0; i < a1.size(); ++i)
    s += (a1[i] - b1[i]) * (a1[i] - b1[i]) + (a2[i] - b2[i]) * (a2[i] - b2[i]);
  return s / double(a1.size());
}

// The stopping test inside the launch follows EpsilonStop's rule: epsilon^2 is set halfway
// (geometrically) between the statistic after iteration 10 and after iteration 15 (measured
// with `global`), so both stop after 15 iterations of 40, with the flow of 15 iterations.
TEST_F(PersistentLevelsGpu, StoppingTestInsideTheLaunchStopsWhereEpsilonStopDoes) {
  const Tvl1Params params;
  const Problem pb = random_problem(777u);
  const Config c = scheme_config("global", "f32", params);
  auto schedule = make_iteration_schedule(c);
  DeviceProblem dev(pb, Storage::f32);
  std::vector<double> stat;  // statistic after iterations 5, 10, 15
  for (int k = 0; k < 3; ++k) {
    schedule->run(dev.fields(), 4, nullptr);
    std::vector<double> a1, a2, b1, b2;
    check_cuda(cudaDeviceSynchronize(), "run");
    dev.download_flow(a1, a2);
    schedule->run(dev.fields(), 1, nullptr);
    check_cuda(cudaDeviceSynchronize(), "run");
    dev.download_flow(b1, b2);
    stat.push_back(mean_change(a1, a2, b1, b2));
  }
  std::printf("statistic after 5, 10, 15 iterations: %.4e %.4e %.4e\n", stat[0], stat[1], stat[2]);
  ASSERT_GT(stat[0], stat[1]);
  ASSERT_GT(stat[1], stat[2] * 1.01);  // not a borderline decision
  const double epsilon = std::sqrt(std::sqrt(stat[1] * stat[2]));
  const auto fifteen = dev.state_bytes();  // `global` after 15 iterations

  int* done = nullptr;
  check_cuda(cudaMalloc(reinterpret_cast<void**>(&done), sizeof(int)), "cudaMalloc");
  for (const int syncs : {1, 2}) {
    PersistentLevels levels(c, 1 << 20, syncs);
    DeviceProblem mine(pb, Storage::f32);
    levels.run(mine.fields(), 40, nullptr, epsilon, 5, done);
    int done_host = -1;
    check_cuda(cudaMemcpy(&done_host, done, sizeof(int), cudaMemcpyDeviceToHost), "done");
    EXPECT_EQ(done_host, 15) << "syncs " << syncs;
    EXPECT_TRUE(mine.state_bytes() == fifteen) << "syncs " << syncs;
    // Without the test: all 40.
    DeviceProblem all(pb, Storage::f32);
    levels.run(all.fields(), 40, nullptr, 0.0, 0, done);
    check_cuda(cudaMemcpy(&done_host, done, sizeof(int), cudaMemcpyDeviceToHost), "done");
    EXPECT_EQ(done_host, 40) << "syncs " << syncs;
  }
  cudaFree(done);
  // EpsilonStop around `global` stops at the same iteration.
  EpsilonStop stop(false);
  DeviceProblem host_tested(pb, Storage::f32);
  const DeviceFields f = host_tested.fields();
  const int n = stop.run(
      f, 40, epsilon, 5, [&](int k) { schedule->run(f, k, nullptr); }, nullptr);
  EXPECT_EQ(n, 15);
  EXPECT_TRUE(host_tested.state_bytes() == fifteen);
}

// The tuner's occupancy model (tuner/occupancy.hpp) on the kernel's NVRTC resources gives the
// driver's resident blocks per SM, which sizes the cooperative grid.
TEST_F(PersistentLevelsGpu, OccupancyModelEqualsTheDriver) {
  const std::string arch = current_device_arch();
  const Board* board = nullptr;
  std::vector<Board> boards;
  for (const std::string& name : list_boards()) boards.push_back(load_board(name));
  for (const Board& b : boards)
    if (b.target == "cuda" && b.arch() == arch) board = &b;
  if (!board) GTEST_SKIP() << "no board profile for " << arch;
  for (const std::string precision : {"f32", "f16", "mixed"})
    for (const int syncs : {1, 2}) {
      PersistentLevels levels(scheme_config("global", precision, Tvl1Params{}), 1 << 20, syncs);
      ASSERT_GT(levels.resident_blocks_per_sm(), 0);
      KernelResources r =
          nvrtc_build("tvl1_persistent.cuh",
                      nvrtc_defines(persistent_kernel_config(precision, syncs)), arch)
              ->resources.at(0);
      r.threads_per_block = kPersistentThreads;
      const OccupancyResult o = occupancy(board->limits, r);
      std::printf("%s syncs %d: %d registers, model %d, driver %d blocks/SM\n", precision.c_str(),
                  syncs, r.registers_per_thread, o.active_blocks_per_sm,
                  levels.resident_blocks_per_sm());
      EXPECT_EQ(o.active_blocks_per_sm, levels.resident_blocks_per_sm()) << precision << syncs;
      int sms = 0;
      check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SMs");
      EXPECT_EQ(levels.grid_blocks(1LL << 30), levels.resident_blocks_per_sm() * sms);
      EXPECT_EQ(levels.grid_blocks(1000), 4);  // ceil(1000 / 256): no idle block
    }
}

// Whole frames on RubberWhale at OpenCV's accuracy setting but 2 warpings (5 scales x 0.8,
// 20 iterations), shared_fusion 32x8: with every level persistent (1 or 2 grid syncs per
// iteration) the flow equals the one with every level on the scheme bit for bit (f32, f16);
// the timeline names the persistent levels; the frame is captured in a CUDA Graph (one build)
// and its replays give the same flow.
TEST_F(PersistentLevelsGpu, WholeFramesEqualTheSchemeAndAreCapturedInAGraph) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const Image &i0 = rw.i0, &i1 = rw.i1;
  const FlowField& gt = rw.gt;
  Tvl1Params p;
  p.n_scales = 5;
  p.zoom = 0.8;
  p.n_warpings = 2;
  p.iterations = 20;
  p.epsilon = 0;
  for (const std::string precision : {"f32", "f16"}) {
    const Config c = scheme_config("shared_fusion", precision, p);
    const auto make = [&](int persistent_px, int syncs) {
      FrameOptions o;
      o.resident_max_pixels = 0;
      o.tiled_max_pixels = 0;
      o.persistent_max_pixels = persistent_px;
      o.persistent_syncs = syncs;
      return make_cuda_frame_solver(c, make_iteration_schedule(c), o);
    };
    const FlowField plain = make(0, 1)->compute(i0, i1);
    for (const int syncs : {1, 2}) {
      SCOPED_TRACE(precision + " syncs " + std::to_string(syncs));
      auto solver = make(1 << 20, syncs);
      for (int frame = 0; frame < 3; ++frame) {  // direct, capture, replay
        const FlowField f = solver->compute(i0, i1);
        EXPECT_EQ(f.u, plain.u) << "frame " << frame;
        EXPECT_EQ(f.v, plain.v) << "frame " << frame;
        if (frame == 0)
          std::printf("%s syncs %d: AEPE %.6f\n", precision.c_str(), syncs, flow_error(f, gt).aepe);
      }
      EXPECT_EQ(frame_cache_stats(*solver).graph_builds, 1) << "cooperative launch not captured";
      const auto t = profile_frame(*solver, i0, i1, 1);
      int persistent = 0, other = 0;
      for (const auto& st : t.stages) {
        persistent += st.stage == "iterations_persistent";
        other += st.stage == "iterations" || st.stage == "iterations_tiled";
      }
      EXPECT_EQ(persistent, p.n_scales * p.n_warpings);
      EXPECT_EQ(other, 0);
    }
  }
}

}  // namespace
}  // namespace flowtune::cuda
