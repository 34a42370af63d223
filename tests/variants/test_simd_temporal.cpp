// Temporal blocking of tvl1_iterate_simd (temporal_depth > 1: several iterations per tile with
// a halo that shrinks by one pixel per iteration, the CPU analogue of the paper's
// Shared_pipeline, Romera et al. 2023 sec. 3): equal bit for bit to the band sweep (depth 1)
// on every SIMD target, storage and tile shape, within the numerics contract of the double
// reference, and the same epsilon stop; the tile pruning rules against hand-computed working
// sets.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/reference_tvl1.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "tests/variants/simd_problem.hpp"
#include "variants/simd/simd_fused.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

using namespace simd_test;

std::string describe(const SimdSchedule& s) {
  return "threads " + std::to_string(s.threads) + ", tile " + std::to_string(s.band_rows) + "x" +
         std::to_string(s.tile_cols) + ", depth " + std::to_string(s.temporal_depth);
}

void expect_same_state(const Tvl1State<float>& a, const Tvl1State<float>& b) {
  EXPECT_EQ(a.u1, b.u1);
  EXPECT_EQ(a.u2, b.u2);
  EXPECT_EQ(a.p11, b.p11);
  EXPECT_EQ(a.p12, b.p12);
  EXPECT_EQ(a.p21, b.p21);
  EXPECT_EQ(a.p22, b.p22);
}

/// Tile shapes: several tiles per row and column (halo inside the image), tiles of a few
/// pixels (halo larger than the tile), one tile for the whole image, whole rows; depths that
/// divide 10 iterations and depths that leave a shorter last pass.
const std::vector<SimdSchedule> kTiled = {{1, 16, 2, 64}, {2, 8, 4, 50},    {3, 5, 3, 0},
                                          {2, 4, 7, 7},   {2, 200, 8, 300}, {2, 30, 4, 19}};

TEST(SimdTemporal, EqualsTheBandSweepBitForBitOnEveryTargetAndStorage) {
  const Problem problem = make_problem();
  Tvl1Params params;  // epsilon 0: all 10 iterations
  Tvl1State<double> ref = problem.start;
  ASSERT_EQ(tvl1_iterate_reference(problem.warping, ref, params, 10), 10);
  const WarpingData<float> w = to_float(problem.warping);
  for_each_target([&] {
    for (const SimdStorage storage : {SimdStorage::f32, SimdStorage::binary16}) {
      SCOPED_TRACE(storage == SimdStorage::f32 ? "f32" : "binary16");
      Tvl1State<float> band = to_float(problem.start);
      ASSERT_EQ(tvl1_iterate_simd(w, band, params, 10, {2, 16}, storage), 10);
      for (const SimdSchedule& schedule : kTiled) {
        SCOPED_TRACE(describe(schedule));
        Tvl1State<float> s = to_float(problem.start);
        ASSERT_EQ(tvl1_iterate_simd(w, s, params, 10, schedule, storage), 10);
        expect_same_state(s, band);
        if (storage == SimdStorage::f32) {
          EXPECT_LT(relative_l2(s, ref), 1e-4);
        }
      }
    }
  });
}

TEST(SimdTemporal, EpsilonStopsAtTheBandSweepsIterationInsideAPass) {
  const Problem problem = make_problem();
  Tvl1Params params;
  params.epsilon = 0.05;
  Tvl1State<double> ref = problem.start;
  const int ref_done = tvl1_iterate_reference(problem.warping, ref, params, 200);
  ASSERT_GT(ref_done, 1);
  ASSERT_LT(ref_done, 200);
  const WarpingData<float> w = to_float(problem.warping);
  Tvl1State<float> band = to_float(problem.start);
  ASSERT_EQ(tvl1_iterate_simd(w, band, params, 200, {2, 8}, SimdStorage::f32), ref_done);
  bool stopped_inside_a_pass = false;
  for (const int depth : {2, 3, 4, 5}) {
    const SimdSchedule schedule{2, 16, depth, 64};
    SCOPED_TRACE(describe(schedule));
    Tvl1State<float> s = to_float(problem.start);
    EXPECT_EQ(tvl1_iterate_simd(w, s, params, 200, schedule, SimdStorage::f32), ref_done);
    expect_same_state(s, band);
    stopped_inside_a_pass = stopped_inside_a_pass || ref_done % depth != 0;
  }
  EXPECT_TRUE(stopped_inside_a_pass) << "ref_done " << ref_done;  // the re-run pass was tested
}

TEST(SimdTemporal, EpsilonCheckedEveryKthIterationAsTheReference) {
  const Problem problem = make_problem();
  Tvl1Params params;
  params.epsilon = 0.05;
  params.epsilon_check_every = 3;  // checks after iterations 3, 6, 9, ...
  Tvl1State<double> ref = problem.start;
  const int ref_done = tvl1_iterate_reference(problem.warping, ref, params, 200);
  ASSERT_EQ(ref_done % 3, 0);
  ASSERT_LT(ref_done, 200);
  const WarpingData<float> w = to_float(problem.warping);
  Tvl1State<float> band = to_float(problem.start);
  EXPECT_EQ(tvl1_iterate_simd(w, band, params, 200, {2, 8}, SimdStorage::f32), ref_done);
  for (const int depth : {2, 4}) {  // passes not aligned with the checks
    const SimdSchedule schedule{2, 16, depth, 64};
    SCOPED_TRACE(describe(schedule));
    Tvl1State<float> s = to_float(problem.start);
    EXPECT_EQ(tvl1_iterate_simd(w, s, params, 200, schedule, SimdStorage::f32), ref_done);
    expect_same_state(s, band);
  }
}

TEST(SimdTemporal, RejectsBadDepthAndTileColumns) {
  const Problem problem = make_problem();
  const WarpingData<float> w = to_float(problem.warping);
  Tvl1State<float> s = to_float(problem.start);
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, 1, {1, 8, 0, 64}, SimdStorage::f32),
               std::invalid_argument);
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, 1, {1, 8, 2, -1}, SimdStorage::f32),
               std::invalid_argument);
}

TEST(SimdTemporal, WorkingSetIsTheTileWithItsHaloTimesNineFields) {
  // (rows + 2 depth)(cols + 2 depth) x 9 fields x bytes, by hand:
  EXPECT_EQ(tile_working_set_bytes(16, 256, 4, 4), 24 * 264 * 9 * 4);  // 228096
  EXPECT_EQ(tile_working_set_bytes(16, 256, 4, 4), 228096);
  EXPECT_EQ(tile_working_set_bytes(64, 1024, 8, 4), 2995200);  // 80 x 1040 x 36
  EXPECT_EQ(tile_working_set_bytes(64, 1024, 8, 2), 1497600);  // binary16
}

TEST(SimdTemporal, TileRulesNameTheLimit) {
  const std::int64_t l2 = 2 * 1024 * 1024;
  const auto big = simd_fused_tile_reason(64, 1024, 8, 4, l2);
  ASSERT_TRUE(big.has_value());
  EXPECT_NE(big->find("working set 2995200 B"), std::string::npos) << *big;
  EXPECT_NE(big->find("exceeds the L2 per CPU, 2097152 B"), std::string::npos) << *big;
  EXPECT_EQ(simd_fused_tile_reason(64, 1024, 8, 2, l2), std::nullopt);  // 1497600 B fits
  EXPECT_EQ(simd_fused_tile_reason(16, 256, 4, 4, l2), std::nullopt);
  EXPECT_TRUE(simd_fused_tile_reason(16, 256, 4, 4, 228095).has_value());  // one byte short
  EXPECT_EQ(simd_fused_tile_reason(16, 256, 4, 4, 228096), std::nullopt);
  EXPECT_EQ(simd_fused_tile_reason(64, 1024, 8, 4, 0), std::nullopt);  // L2 unknown: no rule
  // Halo: 8 x 132 = 1056 pixels computed per iteration for 4 x 128 = 512 of output.
  const auto halo = simd_fused_tile_reason(4, 128, 2, 4, l2);
  ASSERT_TRUE(halo.has_value());
  EXPECT_NE(halo->find("halo more than doubles"), std::string::npos) << *halo;
  EXPECT_NE(halo->find("1056 > 2 x 512"), std::string::npos) << *halo;
  EXPECT_TRUE(simd_fused_tile_reason(16, 128, 1, 4, l2).has_value());  // depth 1 has no tiles
  EXPECT_EQ(simd_fused_tile_reason(16, 0, 1, 4, l2), std::nullopt);
  EXPECT_TRUE(simd_fused_tile_reason(16, 0, 2, 4, l2).has_value());  // whole rows, depth 2
}

TEST(SimdTemporal, L2PerCpuDividesBySharingCpus) {
  HostCpu cpu;
  cpu.l2_bytes = 2 * 1024 * 1024;
  cpu.l2_shared_cpus = 2;
  EXPECT_EQ(l2_bytes_per_cpu(cpu), 1024 * 1024);
  cpu.l2_shared_cpus = 1;
  EXPECT_EQ(l2_bytes_per_cpu(cpu), 2 * 1024 * 1024);
  EXPECT_GE(host_cpu().l2_shared_cpus, 1);
}

Config temporal_config(const std::string& precision, int rows, int depth, int cols) {
  Config config;
  config.variant = "simd_fused";
  config.precision = precision;
  config.tunables = {
      {"threads", 1}, {"band_rows", rows}, {"temporal_depth", depth}, {"tile_cols", cols}};
  config.params = param_values_of(Tvl1Params{});
  return config;
}

TEST(SimdTemporal, VariantPrunesWithTheHostsL2) {
  const FlowVariant* v = find_flow_variant("simd_fused");
  ASSERT_NE(v, nullptr);
  const std::int64_t l2 = l2_bytes_per_cpu(host_cpu());
  for (const auto& [precision, bytes] : {std::pair<std::string, int>{"f32", 4}, {"mixed", 2}})
    for (const int rows : {4, 16, 64})
      for (const int depth : {1, 2, 4, 8})
        for (const int cols : {0, 128, 256, 512, 1024}) {
          const auto expected = simd_fused_tile_reason(rows, cols, depth, bytes, l2);
          const auto got = v->invalid_reason(temporal_config(precision, rows, depth, cols));
          ASSERT_EQ(got.has_value(), expected.has_value());
          if (got) {
            EXPECT_EQ(*got, "simd_fused: " + *expected);
          }
        }
  // Configs made before temporal_depth and tile_cols existed run the band sweep.
  Config old = temporal_config("f32", 16, 1, 0);
  old.tunables.erase("temporal_depth");
  old.tunables.erase("tile_cols");
  EXPECT_EQ(v->invalid_reason(old), std::nullopt);
  EXPECT_NE(v->make_solver(old), nullptr);
}

}  // namespace
}  // namespace flowtune
