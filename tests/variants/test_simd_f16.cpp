// Precision f16 of simd_fused (binary16 arithmetic) against an exact oracle: the emulation's
// operations (simd_tvl1::binary16_arithmetic_lanes) against exact integer arithmetic rounded
// once to binary16, on every SIMD target here; the iterations against a host emulator of the
// GPU's f16 path (tests/variants/gpu_f16_emulator.hpp: tvl1_math.cuh with MathF16, operation
// by operation) - equal values after 10 iterations on every target, schedule and tile shape;
// the accuracy cost of binary16 arithmetic against the double reference; the variant's
// precision and the host profile's f16 line.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/reference_tvl1.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"
#include "tests/variants/gpu_f16_emulator.hpp"
#include "tests/variants/simd_problem.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

using namespace simd_test;
using simd_tvl1::Binary16Op;

/// The float of a binary16 bit pattern (independent of kernels/simd: sign, exponent, mantissa).
float half_value(std::uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double mag = e == 0    ? std::ldexp(double(m), -24)
                     : e == 31 ? (m ? std::numeric_limits<double>::quiet_NaN()
                                    : std::numeric_limits<double>::infinity())
                               : std::ldexp(double(1024 + m), e - 25);
  return float((h & 0x8000) ? -mag : mag);
}

/// Random finite binary16 values: mostly in [2^-16, 2^8] (the fields' range; subnormals
/// included), some anywhere.
std::vector<float> random_halves(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) {
    std::uint16_t h;
    do {
      h = std::uint16_t(rng());
      if (rng() % 4 != 0) h = std::uint16_t((h & 0x83ff) | ((2 + rng() % 22) << 10));
    } while (((h >> 10) & 31) == 31);
    x = half_value(h);
  }
  return v;
}

TEST(SimdF16, EmulatedOperationsAreCorrectlyRoundedOnEveryTarget) {
  const std::size_t n = 20000;
  std::vector<float> a = random_halves(n, 1), b = random_halves(n, 2), c = random_halves(n, 3);
  // Hand-made cases: ties (1 + 2^-11 -> 1; 1 + 3 x 2^-11 -> 1 + 2^-9), subnormal results
  // (2^-14 x 2^-5), overflow (256 x 256 -> inf), and an fma whose float result sits on a
  // binary16 tie that the exact sum is not on (a float fma rounded again to binary16 gets it
  // wrong): (683/512) x 0.75 + 2^-24 = 1 + 2^-11 + 2^-24, which float rounds to the tie
  // 1 + 2^-11 (then 1), the exact rounding being 1 + 2^-10.
  const float t = std::ldexp(1.f, -11), one_ulp = std::ldexp(1.f, -10);
  const std::vector<std::array<float, 4>> cases = {
      {1.f, t, 0.f, 1.f},  // add: tie to even
      {1.f + 2 * one_ulp, t, 0.f, 1.f + 2 * one_ulp},
      {std::ldexp(1.f, -14), std::ldexp(1.f, -5), 0.f, std::ldexp(1.f, -19)},  // mul: subnormal
      {256.f, 256.f, 0.f, std::numeric_limits<float>::infinity()},             // mul: overflow
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    a[k] = cases[k][0];
    b[k] = cases[k][1];
  }
  a[10] = 683.f / 512.f;
  b[10] = 0.75f;
  c[10] = std::ldexp(1.f, -24);
  for_each_target([&] {
    std::vector<float> out(n);
    for (const Binary16Op op : {Binary16Op::add, Binary16Op::sub, Binary16Op::mul, Binary16Op::fma,
                                Binary16Op::sqrt, Binary16Op::rcp}) {
      SCOPED_TRACE("op " + std::to_string(int(op)));
      simd_tvl1::binary16_arithmetic_lanes(op, a.data(), b.data(), c.data(), out.data(), n);
      int wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        float want = 0;
        switch (op) {
          case Binary16Op::add:
            want = gpu_f16_emu::add(a[i], b[i]);
            break;
          case Binary16Op::sub:
            want = gpu_f16_emu::sub(a[i], b[i]);
            break;
          case Binary16Op::mul:
            want = gpu_f16_emu::mul(a[i], b[i]);
            break;
          case Binary16Op::fma:
            want = gpu_f16_emu::fma(a[i], b[i], c[i]);
            break;
          case Binary16Op::sqrt:
            if (a[i] < 0) continue;  // NaN
            want = gpu_f16_emu::sqrt(a[i]);
            break;
          case Binary16Op::rcp:
            want = gpu_f16_emu::rcp(a[i]);
            break;
        }
        if (!(out[i] == want) && wrong++ < 5)
          ADD_FAILURE() << "i " << i << ": a " << a[i] << " b " << b[i] << " c " << c[i] << ": got "
                        << out[i] << ", exact rounding " << want;
      }
      EXPECT_EQ(wrong, 0);
    }
    simd_tvl1::binary16_arithmetic_lanes(Binary16Op::add, a.data(), b.data(), c.data(),
                                         std::vector<float>(n).data(), 0);  // n = 0: no access
  });
  // The hand-made cases against hand-computed values (the oracle itself).
  for (std::size_t k = 0; k < cases.size(); ++k)
    EXPECT_EQ(k < 2 ? gpu_f16_emu::add(a[k], b[k]) : gpu_f16_emu::mul(a[k], b[k]), cases[k][3])
        << "case " << k;
  EXPECT_EQ(gpu_f16_emu::fma(a[10], b[10], c[10]), 1.f + one_ulp);
  // ... where the float fma rounded again to binary16 gives 1.
  EXPECT_EQ(gpu_f16_emu::round_double(double(std::fma(a[10], b[10], c[10]))), 1.f);
  EXPECT_EQ(gpu_f16_emu::add(1.f, 3 * t), 1.f + 2 * one_ulp);
}

/// The fields of `problem` rounded to binary16, for the emulator.
gpu_f16_emu::Fields emulator_fields(const Binary16Fields& h) {
  gpu_f16_emu::Fields f;
  f.width = h.width;
  f.height = h.height;
  auto widen = [](const std::vector<hwy::float16_t>& v) {
    std::vector<float> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::uint16_t bits;
      std::memcpy(&bits, &v[i], sizeof bits);
      out[i] = half_value(bits);
    }
    return out;
  };
  f.grad_x = widen(h.grad_x);
  f.grad_y = widen(h.grad_y);
  f.rho_c = widen(h.rho_c);
  f.u1 = widen(h.u1);
  f.u2 = widen(h.u2);
  f.p11 = widen(h.p11);
  f.p12 = widen(h.p12);
  f.p21 = widen(h.p21);
  f.p22 = widen(h.p22);
  return f;
}

/// The problem with a flat patch (grad 0: v = u), a nearly flat one (|grad|^2 below 2^-14:
/// the flat rule of MathF16) and tiny rho_c (subnormal binary16) in it.
WarpingData<float> with_flat_patches(WarpingData<float> w) {
  for (int y = 10; y < 30; ++y)
    for (int x = 20; x < 60; ++x) {
      const std::size_t i = std::size_t(y) * w.width + x;
      const bool nearly = x >= 40;
      w.grad_x[i] = nearly ? 2e-3f : 0.f;
      w.grad_y[i] = nearly ? -3e-3f : 0.f;
      w.rho_c[i] = nearly ? 1e-6f * float(x - 50) : w.rho_c[i];
    }
  return w;
}

TEST(SimdF16, IterationsEqualTheGpuF16EmulatorOnEveryTargetScheduleAndTile) {
  const Problem problem = make_problem();
  Tvl1Params params;  // tau 0.25, lambda 0.15, theta 0.3, epsilon 0
  const WarpingData<float> w = with_flat_patches(to_float(problem.warping));
  const Tvl1State<float> start = to_float(problem.start);
  gpu_f16_emu::Fields emu = emulator_fields(to_binary16_fields(w, start));
  gpu_f16_emu::iterate(emu, params.lambda, params.theta, params.tau, 10);
  // The iterations moved u (else the comparison proves little).
  int changed = 0;
  for (std::size_t i = 0; i < emu.u1.size(); ++i) changed += emu.u1[i] != start.u1[i];
  ASSERT_GT(changed, int(emu.u1.size() / 2));

  for_each_target([&] {
    for (const SimdSchedule schedule :
         {SimdSchedule{1, 4}, SimdSchedule{2, 16}, SimdSchedule{3, 200}, SimdSchedule{2, 16, 4, 64},
          SimdSchedule{2, 8, 3, 37}}) {
      SCOPED_TRACE("threads " + std::to_string(schedule.threads) + ", band_rows " +
                   std::to_string(schedule.band_rows) + ", depth " +
                   std::to_string(schedule.temporal_depth) + ", tile_cols " +
                   std::to_string(schedule.tile_cols));
      Tvl1State<float> s = start;
      ASSERT_EQ(tvl1_iterate_simd(w, s, params, 10, schedule, SimdStorage::f16), 10);
      int differ = 0;
      for (std::size_t i = 0; i < s.u1.size(); ++i) {
        const bool same = s.u1[i] == emu.u1[i] && s.u2[i] == emu.u2[i] && s.p11[i] == emu.p11[i] &&
                          s.p12[i] == emu.p12[i] && s.p21[i] == emu.p21[i] &&
                          s.p22[i] == emu.p22[i];
        if (!same && differ++ < 3)
          ADD_FAILURE() << "pixel (" << i % kWidth << ", " << i / kWidth << "): u1 " << s.u1[i]
                        << " vs emulator " << emu.u1[i] << ", p11 " << s.p11[i] << " vs "
                        << emu.p11[i];
      }
      EXPECT_EQ(differ, 0);
    }
  });
}

TEST(SimdF16, AccuracyAgainstTheDoubleReference) {
  // binary16 arithmetic costs accuracy: u within a few binary16 ulps of the values (|u| ~ 1:
  // 2^-10) after 10 iterations; float storage and arithmetic stay within 1e-4 (contract),
  // binary16 storage with float arithmetic (mixed) within 5e-3.
  const Problem problem = make_problem();
  Tvl1Params params;
  Tvl1State<double> ref = problem.start;
  ASSERT_EQ(tvl1_iterate_reference(problem.warping, ref, params, 10), 10);
  const WarpingData<float> w = to_float(problem.warping);
  Tvl1State<float> mixed = to_float(problem.start), f16 = to_float(problem.start);
  tvl1_iterate_simd(w, mixed, params, 10, {2, 8}, SimdStorage::binary16);
  tvl1_iterate_simd(w, f16, params, 10, {2, 8}, SimdStorage::f16);
  const double e_mixed = relative_l2(mixed, ref), e_f16 = relative_l2(f16, ref);
  std::cout << "relative L2 vs double after 10 iterations: mixed " << e_mixed << ", f16 " << e_f16
            << "\n";
  EXPECT_LT(e_f16, 3e-3);
  EXPECT_GT(e_f16, 0.0);
}

TEST(SimdF16, VariantRunsF16AndSearchesItWhereTheCpuHasIt) {
  const FlowVariant* variant = find_flow_variant("simd_fused");
  ASSERT_NE(variant, nullptr);
  const std::vector<std::string> all = variant->precisions();
  EXPECT_NE(std::find(all.begin(), all.end(), "f16"), all.end());
  const std::vector<std::string> searched = variant->default_precisions();
  const bool has_f16 = std::find(searched.begin(), searched.end(), "f16") != searched.end();
  EXPECT_EQ(has_f16, host_cpu().native_binary16);
  EXPECT_EQ(host_cpu().native_binary16, simd_tvl1::native_binary16_arithmetic());
  EXPECT_EQ(host_cpu().binary16_arithmetic.rfind(has_f16 ? "native" : "emulated", 0), 0u)
      << host_cpu().binary16_arithmetic;
  Config config;
  config.variant = "simd_fused";
  config.precision = "f16";
  config.tunables = {{"threads", 1}, {"band_rows", 16}};
  config.params = param_values_of(Tvl1Params{});
  EXPECT_FALSE(variant->invalid_reason(config)) << *variant->invalid_reason(config);
  config.precision = "bf16";
  ASSERT_TRUE(variant->invalid_reason(config));
  EXPECT_NE(variant->invalid_reason(config)->find("f32, mixed, f16"), std::string::npos);
}

}  // namespace
}  // namespace flowtune
