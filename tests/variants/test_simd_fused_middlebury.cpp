// simd_fused on real data: f32 against the double reference on Middlebury RubberWhale, and
// mixed (binary16 storage) against f32 on the 8 Middlebury sequences with ground truth
// (../shared/data/middlebury, else the bundled data/middlebury): the binary16 accuracy target,
// mean AEPE of mixed within 0.005 px of f32. Schedule: 4 scales, 1 warping, 50 iterations.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

Tvl1Params schedule() {
  Tvl1Params params;
  params.n_scales = 4;
  params.n_warpings = 1;
  params.iterations = 50;
  return params;
}

Config simd_config(const std::string& precision) {
  Config config;
  config.variant = "simd_fused";
  config.precision = precision;
  config.tunables = {{"threads", host_cpu().cpus}, {"band_rows", 16}};
  config.params = param_values_of(schedule());
  return config;
}

/// The folder of sequence `name` with frame10.png, frame11.png and flow10.flo, or "".
fs::path sequence_dir(const std::string& name) {
  for (const char* root : {FLOWTUNE_TEST_SHARED_DATA, FLOWTUNE_TEST_REPO_DATA}) {
    const fs::path dir = fs::path(root) / "middlebury" / name;
    if (fs::exists(dir / "frame10.png") && fs::exists(dir / "frame11.png") &&
        fs::exists(dir / "flow10.flo"))
      return dir;
  }
  return {};
}

TEST(SimdFusedMiddlebury, F32AepeMatchesTheReferenceOnRubberWhale) {
  const fs::path dir = sequence_dir("RubberWhale");
  if (dir.empty()) GTEST_SKIP() << "RubberWhale not found";
  const Image i0 = read_png_gray((dir / "frame10.png").string());
  const Image i1 = read_png_gray((dir / "frame11.png").string());
  const FlowField gt = read_flo((dir / "flow10.flo").string());
  const FlowVariant* variant = find_flow_variant("simd_fused");
  ASSERT_NE(variant, nullptr);
  const FlowError simd = flow_error(variant->make_solver(simd_config("f32"))->compute(i0, i1), gt);
  const FlowError ref = flow_error(tvl1_reference(i0, i1, schedule()), gt);
  std::cout << "RubberWhale: simd_fused f32 AEPE " << simd.aepe << ", reference " << ref.aepe
            << "\n";
  EXPECT_LT(ref.aepe, flow_error(FlowField(gt.width, gt.height), gt).aepe);
  EXPECT_NEAR(simd.aepe, ref.aepe, 0.01);
  EXPECT_NEAR(simd.aae_deg, ref.aae_deg, 0.1);
}

TEST(SimdFusedMiddlebury, MixedMeanAepeWithin0005OfF32) {
  const FlowVariant* variant = find_flow_variant("simd_fused");
  ASSERT_NE(variant, nullptr);
  const auto f32 = variant->make_solver(simd_config("f32"));
  const auto mixed = variant->make_solver(simd_config("mixed"));
  double sum_f32 = 0, sum_mixed = 0;
  int sequences = 0;
  for (const char* name : {"Dimetrodon", "Grove2", "Grove3", "Hydrangea", "RubberWhale", "Urban2",
                           "Urban3", "Venus"}) {
    const fs::path dir = sequence_dir(name);
    if (dir.empty()) continue;
    const Image i0 = read_png_gray((dir / "frame10.png").string());
    const Image i1 = read_png_gray((dir / "frame11.png").string());
    const FlowField gt = read_flo((dir / "flow10.flo").string());
    const double a32 = flow_error(f32->compute(i0, i1), gt).aepe;
    const double a16 = flow_error(mixed->compute(i0, i1), gt).aepe;
    std::cout << name << ": AEPE f32 " << a32 << ", mixed " << a16 << "\n";
    sum_f32 += a32;
    sum_mixed += a16;
    ++sequences;
  }
  if (sequences == 0) GTEST_SKIP() << "no Middlebury sequence found";
  const double mean_f32 = sum_f32 / sequences, mean_mixed = sum_mixed / sequences;
  std::cout << sequences << " sequences: mean AEPE f32 " << mean_f32 << ", mixed " << mean_mixed
            << "\n";
  EXPECT_NEAR(mean_mixed, mean_f32, 0.005);
}

}  // namespace
}  // namespace flowtune
