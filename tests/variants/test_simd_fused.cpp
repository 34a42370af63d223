// simd_fused / tvl1_iterate_simd against the double reference (ARCHITECTURE.md numerics
// contract: F32 variants match the reference to relative L2 < 1e-4 after 10 iterations on
// random texture) on every SIMD target this CPU supports; the schedule (threads, band_rows)
// changes nothing; binary16 rounding against the compiler's _Float16 (ties to even); the
// adaptor's validity rules.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/reference_tvl1.hpp"
#include "kernels/simd/binary16.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"
#include "tests/tuner/tune_process.hpp"
#include "tests/variants/simd_problem.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

using namespace simd_test;

TEST(SimdTvl1, MatchesReferenceAfter10IterationsOnEveryTargetAndSchedule) {
  const Problem problem = make_problem();
  Tvl1Params params;  // tau 0.25, lambda 0.15, theta 0.3, epsilon 0
  Tvl1State<double> ref = problem.start;
  ASSERT_EQ(tvl1_iterate_reference(problem.warping, ref, params, 10), 10);
  const WarpingData<float> w = to_float(problem.warping);
  // The iterations must move the flow, or the comparison would prove nothing.
  ASSERT_GT(relative_l2(to_float(problem.start), ref), 1e-2);

  for_each_target([&] {
    Tvl1State<float> first;
    for (const SimdSchedule schedule :
         {SimdSchedule{1, 4}, SimdSchedule{2, 1}, SimdSchedule{2, 16}, SimdSchedule{3, 200}}) {
      SCOPED_TRACE("threads " + std::to_string(schedule.threads) + ", band_rows " +
                   std::to_string(schedule.band_rows));
      Tvl1State<float> s = to_float(problem.start);
      ASSERT_EQ(tvl1_iterate_simd(w, s, params, 10, schedule, SimdStorage::f32), 10);
      EXPECT_LT(relative_l2(s, ref), 1e-4);
      // Every pixel is computed by the same code whatever the bands: bitwise equal.
      if (first.u1.empty()) {
        first = s;
      } else {
        EXPECT_EQ(s.u1, first.u1);
        EXPECT_EQ(s.u2, first.u2);
        EXPECT_EQ(s.p11, first.p11);
        EXPECT_EQ(s.p22, first.p22);
      }
    }
  });
}

TEST(SimdTvl1, EpsilonStopsAtTheReferencesIteration) {
  const Problem problem = make_problem();
  Tvl1Params params;
  params.epsilon = 0.05;
  Tvl1State<double> ref = problem.start;
  const int ref_done = tvl1_iterate_reference(problem.warping, ref, params, 200);
  ASSERT_GT(ref_done, 1);
  ASSERT_LT(ref_done, 200);
  Tvl1State<float> s = to_float(problem.start);
  const int done =
      tvl1_iterate_simd(to_float(problem.warping), s, params, 200, {2, 8}, SimdStorage::f32);
  EXPECT_EQ(done, ref_done);
}

TEST(SimdTvl1, Binary16StorageStaysCloseToTheReference) {
  const Problem problem = make_problem();
  Tvl1Params params;
  Tvl1State<double> ref = problem.start;
  tvl1_iterate_reference(problem.warping, ref, params, 10);
  for_each_target([&] {
    Tvl1State<float> s = to_float(problem.start);
    tvl1_iterate_simd(to_float(problem.warping), s, params, 10, {2, 8}, SimdStorage::binary16);
    // binary16 has an 11-bit significand (relative rounding 2^-11 = 4.9e-4 per store); ten
    // iterations of rounded stores stay within a few of those, far above f32's 1e-4 bound.
    const double error = relative_l2(s, ref);
    EXPECT_LT(error, 5e-3);
    EXPECT_GT(error, 1e-6);  // it really is stored in binary16
  });
}

TEST(SimdTvl1, RejectsBadShapesAndSchedules) {
  const Problem problem = make_problem();
  const WarpingData<float> w = to_float(problem.warping);
  Tvl1State<float> s = to_float(problem.start);
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, 1, {0, 8}, SimdStorage::f32), std::invalid_argument);
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, 1, {1, 0}, SimdStorage::f32), std::invalid_argument);
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, -1, {1, 8}, SimdStorage::f32), std::invalid_argument);
  s.u1.pop_back();
  EXPECT_THROW(tvl1_iterate_simd(w, s, {}, 1, {1, 8}, SimdStorage::f32), std::invalid_argument);
}

std::uint16_t float16_bits(float f) {
  const _Float16 h = static_cast<_Float16>(f);  // GCC: IEEE roundTiesToEven
  std::uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

TEST(Binary16, RoundsToNearestEvenLikeTheCompilerOnEveryTarget) {
  // Ties at several exponents, subnormals, their ties, overflow to infinity, random values.
  std::vector<float> values = {0.f,
                               -0.f,
                               1.f,
                               1.0004883f,
                               1.0009766f,
                               1.0014648f,
                               2049.f,
                               2051.f,
                               65504.f,
                               65519.f,
                               65520.f,
                               1e6f,
                               -70000.f,
                               6.1035156e-05f,
                               6.0975552e-05f,
                               5.9604645e-08f,
                               2.9802322e-08f,
                               8.940697e-08f,
                               1e-9f,
                               -3.0e-6f};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> exponent(-26.f, 17.f);
  std::uniform_int_distribution<int> sign(0, 1);
  for (int i = 0; i < 4000; ++i)
    values.push_back((sign(rng) ? -1.f : 1.f) * std::exp2(exponent(rng)));
  for (std::uint32_t m = 0; m < 64; ++m) {  // exact ties: mantissa bit 12 set, lower bits 0
    const std::uint32_t bits = (127u << 23) | (m << 13) | 0x1000u;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    values.push_back(f);
  }
  for (const float v : values)
    ASSERT_EQ(binary16_bits_rne(v), float16_bits(v)) << "scalar, value " << v;
  for_each_target([&] {
    std::vector<hwy::float16_t> out(values.size());
    simd_tvl1::to_binary16(values.data(), out.data(), values.size());
    std::vector<float> back(values.size());
    simd_tvl1::from_binary16(out.data(), back.data(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(bits_of(out[i]), float16_bits(values[i])) << "value " << values[i];
      ASSERT_EQ(back[i], static_cast<float>(static_cast<_Float16>(values[i])))
          << "value " << values[i];
    }
  });
}

Config simd_config(const std::string& precision, int threads, int band_rows) {
  Config config;
  config.variant = "simd_fused";
  config.precision = precision;
  config.tunables = {{"threads", threads}, {"band_rows", band_rows}};
  config.params = param_values_of(Tvl1Params{});
  return config;
}

TEST(SimdFusedVariant, RegisteredWithHostThreadCountsAndRules) {
  const FlowVariant* v = find_flow_variant("simd_fused");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->target(), "cpu");
  EXPECT_EQ(v->precisions(), (std::vector<std::string>{"f32", "mixed", "f16"}));
  const int cpus = host_cpu().cpus;
  ASSERT_GE(cpus, 1);
  const std::vector<TunableDomain> tunables = v->tunables();
  ASSERT_EQ(tunables.size(), 5u);
  EXPECT_EQ(tunables[0].name, "threads");
  EXPECT_EQ(tunables[0].values.front(), 1);
  EXPECT_EQ(tunables[0].values.back(), cpus);                     // all cores are in the space
  EXPECT_EQ(tunables[0].default_values, std::vector<int>{cpus});  // and the default
  EXPECT_EQ(tunables[2].name, "temporal_depth");
  EXPECT_EQ(tunables[3].name, "tile_cols");
  EXPECT_EQ(tunables[4].name, "simd_target");  // tests/cli/test_simd_target.cpp
  EXPECT_FALSE(host_cpu().simd_targets.empty());

  EXPECT_EQ(v->invalid_reason(simd_config("f32", cpus, 16)), std::nullopt);
  EXPECT_EQ(v->invalid_reason(simd_config("mixed", 1, 4)), std::nullopt);
  const auto too_many = v->invalid_reason(simd_config("f32", cpus + 1, 16));
  ASSERT_TRUE(too_many.has_value());
  EXPECT_NE(too_many->find("exceeds the " + std::to_string(cpus) + " CPUs"), std::string::npos);
  EXPECT_EQ(v->invalid_reason(simd_config("f16", 1, 16)), std::nullopt);
  EXPECT_TRUE(v->invalid_reason(simd_config("bf16", 1, 16)).has_value());
  EXPECT_TRUE(v->invalid_reason(simd_config("f32", 1, 0)).has_value());
  EXPECT_THROW(v->make_solver(simd_config("f32", 0, 16)), std::invalid_argument);
}

TEST(SimdFusedVariant, HostBoardShowsTheCpusCachesAndSimdTargets) {
  if (!test::tune_exe_exists())
    GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE << " (build tree absent)";
  const std::string command = std::string(FLOWTUNE_TUNE_EXE) + " boards show host 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  ASSERT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("CPUs (this system):  " + std::to_string(host_cpu().cpus) + " "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("SIMD targets:        " + simd_tvl1::dispatched_target() + " "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("L2 "), std::string::npos) << out;
  EXPECT_NE(out.find("f16 arithmetic:      " + host_cpu().binary16_arithmetic + "\n"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace flowtune
