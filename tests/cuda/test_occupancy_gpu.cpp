// On an H100/H200, for every buildable config of the board's space, the occupancy
// model's blocks/SM equals the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor
// (FLOWTUNE_OCCUPANCY_SHARD splits the space over processes). Configs that build the same
// module with the same launch resources (they differ only in tunables that choose which
// kernels a frame launches, not their code) are one case: checked once, by one shard.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tests/cuda/driver_occupancy.hpp"
#include "tuner/constraints.hpp"
#include "tuner/occupancy.hpp"
#include "tuner/space.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {
namespace {

using cuda::testing::driver_occupancy;
using cuda::testing::OccupancyFn;

// The board profile of the present device's arch (sm_90 -> h200, same limits as h100).
Board board_for(const std::string& arch) {
  for (const std::string& name : list_boards()) {
    const Board b = load_board(name);
    if (b.target == "cuda" && b.arch() == arch) return b;
  }
  throw std::runtime_error("no board profile for " + arch);
}

/// $FLOWTUNE_OCCUPANCY_SHARD = "i/n": this process checks the distinct cases (case_key) whose
/// index is i modulo n, so that n processes (with their own FLOWTUNE_CACHE_DIR) share the NVRTC
/// builds of the space out over the CPUs, each build in one process only; unset: every case
/// (0/1).
struct Shard {
  int index = 0, count = 1;
};

Shard shard_from_env() {
  Shard s;
  const char* v = std::getenv("FLOWTUNE_OCCUPANCY_SHARD");
  if (!v || !*v) return s;
  if (std::sscanf(v, "%d/%d", &s.index, &s.count) != 2 || s.count < 1 || s.index < 0 ||
      s.index >= s.count)
    throw std::invalid_argument(
        std::string("FLOWTUNE_OCCUPANCY_SHARD: want i/n with 0 <= i < n, got '") + v + "'");
  return s;
}

/// What the driver's answer for config depends on: its variant, the NVRTC defines of its
/// module (defines = nvrtc_defines(config): the per-level thresholds and the tiled kernel's
/// shape stay out) and each modelled kernel's name, threads per block, dynamic shared memory
/// and the model's inputs (registers per thread, static shared memory). Two configs with one
/// key build the same cubin, ask the driver the same questions and give the model the same
/// inputs.
std::string case_key(const Config& config, const std::vector<std::string>& defines,
                     const ConstraintCheck& check) {
  std::string key = config.variant + "|";
  for (const std::string& d : defines) key += d + " ";
  for (const KernelOccupancy& k : check.kernels)
    key += "|" + k.resources.kernel + ":" + std::to_string(k.resources.threads_per_block) + ":" +
           std::to_string(k.resources.dynamic_shared_bytes) + ":" +
           std::to_string(k.resources.registers_per_thread) + ":" +
           std::to_string(k.resources.static_shared_bytes);
  return key;
}

TEST(OccupancyOnDevice, ModelEqualsDriverForEveryBuildableConfig) {
  if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  const OccupancyFn occupancy_fn = driver_occupancy();
  ASSERT_NE(occupancy_fn, nullptr);
  const std::string arch = cuda::current_device_arch();
  const Board board = board_for(arch);
  SpaceOptions options;
  options.default_dimensions = false;  // one parameter point: every config differs by tunables
  options.param_values = {{"epsilon", {0}}};
  int compared = 0;
  const Shard shard = shard_from_env();
  long distinct = 0, duplicates = 0;
  std::set<std::string> seen;
  for (const Config& config : enumerate_space(board, options)) {
    const auto* variant = dynamic_cast<const cuda::CudaVariant*>(find_variant(config.variant));
    ASSERT_NE(variant, nullptr);
    // resident_px changes no kernel of the scheme (only which levels it runs): one value.
    if (cuda::resident_px_of(config) != cuda::resident_px_domain().values.front()) continue;
    // persistent_px adds ft_persistent of another module (tvl1_persistent.cuh): its model
    // against the driver is PersistentLevelsGpu.OccupancyModelEqualsTheDriver.
    if (cuda::persistent_px_of(config) != 0) continue;
    const ConstraintCheck check = check_constraints(board, *variant, config);
    if (check.prune_reason) continue;
    const std::vector<std::string> defines = cuda::nvrtc_defines(config);
    if (!seen.insert(case_key(config, defines, check)).second) {
      ++duplicates;
      continue;
    }
    if (distinct++ % shard.count != shard.index) continue;
    const auto build = cuda::nvrtc_build(cuda::device_source_of(config.variant), defines, arch);
    const cuda::LoadedModule module(build->cubin);
    for (const KernelOccupancy& k : check.kernels) {
      const KernelResources& r = k.resources;
      if (r.dynamic_shared_bytes > board.limits.shared_bytes_per_block_default)
        module.set_max_dynamic_shared(r.kernel, r.dynamic_shared_bytes);
      int blocks = -1;
      ASSERT_EQ(occupancy_fn(&blocks, module.function(r.kernel), r.threads_per_block,
                             std::size_t(r.dynamic_shared_bytes)),
                CUDA_SUCCESS);
      EXPECT_EQ(k.occupancy.active_blocks_per_sm, blocks)
          << config.label() << " kernel " << r.kernel << ": model limited by "
          << k.occupancy.limited_by << ", registers " << r.registers_per_thread << ", smem "
          << r.static_shared_bytes << "+" << r.dynamic_shared_bytes;
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
  std::printf(
      "compared %d kernels of the %s space on %s (shard %d/%d of %ld distinct cases; %ld "
      "configs repeat a case); NVRTC: %s\n",
      compared, board.name.c_str(), arch.c_str(), shard.index, shard.count, distinct, duplicates,
      kernel_build_counts_text(kernel_build_counters().get()).c_str());
}

}  // namespace
}  // namespace flowtune
