// Test helpers of the SIMD TV-L1 tests (tests/variants/test_simd_*.cpp): a warping problem
// with a known smooth flow on random texture, float copies, the relative L2 error against
// the double reference, and a loop over the SIMD targets of this CPU.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/image_ops.hpp"
#include "kernels/reference_tvl1.hpp"

namespace flowtune {
namespace simd_test {

constexpr int kWidth = 203;  // not a multiple of any vector length
constexpr int kHeight = 97;  // not a multiple of any band_rows tested

/// Smooth random texture in [0, 255]: uniform noise, Gaussian sigma 1.5, rescaled.
inline Plane<double> random_texture(int width, int height, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(0.0, 255.0);
  Plane<double> raw(width, height);
  for (double& v : raw.data) v = noise(rng);
  Plane<double> smooth = gaussian_smooth(raw, 1.5);
  const auto [lo, hi] = std::minmax_element(smooth.data.begin(), smooth.data.end());
  const double min_v = *lo, scale = 255.0 / (*hi - *lo);
  for (double& v : smooth.data) v = (v - min_v) * scale;
  return smooth;
}

struct Problem {
  WarpingData<double> warping;
  Tvl1State<double> start;
};

/// I1(x) = I0(x - d(x)) for a smooth flow d; start flow 0.5 d; warping data from the
/// reference's prepare_warping.
inline Problem make_problem() {
  const Plane<double> i0 = random_texture(kWidth, kHeight, 20251124u);
  Plane<double> i1(kWidth, kHeight);
  Tvl1State<double> start(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const double dx = 0.8 + 0.5 * std::sin(0.05 * x), dy = -0.4 + 0.3 * std::cos(0.07 * y);
      i1.at(x, y) = bicubic_at(i0, x - dx, y - dy);
      const std::size_t i = std::size_t(y) * kWidth + x;
      start.u1[i] = 0.5 * dx;
      start.u2[i] = 0.5 * dy;
    }
  }
  Plane<double> i1x, i1y;
  centered_gradient(i1, i1x, i1y);
  return {prepare_warping(i0, i1, i1x, i1y, start), start};
}

inline std::vector<float> to_float(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

inline WarpingData<float> to_float(const WarpingData<double>& w) {
  WarpingData<float> f(w.width, w.height);
  f.grad_x = to_float(w.grad_x);
  f.grad_y = to_float(w.grad_y);
  f.rho_c = to_float(w.rho_c);
  return f;
}

inline Tvl1State<float> to_float(const Tvl1State<double>& s) {
  Tvl1State<float> f(s.width, s.height);
  f.u1 = to_float(s.u1);
  f.u2 = to_float(s.u2);
  f.p11 = to_float(s.p11);
  f.p12 = to_float(s.p12);
  f.p21 = to_float(s.p21);
  f.p22 = to_float(s.p22);
  return f;
}

inline double relative_l2(const Tvl1State<float>& u, const Tvl1State<double>& ref) {
  double diff2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < ref.u1.size(); ++i) {
    const double d1 = u.u1[i] - ref.u1[i], d2 = u.u2[i] - ref.u2[i];
    diff2 += d1 * d1 + d2 * d2;
    ref2 += ref.u1[i] * ref.u1[i] + ref.u2[i] * ref.u2[i];
  }
  return std::sqrt(diff2 / ref2);
}

/// Runs fn once per SIMD target compiled in and supported here, with the dispatch forced to
/// it (Highway's SetSupportedTargetsForTest), then restores the normal dispatch.
template <typename Fn>
void for_each_target(Fn&& fn) {
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(std::string("SIMD target ") + hwy::TargetName(target));
    fn();
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace simd_test
}  // namespace flowtune
