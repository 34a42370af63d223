// The epsilon stopping test on the GPU path (variants/cuda/epsilon_stop.hpp) against the CPU
// reference: the same warping data, the same epsilon and check interval, the same number of
// iterations done (host emulation everywhere; on the device when there is one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "kernels/reference_tvl1.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/epsilon_stop.hpp"

namespace flowtune {
namespace {

constexpr int kW = 64, kH = 48;

/// Random warping data (gradients and rho_c of a textured pair), exactly representable in
/// float so the double reference and the float path start from the same numbers.
WarpingData<double> random_warping(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.f, 8.f);
  std::uniform_real_distribution<float> r(-15.f, 15.f);
  WarpingData<double> w(kW, kH);
  for (std::size_t i = 0; i < w.rho_c.size(); ++i) {
    w.grad_x[i] = g(rng);
    w.grad_y[i] = g(rng);
    w.rho_c[i] = r(rng);
  }
  return w;
}

Tvl1Params stop_params(double epsilon, int every) {
  Tvl1Params p;  // tau 0.25, lambda 0.15, theta 0.3
  p.epsilon = epsilon;
  p.epsilon_check_every = every;
  return p;
}

int reference_count(const WarpingData<double>& w, const Tvl1Params& p, int iterations) {
  Tvl1State<double> s(kW, kH);
  return tvl1_iterate_reference(w, s, p, iterations);
}

/// Iterations done by EpsilonStop around the plain schedule (f32 storage).
int gpu_path_count(const WarpingData<double>& w, const Tvl1Params& p, int iterations,
                   bool on_host) {
  const std::size_t n = std::size_t(kW) * kH;
  std::vector<float2> grad(n), zero2(n, make_float2(0.f, 0.f));
  std::vector<float> rho(n);
  for (std::size_t i = 0; i < n; ++i) {
    grad[i] = make_float2(float(w.grad_x[i]), float(w.grad_y[i]));
    rho[i] = float(w.rho_c[i]);
  }
  test::TestBuffer<float2> g(n, on_host), u(n, on_host), p1(n, on_host), p2(n, on_host);
  test::TestBuffer<float> r(n, on_host);
  g.upload(grad);
  r.upload(rho);
  u.upload(zero2);
  p1.upload(zero2);
  p2.upload(zero2);
  cuda::DeviceFields f;
  f.width = kW;
  f.height = kH;
  f.grad = g.get();
  f.rho_c = r.get();
  f.u = u.get();
  f.p1 = p1.get();
  f.p2 = p2.get();
  test::PlainSchedule schedule(p, cuda::Storage::f32, on_host);
  cuda::EpsilonStop stop(on_host);
  return stop.run(
      f, iterations, p.epsilon, p.epsilon_check_every, [&](int k) { schedule.run(f, k, nullptr); },
      nullptr);
}

void expect_same_counts(bool on_host) {
  const int iterations = 400;
  for (unsigned seed : {1u, 2u}) {
    const WarpingData<double> w = random_warping(seed);
    for (double eps : {0.05, 0.01}) {
      for (int every : {1, 5, 16}) {
        const Tvl1Params p = stop_params(eps, every);
        const int ref = reference_count(w, p, iterations);
        const int got = gpu_path_count(w, p, iterations, on_host);
        std::printf("seed %u eps %.3f every %2d: reference %d, %s %d\n", seed, eps, every, ref,
                    on_host ? "host emulation" : "GPU", got);
        EXPECT_EQ(got, ref) << "seed " << seed << " eps " << eps << " every " << every;
        EXPECT_LT(ref, iterations);  // the test really stopped the loop
        EXPECT_EQ(ref % every, 0);   // only after iterations k, 2k, ...
      }
    }
  }
}

TEST(EpsilonStop, HostEmulationStopsWhereTheReferenceStops) {
  expect_same_counts(true);
}

TEST(EpsilonStop, GpuStopsWhereTheReferenceStops) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  expect_same_counts(false);
}

TEST(EpsilonStop, RejectsBadArguments) {
  cuda::EpsilonStop stop(true);
  cuda::DeviceFields f;
  EXPECT_THROW(stop.run(
                   f, 10, 0.0, 1, [](int) {}, nullptr),
               std::invalid_argument);
  EXPECT_THROW(stop.run(
                   f, 10, 0.01, 0, [](int) {}, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
