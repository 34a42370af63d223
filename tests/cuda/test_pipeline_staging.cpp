// shared_pipeline's staging (kernels/cuda/tvl1_pipeline.cuh, FT_STAGING): a config without it
// means 0 and builds the same kernel; staging=1 adds one ring line with skew 1 and none with
// skew 2; it is refused with its reason for f16, for rows_per_thread > 1 and below sm_80 (no
// cp.async); it compiles for Hopper and Orin without spilling; and on a GPU (sm_80 or newer)
// staging=1 gives exactly (bit for bit) the result of staging=0, and the occupancy model
// equals the driver's for the staged kernels. GPU tests skip cleanly without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
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

// A shared_pipeline config; staging < 0 leaves the tunable out.
Config staged_config(const std::string& precision, std::map<std::string, int> tunables,
                     int staging) {
  Config c;
  c.variant = "shared_pipeline";
  c.precision = precision;
  c.tunables = std::move(tunables);
  if (staging >= 0) c.tunables["staging"] = staging;
  c.tunables["optin"] = 0;
  c.tunables["optin"] = pipeline_ring_bytes(c) > 48 * 1024 ? 1 : 0;  // where the ring needs it
  c.params = param_values_of(Tvl1Params{});
  c.params["epsilon"] = 0;  // the GPU variants run fixed iterations
  return c;
}

const std::map<std::string, int> kStrip = {
    {"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}};

TEST(PipelineStaging, AbsentMeansZeroAndBuildsTheSameKernel) {
  const auto& sp = shared_pipeline_variant();
  const Config absent = staged_config("f32", kStrip, -1);
  const Config zero = staged_config("f32", kStrip, 0);
  const Config one = staged_config("f32", kStrip, 1);
  EXPECT_FALSE(sp.invalid_reason(absent).has_value());
  EXPECT_FALSE(sp.invalid_reason(zero).has_value());
  EXPECT_FALSE(sp.invalid_reason(one).has_value());
  EXPECT_EQ(staging_of(absent), 0);
  EXPECT_EQ(staging_of(one), 1);
  EXPECT_EQ(nvrtc_defines(absent), nvrtc_defines(zero));
  const auto d1 = nvrtc_defines(one);
  EXPECT_NE(std::find(d1.begin(), d1.end(), "FT_STAGING=1"), d1.end());
  const auto domain = staging_domain();
  EXPECT_EQ(domain.name, "staging");
  EXPECT_EQ(domain.values, (std::vector<int>{0, 1}));
  const auto tunables = sp.tunables();
  EXPECT_TRUE(std::any_of(tunables.begin(), tunables.end(),
                          [](const TunableDomain& d) { return d.name == "staging"; }));
}

TEST(PipelineStaging, SkewOneRingGainsOneLineSkewTwoNone) {
  // (4 pair planes + 1 scalar plane) x w x lines; f32 pairs 8 B, mixed 4 B.
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 1, 1, 0), 36 * 128 * 6);
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 1, 1, 1), 36 * 128 * 7);
  EXPECT_EQ(pipeline_ring_bytes("mixed", 256, 3, 1, 1, 1), 18 * 256 * 5);
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 2, 1, 1), 36 * 128 * 11);
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 2, 1, 0), 36 * 128 * 11);
  const Config one = staged_config("f32", kStrip, 1);
  EXPECT_EQ(shared_pipeline_variant().launch_shape(one).dynamic_shared_bytes, 36 * 128 * 7);
}

TEST(PipelineStaging, RefusedWithItsReasonForF16RowsAndOldArchs) {
  const auto& sp = shared_pipeline_variant();
  const auto f16 = sp.invalid_reason(staged_config("f16", kStrip, 1));
  ASSERT_TRUE(f16.has_value());
  EXPECT_NE(f16->find("needs f32 or mixed"), std::string::npos) << *f16;
  Config rows = staged_config("f32", kStrip, 1);
  rows.tunables["rows_per_thread"] = 2;
  const auto r = sp.invalid_reason(rows);
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(r->find("needs rows_per_thread=1"), std::string::npos) << *r;
  EXPECT_TRUE(sp.invalid_reason(staged_config("f32", kStrip, 2)).has_value());
  const Config one = staged_config("f32", kStrip, 1);
  for (const std::string arch : {"sm_53", "sm_62", "sm_72", "sm_75"}) {
    const auto why = arch_invalid_reason(sp.name(), one, arch);
    ASSERT_TRUE(why.has_value()) << arch;
    EXPECT_NE(why->find("needs cp.async, which " + arch + " lacks"), std::string::npos) << *why;
    EXPECT_THROW(sp.resources(one, arch), std::invalid_argument) << arch;
  }
  for (const std::string arch : {"sm_80", "sm_87", "sm_90"})
    EXPECT_FALSE(arch_invalid_reason(sp.name(), one, arch).has_value()) << arch;
  EXPECT_FALSE(arch_invalid_reason(sp.name(), staged_config("f32", kStrip, 0), "sm_53"));
}

// NVRTC, no GPU: the staged kernels build natively for Hopper and Orin without spilling, with
// the ring as their dynamic shared memory.
TEST(PipelineStaging, StagedKernelsCompileForHopperAndOrin) {
  for (const std::string precision : {"f32", "mixed"}) {
    for (const int skew : {1, 2}) {
      auto t = kStrip;
      t["skew"] = skew;
      const Config c = staged_config(precision, t, 1);
      for (const std::string arch : {"sm_90", "sm_87"}) {
        SCOPED_TRACE(c.label() + " " + arch);
        const auto res = shared_pipeline_variant().resources(c, arch);
        ASSERT_EQ(res.size(), 1u);
        std::printf("[staging] %s %s: %d registers, %d B spills\n", c.label().c_str(), arch.c_str(),
                    res[0].registers_per_thread, res[0].spill_bytes);
        EXPECT_EQ(res[0].kernel, "ft_shared_pipeline");
        EXPECT_EQ(res[0].built_for, arch);
        EXPECT_EQ(res[0].spill_bytes, 0);
        EXPECT_EQ(res[0].dynamic_shared_bytes, pipeline_ring_bytes(c));
      }
    }
  }
}

// ---- GPU ----

// The protocol's best strip; parts 2 with a short strip (16 rows) and a small depth; a deep,
// wide ring whose 10 iterations end in a launch of depth 2; each with skew 1 and 2.
std::vector<std::map<std::string, int>> staged_strips() {
  std::vector<std::map<std::string, int>> out;
  for (const int skew : {1, 2}) {
    out.push_back({{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", skew}, {"strip_h", 32}});
    out.push_back({{"w", 128}, {"parts", 2}, {"depth", 3}, {"skew", skew}, {"strip_h", 16}});
    out.push_back({{"w", 256}, {"parts", 1}, {"depth", 8}, {"skew", skew}, {"strip_h", 64}});
  }
  return out;
}

std::vector<unsigned char> run_staged(const Config& config, const Problem& pb, int iterations) {
  auto schedule = make_iteration_schedule(config);
  DeviceProblem dev(pb, storage_of(config.precision));
  schedule->run(dev.fields(), iterations, nullptr);
  check_cuda(cudaDeviceSynchronize(), "run");
  return dev.state_bytes();
}

bool device_has_async_copy() {
  return device_available() &&
         !arch_invalid_reason("shared_pipeline", staged_config("f32", kStrip, 1),
                              current_device_arch());
}

class PipelineStagingGpu : public ::testing::TestWithParam<std::string> {};

// Bit for bit: u, p1, p2 after 1, 7 and 10 iterations (1000 x 777, random smooth fields with
// flat patches) with staging 1 equal those with staging 0 byte for byte.
TEST_P(PipelineStagingGpu, StagedEqualsRegistersBitForBit) {
  if (!device_has_async_copy()) GTEST_SKIP() << "no CUDA device with cp.async (sm_80+)";
  const std::string precision = GetParam();
  const Problem pb = random_problem(2111u);
  for (const auto& strip : staged_strips()) {
    for (const int iterations : {10, 7, 1}) {
      const auto expected = run_staged(staged_config(precision, strip, 0), pb, iterations);
      const Config c = staged_config(precision, strip, 1);
      SCOPED_TRACE(c.label() + " iterations=" + std::to_string(iterations));
      ASSERT_FALSE(shared_pipeline_variant().invalid_reason(c).has_value());
      const auto got = run_staged(c, pb, iterations);
      ASSERT_EQ(got.size(), expected.size());
      std::size_t differ = 0;
      for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != expected[i];
      std::printf("[staging bitwise] %-70s it=%2d: %zu of %zu bytes differ\n", c.label().c_str(),
                  iterations, differ, got.size());
      EXPECT_EQ(differ, 0u);
    }
  }
}

// The occupancy model (tuner/occupancy.hpp, through check_constraints) against the driver's
// calculator for every staged config above that the board keeps.
TEST_P(PipelineStagingGpu, OccupancyModelEqualsTheDriver) {
  if (!device_has_async_copy()) GTEST_SKIP() << "no CUDA device with cp.async (sm_80+)";
  const auto occupancy_fn = testing::driver_occupancy();
  ASSERT_NE(occupancy_fn, nullptr);
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
  for (const auto& strip : staged_strips()) {
    const Config c = staged_config(GetParam(), strip, 1);
    const ConstraintCheck check = check_constraints(board, shared_pipeline_variant(), c);
    if (check.prune_reason) continue;
    const auto build = nvrtc_build(device_source_of("shared_pipeline"), nvrtc_defines(c), arch);
    const LoadedModule module(build->cubin);
    for (const KernelOccupancy& k : check.kernels) {
      const KernelResources& r = k.resources;
      if (r.dynamic_shared_bytes > board.limits.shared_bytes_per_block_default)
        module.set_max_dynamic_shared(r.kernel, r.dynamic_shared_bytes);
      int blocks = -1;
      ASSERT_EQ(occupancy_fn(&blocks, module.function(r.kernel), r.threads_per_block,
                             std::size_t(r.dynamic_shared_bytes)),
                CUDA_SUCCESS);
      std::printf("[staging occupancy] %-70s %d registers, %d B shared: model %d, driver %d\n",
                  c.label().c_str(), r.registers_per_thread, r.dynamic_shared_bytes,
                  k.occupancy.active_blocks_per_sm, blocks);
      EXPECT_EQ(k.occupancy.active_blocks_per_sm, blocks) << c.label();
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Precisions, PipelineStagingGpu, ::testing::Values("f32", "mixed"));

}  // namespace
}  // namespace flowtune::cuda
