// The constraint checks of a space shared per kernel config (tuner/constraint_checks.hpp)
// against check_constraints() of every config on its own, the oracle.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "boards/board.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/constraints.hpp"
#include "tuner/space.hpp"
#include "variants/variant.hpp"
#include "workloads/param_dimension.hpp"

namespace flowtune {
namespace {

void expect_same(const ConstraintCheck& shared, const ConstraintCheck& own, const Config& c) {
  EXPECT_EQ(shared.prune_reason, own.prune_reason) << c.label() << ' ' << c.params_text();
  ASSERT_EQ(shared.kernels.size(), own.kernels.size()) << c.label();
  for (std::size_t k = 0; k < own.kernels.size(); ++k) {
    EXPECT_EQ(shared.kernels[k].resources.kernel, own.kernels[k].resources.kernel);
    EXPECT_EQ(shared.kernels[k].resources.registers_per_thread,
              own.kernels[k].resources.registers_per_thread);
    EXPECT_EQ(shared.kernels[k].occupancy.active_blocks_per_sm,
              own.kernels[k].occupancy.active_blocks_per_sm);
  }
}

// GPU variants: configs that differ in parameters share one check; a parameter the workload
// rejects (an even weighted-median window) is still that config's own reason. Two kernel
// configs of the global scheme (one too large: pruned by the variant), one NVRTC build.
TEST(ConstraintChecks, SharedPerKernelConfigEqualsEachConfigChecked) {
  const Board h200 = load_board("h200");
  SpaceOptions o;
  o.variants = {"global"};
  if (!find_variant("global")) GTEST_SKIP() << "no CUDA variants in this build";
  o.precisions = {"f32"};
  o.tunable_values = {{"block_x", {32}},
                      {"block_y", {8, 64}},
                      {"resident_px", {0}},
                      {"tiled_px", {0}},
                      {"persistent_px", {0}}};
  o.param_values = {{"iterations", {10, 20}}, {"nl_median_window", {0, 4, 5}}};
  o.default_dimensions = false;
  const ConfigSpace space = make_space(h200, o);
  ASSERT_EQ(space.size(), 2u * 3u * 2u);
  const Workload& w = find_workload("tvl1");
  ConstraintChecks checks(h200, w, space, 2);
  std::size_t pruned_by_params = 0, pruned_by_block = 0, kept = 0;
  space.for_each([&](std::size_t i, const Config& c) {
    const ConstraintCheck own = check_constraints(h200, *find_workload_variant(w, c.variant), c);
    expect_same(checks.get(i), own, c);
    if (!own.prune_reason)
      ++kept;
    else if (own.prune_reason->find("nl_median_window=4") != std::string::npos)
      ++pruned_by_params;
    else if (own.prune_reason->find("threads > 1024") != std::string::npos)
      ++pruned_by_block;
  });
  EXPECT_EQ(pruned_by_params, 4u);  // block_y 8 and 64 x iterations 10 and 20
  EXPECT_EQ(pruned_by_block, 4u);   // block 32x64 = 2048 threads, windows 0 and 5
  EXPECT_EQ(kept, 4u);              // the build itself worked (or every kept config would differ)
  EXPECT_EQ(checks.stats().checked, space.size());
}

// A space too large to hold a check per config: the build threads check nothing until asked,
// then exactly the configs prefetch() names (each once, duplicates and repeats skipped), and
// get() of a prefetched config returns what check_constraints gives it.
TEST(ConstraintChecks, ALargeSpaceChecksWhatIsPrefetchedOnly) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.default_dimensions = false;
  o.precisions = {"f32"};
  o.param_values = {{"iterations", ParamDimension::integers(10, 89)},
                    {"n_warpings", ParamDimension::integers(1, 50)},
                    {"lambda", ParamDimension::linear(0.01, 0.6, 0.01)},
                    {"theta", ParamDimension::linear(0.01, 0.6, 0.01)},
                    {"tau", ParamDimension::linear(0.01, 0.25, 0.01)}};
  const ConfigSpace space = make_space(host, o);
  ASSERT_GT(space.size(), ConstraintChecks::kDenseChecks);
  const Workload& w = find_workload("tvl1");
  ConstraintChecks checks(host, w, space, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(checks.stats().checked, 0u);
  const std::vector<std::size_t> asked = {5, space.size() - 1, 5, 123456789 % space.size()};
  checks.prefetch(asked);
  checks.prefetch({5});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (checks.stats().checked < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(checks.stats().checked, 3u);
  for (std::size_t i : asked) {
    const Config c = space[i];
    expect_same(checks.get(i), check_constraints(host, *find_workload_variant(w, c.variant), c), c);
  }
  EXPECT_EQ(checks.stats().checked, 3u);  // get() found them checked
}

}  // namespace
}  // namespace flowtune
