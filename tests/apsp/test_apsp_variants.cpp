// The APSP variant adaptors: registry, validity rules, CPU solvers, and (with CUDA) the NVRTC
// build of every fw_tiled / fw_tiled_sym tunable combination for sm_90 (no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/apsp/floyd_warshall.hpp"
#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"
#include "tests/apsp/apsp_config.hpp"
#include "variants/apsp/apsp_variant.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/apsp/cuda/fw_tiled_variant.hpp"
#endif

namespace flowtune {
namespace {

using test::apsp_config;

std::vector<std::string> names_of(const std::vector<const Variant*>& variants) {
  std::vector<std::string> names;
  for (const Variant* v : variants) names.push_back(v->name());
  return names;
}

TEST(ApspVariants, RegistryListsTheVariantsOfTheWorkload) {
  std::vector<std::string> expected = {"fw_cpu", "dijkstra_cpu"};
#ifdef FLOWTUNE_HAVE_CUDA
  expected.push_back("fw_tiled");
  expected.push_back("fw_tiled_sym");
#endif
  EXPECT_EQ(names_of(apsp_variants()), expected);
  for (const Variant* v : apsp_variants()) {
    EXPECT_EQ(v->workload(), "apsp");
    EXPECT_EQ(v->precisions(), std::vector<std::string>{"i32"});
    EXPECT_EQ(find_apsp_variant(v->name()), v);
  }
  EXPECT_EQ(find_apsp_variant("global"), nullptr);
  EXPECT_EQ(find_apsp_variant(""), nullptr);
  EXPECT_EQ(fw_cpu_variant().target(), "cpu");
  EXPECT_TRUE(dijkstra_cpu_variant().tunables().empty());
}

TEST(ApspVariants, CommonRulesNameTheProblem) {
  const ApspVariant& fw = fw_cpu_variant();
  EXPECT_EQ(fw.invalid_reason(apsp_config("fw_cpu", {{"tile", 32}})), std::nullopt);
  Config f32 = apsp_config("fw_cpu", {{"tile", 32}});
  f32.precision = "f32";
  EXPECT_NE(fw.invalid_reason(f32).value_or("").find("precision"), std::string::npos);
  EXPECT_NE(fw.invalid_reason(apsp_config("fw_cpu", {})).value_or("").find("'tile' missing"),
            std::string::npos);
  EXPECT_NE(fw.invalid_reason(apsp_config("fw_cpu", {{"tile", 0}})).value_or("").find("positive"),
            std::string::npos);
  EXPECT_NE(fw.invalid_reason(apsp_config("fw_cpu", {{"tile", 32}, {"w", 1}}))
                .value_or("")
                .find("unknown tunable 'w'"),
            std::string::npos);
  EXPECT_EQ(dijkstra_cpu_variant().invalid_reason(apsp_config("dijkstra_cpu", {})), std::nullopt);
  EXPECT_THROW(fw.make_solver(apsp_config("fw_cpu", {})), std::invalid_argument);
}

TEST(ApspVariants, CpuSolversEqualFloydWarshall) {
  const apsp::Graph g = apsp::dual_graph(apsp::torus(9, 7), "torus:9x7");  // 126 nodes
  const apsp::DistMatrix expected = apsp::floyd_warshall(g.weights);
  for (int tile : {16, 32, 64, 128, 256})
    EXPECT_EQ(fw_cpu_variant().make_solver(apsp_config("fw_cpu", {{"tile", tile}}))->solve(g),
              expected)
        << "tile " << tile;
  EXPECT_EQ(dijkstra_cpu_variant().make_solver(apsp_config("dijkstra_cpu", {}))->solve(g),
            expected);
}

#ifdef FLOWTUNE_HAVE_CUDA

/// Every (tile, block_x, block_y) of the tunable domains, valid or not.
std::vector<Config> all_combinations(const std::string& variant) {
  std::vector<Config> out;
  for (int tile : apsp_cuda::kTileValues)
    for (int bx : apsp_cuda::kBlockXValues)
      for (int by : apsp_cuda::kBlockYValues)
        out.push_back(apsp_config(variant, {{"tile", tile}, {"block_x", bx}, {"block_y", by}}));
  return out;
}

TEST(ApspCudaVariants, ShapeRule) {
  EXPECT_EQ(apsp_cuda::fw_tiled_shape_invalid_reason(32, 16, 8), std::nullopt);
  EXPECT_NE(apsp_cuda::fw_tiled_shape_invalid_reason(16, 32, 4).value_or("").find("block_x"),
            std::string::npos);
  EXPECT_NE(apsp_cuda::fw_tiled_shape_invalid_reason(16, 8, 32).value_or("").find("block_y"),
            std::string::npos);
  EXPECT_NE(apsp_cuda::fw_tiled_shape_invalid_reason(128, 32, 32).value_or("").find("48 KiB"),
            std::string::npos);
  EXPECT_NE(apsp_cuda::fw_tiled_shape_invalid_reason(64, 64, 32).value_or("").find("1024"),
            std::string::npos);
  EXPECT_EQ(apsp_cuda::fw_tiled_shared_bytes(64), 33280);
  int valid = 0;
  for (const Config& c : all_combinations("fw_tiled"))
    valid += !apsp_cuda::fw_tiled_variant().invalid_reason(c).has_value();
  EXPECT_EQ(valid, 30);  // tile 16: 2 x 3, tile 32: 3 x 4, tile 64: 3 x 4
}

TEST(ApspCudaVariants, NvrtcBuildsEveryValidCombinationForSm90) {
  for (const ApspVariant* v :
       {&apsp_cuda::fw_tiled_variant(), &apsp_cuda::fw_tiled_sym_variant()}) {
    const bool sym = v->name() == "fw_tiled_sym";
    int built = 0;
    for (const Config& c : all_combinations(v->name())) {
      if (v->invalid_reason(c)) {
        EXPECT_THROW(v->resources(c, "sm_90"), std::invalid_argument) << c.label();
        continue;
      }
      std::vector<KernelResources> res;
      ASSERT_NO_THROW(res = v->resources(c, "sm_90")) << c.label();
      ASSERT_EQ(res.size(), 3u) << c.label();
      std::vector<std::string> kernels;
      for (const auto& r : res) {
        kernels.push_back(r.kernel);
        EXPECT_EQ(r.built_for, "sm_90");
        EXPECT_FALSE(r.estimated);
        EXPECT_GT(r.registers_per_thread, 0) << c.label() << " " << r.kernel;
        EXPECT_EQ(r.threads_per_block, c.tunable("block_x") * c.tunable("block_y"));
        EXPECT_EQ(r.dynamic_shared_bytes, 0);
        const int tile = c.tunable("tile"), one_tile = tile * (tile + 1) * 4;
        const bool stage1 = r.kernel.find("stage1") != std::string::npos;
        EXPECT_EQ(r.static_shared_bytes, stage1 ? one_tile : 2 * one_tile)
            << c.label() << " " << r.kernel;
      }
      std::sort(kernels.begin(), kernels.end());
      auto expected = apsp_cuda::fw_tiled_kernels(sym);
      std::sort(expected.begin(), expected.end());
      EXPECT_EQ(kernels, expected);
      ++built;
    }
    EXPECT_EQ(built, 30) << v->name();
  }
}

TEST(ApspCudaVariants, OlderArchsAreEstimatedFromAnSm75Build) {
  const Config c = apsp_config("fw_tiled", {{"tile", 32}, {"block_x", 32}, {"block_y", 8}});
  const auto res = apsp_cuda::fw_tiled_variant().resources(c, "sm_72");
  ASSERT_EQ(res.size(), 3u);
  for (const auto& r : res) {
    EXPECT_TRUE(r.estimated);
    EXPECT_EQ(r.built_for, "sm_75");
  }
}

#endif  // FLOWTUNE_HAVE_CUDA

}  // namespace
}  // namespace flowtune
