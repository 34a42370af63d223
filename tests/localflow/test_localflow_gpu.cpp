// bm_cuda, lk_cuda and feat_cuda on a real GPU against their CPU references (skipped without a CUDA
// device): the mean endpoint difference must be <= 1e-3 px in f32 (the kernels perform the
// reference's float operations in the same order, so it is 0 unless the device rounds
// differently) on the 8 Middlebury sequences at default parameters, and on crops for every
// tiling, fusion and similarity.
#include <gtest/gtest.h>

#ifdef FLOWTUNE_HAVE_CUDA

#include <filesystem>
#include <string>

#include "tests/localflow/localflow_test_data.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/localflow/cuda/bm_cuda_variant.hpp"
#include "variants/localflow/cuda/feat_cuda_variant.hpp"
#include "variants/localflow/cuda/lk_cuda_variant.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune::localflow_cuda {
namespace {

const char* const kSequences[] = {"Dimetrodon",  "Grove2", "Grove3", "Hydrangea",
                                  "RubberWhale", "Urban2", "Urban3", "Venus"};

std::string eight_sequences_dir() {
  return test::shared_middlebury_dir();
}

Config config_for(const Workload& w, const std::string& variant, std::map<std::string, int> t) {
  Config c;
  c.workload = w.name();
  c.variant = variant;
  c.params = w.default_params();
  c.tunables = std::move(t);
  return c;
}

void expect_matches_reference(const LocalFlowVariant& gpu, const LocalFlowVariant& cpu,
                              const Config& config, const test::FramePair& f,
                              const std::string& what) {
  Config cpu_config = config;
  cpu_config.variant = cpu.name();
  cpu_config.tunables.clear();
  const FlowField want = cpu.make_solver(cpu_config)->compute(f.i0, f.i1);
  const FlowField got = gpu.make_solver(config)->compute(f.i0, f.i1);
  ASSERT_EQ(got.width, want.width);
  ASSERT_EQ(got.height, want.height);
  const double d = test::mean_endpoint_difference(got, want);
  EXPECT_LE(d, 1e-3) << what << " " << config.label() << " (" << config.params_text() << ")";
  std::printf("%s %s: mean endpoint difference %.3g px\n", what.c_str(), config.label().c_str(), d);
}

TEST(LocalFlowGpu, BmMatchesTheCpuReferenceOnTheEightSequences) {
  if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  const std::string dir = eight_sequences_dir();
  if (!std::filesystem::exists(dir + "/Venus")) GTEST_SKIP() << dir << " lacks the 8 sequences";
  const Config c = config_for(bm_workload(), "bm_cuda",
                              {{"threads", 64}, {"blocks_per_tb", 2}, {"tile_search", 1}});
  for (const char* s : kSequences)
    expect_matches_reference(bm_cuda_variant(), bm_cpu_variant(), c, test::load_pair(dir, s), s);
}

TEST(LocalFlowGpu, LkMatchesTheCpuReferenceOnTheEightSequences) {
  if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  const std::string dir = eight_sequences_dir();
  if (!std::filesystem::exists(dir + "/Venus")) GTEST_SKIP() << dir << " lacks the 8 sequences";
  const Config c = config_for(lk_workload(), "lk_cuda",
                              {{"block_x", 32}, {"block_y", 4}, {"fused", 0}, {"tile", 1}});
  for (const char* s : kSequences)
    expect_matches_reference(lk_cuda_variant(), lk_cpu_variant(), c, test::load_pair(dir, s), s);
  // f16 storage against the reference in f16 (the same binary16 roundings).
  Config h = config_for(lk_workload(), "lk_cuda",
                        {{"block_x", 32}, {"block_y", 8}, {"fused", 1}, {"tile", 1}});
  h.precision = "f16";
  for (const char* s : kSequences)
    expect_matches_reference(lk_cuda_variant(), lk_cpu_variant(), h, test::load_pair(dir, s), s);
}

TEST(LocalFlowGpu, FeaturesMatchTheCpuReferenceOnTheEightSequences) {
  if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  const std::string dir = eight_sequences_dir();
  if (!std::filesystem::exists(dir + "/Venus")) GTEST_SKIP() << dir << " lacks the 8 sequences";
  for (int method : {1, 2}) {
    Config c = config_for(features_workload(), "feat_cuda",
                          {{"block_x", 32},
                           {"block_y", 8},
                           {"shared_features", method - 1},
                           {"features_per_tb", 128}});
    c.params["method"] = method;
    for (const char* s : kSequences)
      expect_matches_reference(feat_cuda_variant(), feat_cpu_variant(), c, test::load_pair(dir, s),
                               s);
  }
}

TEST(LocalFlowGpu, EveryTilingMatchesTheCpuReferenceOnACrop) {
  if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  const test::FramePair f =
      test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 100, 80, 201, 143);
  for (int similarity : {0, 1, 2})
    for (int tile : {0, 1})
      for (int per_tb : {1, 4}) {
        Config c = config_for(bm_workload(), "bm_cuda",
                              {{"threads", 32}, {"blocks_per_tb", per_tb}, {"tile_search", tile}});
        c.params["similarity"] = similarity;
        expect_matches_reference(bm_cuda_variant(), bm_cpu_variant(), c, f, "crop");
      }
  for (int weighting : {0, 1})
    for (int fused : {0, 1})
      for (int tile : {0, 1}) {
        Config c = config_for(lk_workload(), "lk_cuda",
                              {{"block_x", 16}, {"block_y", 8}, {"fused", fused}, {"tile", tile}});
        c.params["weighting"] = weighting;
        c.params["window"] = 7;
        expect_matches_reference(lk_cuda_variant(), lk_cpu_variant(), c, f, "crop");
        c.precision = "f16";
        expect_matches_reference(lk_cuda_variant(), lk_cpu_variant(), c, f, "crop f16");
      }
}

}  // namespace
}  // namespace flowtune::localflow_cuda

#endif  // FLOWTUNE_HAVE_CUDA
