// kokkos_global on real data: the FlowSolver from the registry against the double reference
// on Middlebury RubberWhale (bundled in data/), paper-like schedule (3 scales, 1 warping,
// 50 iterations). Prints the time per frame of both.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

/// Median wall time in ms of `repeats` calls of fn (after one untimed warm-up call).
template <typename Fn>
double median_ms(int repeats, Fn&& fn) {
  fn();
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

TEST(KokkosGlobalMiddlebury, RubberWhaleAepeMatchesReference) {
  const std::filesystem::path dir =
      std::filesystem::path(FLOWTUNE_TEST_REPO_DATA) / "middlebury" / "RubberWhale";
  if (!std::filesystem::exists(dir / "frame10.png") || !std::filesystem::exists(dir / "flow10.flo"))
    GTEST_SKIP() << "RubberWhale not found under " << dir;
  const Image i0 = read_png_gray((dir / "frame10.png").string());
  const Image i1 = read_png_gray((dir / "frame11.png").string());
  const FlowField gt = read_flo((dir / "flow10.flo").string());

  Config config;
  config.variant = "kokkos_global";
  config.precision = "f32";
  config.tunables = {{"tile_x", 32}, {"tile_y", 4}};
  Tvl1Params params;
  params.n_scales = 3;
  params.n_warpings = 1;
  params.iterations = 50;
  config.params = param_values_of(params);
  const FlowVariant* variant = find_flow_variant("kokkos_global");
  ASSERT_NE(variant, nullptr);
  const auto solver = variant->make_solver(config);

  FlowField kokkos_flow, ref_flow;
  const double kokkos_ms = median_ms(3, [&] { kokkos_flow = solver->compute(i0, i1); });
  const double ref_ms = median_ms(3, [&] { ref_flow = tvl1_reference(i0, i1, params); });
  const FlowError kokkos_err = flow_error(kokkos_flow, gt);
  const FlowError ref_err = flow_error(ref_flow, gt);
  std::cout << "RubberWhale " << i0.width << "x" << i0.height
            << " (3 scales, 1 warping, 50 iterations): kokkos_global 32x4 AEPE " << kokkos_err.aepe
            << " px, AAE " << kokkos_err.aae_deg << " deg, " << kokkos_ms
            << " ms/frame; reference AEPE " << ref_err.aepe << " px, AAE " << ref_err.aae_deg
            << " deg, " << ref_ms << " ms/frame\n";
  // The schedule is short (paper: ~1.5 px AEPE at 10 ms on AGX), but it must beat zero flow.
  EXPECT_LT(ref_err.aepe, flow_error(FlowField(gt.width, gt.height), gt).aepe);
  EXPECT_NEAR(kokkos_err.aepe, ref_err.aepe, 0.01);
  EXPECT_NEAR(kokkos_err.aae_deg, ref_err.aae_deg, 0.1);
}

}  // namespace
}  // namespace flowtune
