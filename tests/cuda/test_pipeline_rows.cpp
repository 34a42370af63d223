// The pipelines' register blocking (rows_per_thread, kernels/cuda/tvl1_pipeline.cuh): a config
// without it means 1 and builds the same kernel; the ring holds depth + rows lines; rows > 1
// compiles for Hopper, Orin and (estimated) Xavier; and on a GPU every rows_per_thread gives
// exactly (bit for bit) the result of rows_per_thread = 1, and the occupancy model equals the
// driver's for the blocked kernels. GPU tests skip cleanly without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "boards/board.hpp"
#include "tests/cuda/driver_occupancy.hpp"
#include "tests/cuda/iteration_problem.hpp"
#include "tuner/constraints.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/tvl1_params_of.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cuda {
namespace {

using testing::DeviceProblem;
using testing::Problem;
using testing::random_problem;

Config pipeline_config(const std::string& scheme, const std::string& precision,
                       std::map<std::string, int> tunables, int rows) {
  Config c;
  c.variant = scheme;
  c.precision = precision;
  c.tunables = std::move(tunables);
  if (rows > 0) c.tunables["rows_per_thread"] = rows;
  if (c.tunables.count("optin"))  // the opt-in exactly where the ring needs it
    c.tunables["optin"] = pipeline_ring_bytes(c) > 48 * 1024 ? 1 : 0;
  c.params = param_values_of(Tvl1Params{});
  c.params["epsilon"] = 0;  // the GPU variants run fixed iterations
  return c;
}

const std::map<std::string, int> kBest = {{"w", 128},  {"parts", 1},    {"depth", 5},
                                          {"skew", 1}, {"strip_h", 32}, {"optin", 0}};

TEST(PipelineRows, AbsentMeansOneAndBuildsTheSameKernel) {
  const auto& sp = shared_pipeline_variant();
  const Config absent = pipeline_config("shared_pipeline", "f16", kBest, 0);
  const Config one = pipeline_config("shared_pipeline", "f16", kBest, 1);
  const Config two = pipeline_config("shared_pipeline", "f16", kBest, 2);
  EXPECT_FALSE(sp.invalid_reason(absent).has_value());
  EXPECT_FALSE(sp.invalid_reason(one).has_value());
  EXPECT_FALSE(sp.invalid_reason(two).has_value());
  EXPECT_EQ(rows_per_thread_of(absent), 1);
  EXPECT_EQ(rows_per_thread_of(two), 2);
  // 1 adds no define: the build (and NVRTC's cache entry) of a config from before the tunable.
  EXPECT_EQ(nvrtc_defines(absent), nvrtc_defines(one));
  const auto d2 = nvrtc_defines(two);
  EXPECT_NE(std::find(d2.begin(), d2.end(), "FT_ROWS_PER_THREAD=2"), d2.end());
  EXPECT_EQ(pipeline_ring_bytes(absent), pipeline_ring_bytes(one));
  const auto domain = rows_per_thread_domain();
  EXPECT_EQ(domain.name, "rows_per_thread");
  EXPECT_EQ(domain.values, (std::vector<int>{1, 2, 4}));
}

TEST(PipelineRows, RingHoldsDepthPlusRowsLines) {
  // 4 pair planes + 1 scalar plane of depth + rows lines: f32 (4 * 8 + 4) * w * (depth + rows).
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 1, 1), 36 * 128 * 6);
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 1, 4), 36 * 128 * 9);
  EXPECT_EQ(pipeline_ring_bytes("f16", 256, 8, 1, 2), 18 * 256 * 10);
  EXPECT_THROW(pipeline_ring_bytes("f32", 128, 5, 2, 2), std::invalid_argument);
  EXPECT_THROW(pipeline_ring_bytes("f32", 128, 5, 1, 0), std::invalid_argument);
  Config c = pipeline_config("shared_pipeline", "f32", kBest, 4);
  const auto& sp = shared_pipeline_variant();
  EXPECT_EQ(sp.launch_shape(c).dynamic_shared_bytes, 36 * 128 * 9);
  EXPECT_EQ(sp.launch_shape(c).threads_per_block, 128);  // the block's shape is unchanged
  c.tunables["skew"] = 2;  // skew 2 already has depth independent updates per phase
  const auto why = sp.invalid_reason(c);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("needs skew=1"), std::string::npos) << *why;
  c.tunables["skew"] = 1;
  c.tunables["rows_per_thread"] = 0;
  EXPECT_TRUE(sp.invalid_reason(c).has_value());
  EXPECT_TRUE(global_pipeline_variant()
                  .invalid_reason(pipeline_config(
                      "global_pipeline", "f32",
                      {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 2}, {"strip_h", 32}}, 4))
                  .has_value());
}

// NVRTC, no GPU: the blocked kernels build natively for Hopper and Orin, and as the sm_75
// estimate for Xavier (nvrtc_target_arch), without spilling.
TEST(PipelineRows, BlockedKernelsCompileForHopperOrinAndXavier) {
  for (const std::string precision : {"f32", "f16", "mixed"}) {
    const Config c = pipeline_config("shared_pipeline", precision, kBest, 4);
    for (const std::string arch : {"sm_90", "sm_87", "sm_72"}) {
      SCOPED_TRACE(c.label() + " " + arch);
      const auto res = shared_pipeline_variant().resources(c, arch);
      ASSERT_EQ(res.size(), 1u);
      std::printf("[rows] %s %s: %d registers, %d B spills\n", c.label().c_str(), arch.c_str(),
                  res[0].registers_per_thread, res[0].spill_bytes);
      EXPECT_EQ(res[0].kernel, "ft_shared_pipeline");
      EXPECT_EQ(res[0].estimated, arch == "sm_72");
      EXPECT_EQ(res[0].built_for, arch == "sm_72" ? "sm_75" : arch);
      EXPECT_EQ(res[0].spill_bytes, 0);
      EXPECT_EQ(res[0].dynamic_shared_bytes, pipeline_ring_bytes(c));
    }
  }
  const Config g =
      pipeline_config("global_pipeline", "f16",
                      {{"w", 128}, {"parts", 2}, {"depth", 3}, {"skew", 1}, {"strip_h", 16}}, 2);
  const auto res = global_pipeline_variant().resources(g, "sm_87");
  ASSERT_EQ(res.size(), 1u);
  EXPECT_FALSE(res[0].estimated);
  EXPECT_EQ(res[0].spill_bytes, 0);
}

// ---- GPU ----

struct Strip {
  std::string scheme;
  std::map<std::string, int> tunables;
};

// The protocol's best strip; parts 2 with a short strip (26 rows: not a multiple of 4) and a
// small depth; a deep, wide ring (f32 rows 4 needs the opt-in) whose 10 iterations end in a
// launch of depth 2 < rows.
std::vector<Strip> strips(const std::string& scheme) {
  std::vector<Strip> out = {
      {scheme, {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}}},
      {scheme, {{"w", 128}, {"parts", 2}, {"depth", 3}, {"skew", 1}, {"strip_h", 16}}},
  };
  if (scheme == "shared_pipeline") {
    out.push_back({scheme, {{"w", 256}, {"parts", 1}, {"depth", 8}, {"skew", 1}, {"strip_h", 64}}});
    for (auto& s : out) s.tunables["optin"] = 0;
  }
  return out;
}

std::vector<unsigned char> run_once(const Config& config, const Problem& pb, int iterations) {
  auto schedule = make_iteration_schedule(config);
  DeviceProblem dev(pb, storage_of(config.precision));
  schedule->run(dev.fields(), iterations, nullptr);
  check_cuda(cudaDeviceSynchronize(), "run");
  return dev.state_bytes();
}

class PipelineRowsGpu : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// Bit for bit: u, p1, p2 after 1, 7 and 10 iterations (1000 x 777, random smooth fields with
// flat patches) with rows_per_thread 2 and 4 equal those with 1 byte for byte.
TEST_P(PipelineRowsGpu, EveryRowCountEqualsOneRowBitForBit) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device";
  const auto& [scheme, precision] = GetParam();
  const Problem pb = random_problem(2111u);
  for (const Strip& s : strips(scheme)) {
    for (const int iterations : {10, 7, 1}) {
      const Config one = pipeline_config(scheme, precision, s.tunables, 1);
      const auto expected = run_once(one, pb, iterations);
      for (const int rows : {2, 4}) {
        const Config c = pipeline_config(scheme, precision, s.tunables, rows);
        SCOPED_TRACE(c.label() + " iterations=" + std::to_string(iterations));
        ASSERT_FALSE(c.variant.empty());
        ASSERT_FALSE(find_variant(scheme)->invalid_reason(c).has_value())
            << *find_variant(scheme)->invalid_reason(c);
        const auto got = run_once(c, pb, iterations);
        ASSERT_EQ(got.size(), expected.size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != expected[i];
        std::printf("[rows bitwise] %-70s it=%2d: %zu of %zu bytes differ\n", c.label().c_str(),
                    iterations, differ, got.size());
        EXPECT_EQ(differ, 0u);
      }
    }
  }
}

// The occupancy model (tuner/occupancy.hpp, through check_constraints) against the driver's
// calculator for every blocked config above that the board keeps.
TEST_P(PipelineRowsGpu, OccupancyModelEqualsTheDriver) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device";
  const auto occupancy_fn = testing::driver_occupancy();
  ASSERT_NE(occupancy_fn, nullptr);
  const auto& [scheme, precision] = GetParam();
  const std::string arch = current_device_arch();
  Board board;
  bool found = false;
  for (const std::string& name : list_boards()) {
    board = load_board(name);
    if (board.target == "cuda" && board.arch() == arch) {
      found = true;
      break;
    }
  }
  if (!found) GTEST_SKIP() << "no board profile for " << arch;
  int compared = 0;
  for (const Strip& s : strips(scheme)) {
    for (const int rows : {2, 4}) {
      const Config c = pipeline_config(scheme, precision, s.tunables, rows);
      const ConstraintCheck check = check_constraints(board, *find_variant(scheme), c);
      if (check.prune_reason) continue;
      const auto build = nvrtc_build(device_source_of(scheme), nvrtc_defines(c), arch);
      const LoadedModule module(build->cubin);
      for (const KernelOccupancy& k : check.kernels) {
        const KernelResources& r = k.resources;
        if (r.dynamic_shared_bytes > board.limits.shared_bytes_per_block_default)
          module.set_max_dynamic_shared(r.kernel, r.dynamic_shared_bytes);
        int blocks = -1;
        ASSERT_EQ(occupancy_fn(&blocks, module.function(r.kernel), r.threads_per_block,
                               std::size_t(r.dynamic_shared_bytes)),
                  CUDA_SUCCESS);
        std::printf("[rows occupancy] %-70s %d registers, %d B shared: model %d, driver %d\n",
                    c.label().c_str(), r.registers_per_thread, r.dynamic_shared_bytes,
                    k.occupancy.active_blocks_per_sm, blocks);
        EXPECT_EQ(k.occupancy.active_blocks_per_sm, blocks) << c.label();
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(
    SchemesAndPrecisions, PipelineRowsGpu,
    ::testing::Combine(::testing::Values("shared_pipeline", "global_pipeline"),
                       ::testing::Values("f32", "f16", "mixed")),
    [](const ::testing::TestParamInfo<PipelineRowsGpu::ParamType>& param_info) {
      return std::get<0>(param_info.param) + "_" + std::get<1>(param_info.param);
    });

}  // namespace
}  // namespace flowtune::cuda
