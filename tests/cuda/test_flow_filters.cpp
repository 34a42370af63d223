// The GPU frame's accuracy stages (kernels/cuda/frame/flow_filters.hpp): the median filter of
// the flow against hand-computed medians and, for half pairs, the double reference, the flow-change
// reduction against a double sum, and the whole frame with median filtering and epsilon stopping
// against the CPU reference (host emulation everywhere; the device when there is one).
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/median_filter.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

// The plane of tests/kernels/test_median_filter.cpp as u.x, and 10 - it as u.y:
//  9 1 5 7 / 2 8 3 6 / 4 0 11 10 (4 x 3).
const std::vector<float> kPlane = {9, 1, 5, 7, 2, 8, 3, 6, 4, 0, 11, 10};

std::vector<float2> flow_of_plane() {
  std::vector<float2> u;
  for (float v : kPlane) u.push_back(make_float2(v, 10.f - v));
  return u;
}

void check_hand_medians(bool on_host) {
  test::TestBuffer<float2> in(12, on_host), out(12, on_host);
  in.upload(flow_of_plane());
  cudaStream_t stream = nullptr;
  cuda::frame::median_flow(false, in.get(), out.get(), 4, 3, 3, {stream, on_host});
  std::vector<float2> m = out.download();
  // Hand-computed 3x3 medians (see test_median_filter.cpp): (1,1) 4, (0,0) 8, (3,2) 10,
  // (2,1) 6; the second component is 10 - x, whose median is 10 - median.
  EXPECT_EQ(m[5].x, 4.f);
  EXPECT_EQ(m[0].x, 8.f);
  EXPECT_EQ(m[11].x, 10.f);
  EXPECT_EQ(m[6].x, 6.f);
  EXPECT_EQ(m[5].y, 6.f);
  EXPECT_EQ(m[0].y, 2.f);
  cuda::frame::median_flow(false, in.get(), out.get(), 4, 3, 5, {stream, on_host});
  m = out.download();
  EXPECT_EQ(m[5].x, 5.f);  // 5x5 at (1,1): the 13th of 25
  EXPECT_EQ(m[5].y, 5.f);
  EXPECT_THROW(cuda::frame::median_flow(false, in.get(), out.get(), 4, 3, 4, {stream, on_host}),
               std::invalid_argument);
}

TEST(FlowFilters, MedianHandComputedHostEmulation) {
  check_hand_medians(true);
}
TEST(FlowFilters, MedianHandComputedGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_hand_medians(false);
}

// A flow of half pairs (f16 storage) against the double reference (kernels/median_filter.hpp)
// of each component: 67 x 41 (borders on every side of a 32 x 8 block), values on a grid of
// 1/8 in [-4, 4] so the windows hold ties, negative values and zeros. On sm_80 and newer the
// device selects both components at once in half2 (flow_filters.cu); the host emulation
// selects each in float. Each result must be the reference's median exactly (== as floats).
void check_half_medians(bool on_host) {
  const int w = 67, h = 41;
  const std::size_t n = std::size_t(w) * h;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> step(-32, 32);
  std::vector<__half2> u(n);
  std::vector<double> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = step(rng) / 8.0;
    b[i] = step(rng) / 8.0;
    u[i] = __floats2half2_rn(float(a[i]), float(b[i]));
  }
  test::TestBuffer<__half2> in(n, on_host), out(n, on_host);
  in.upload(u);
  for (int window : {3, 5}) {
    cuda::frame::median_flow(true, in.get(), out.get(), w, h, window, {nullptr, on_host});
    const std::vector<__half2> m = out.download();
    const std::vector<double> ma = median_filter(a, w, h, window),
                              mb = median_filter(b, w, h, window);
    int bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float2 g = __half22float2(m[i]);
      bad += g.x != float(ma[i]) || g.y != float(mb[i]);
    }
    EXPECT_EQ(bad, 0) << "window " << window << (on_host ? " host emulation" : " device");
  }
}

TEST(FlowFilters, MedianOfHalfPairsHostEmulation) {
  check_half_medians(true);
}
TEST(FlowFilters, MedianOfHalfPairsGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_half_medians(false);
}

void check_change_mean(bool on_host) {
  const int w = 300, h = 200;
  const std::size_t n = std::size_t(w) * h;
  const Image a = test::random_image(w, h, 5, -3.f, 3.f),
              b = test::random_image(w, h, 6, -3.f, 3.f);
  std::vector<float2> u(n), v(n);
  double want = 0;
  for (std::size_t i = 0; i < n; ++i) {
    u[i] = make_float2(a.data[i], b.data[i]);
    v[i] = make_float2(b.data[i], 0.5f * a.data[i]);
    const double dx = double(u[i].x) - v[i].x, dy = double(u[i].y) - v[i].y;
    want += dx * dx + dy * dy;
  }
  want /= double(n);
  test::TestBuffer<float2> du(n, on_host), dv(n, on_host);
  test::TestBuffer<double> scratch(cuda::frame::flow_change_scratch_doubles(), on_host),
      mean(1, on_host);
  du.upload(u);
  dv.upload(v);
  cuda::frame::flow_change_mean(false, du.get(), dv.get(), w, h, scratch.get(), mean.get(),
                                {nullptr, on_host});
  EXPECT_NEAR(mean.download()[0], want, 1e-12 * want);
}

TEST(FlowFilters, ChangeMeanHostEmulation) {
  check_change_mean(true);
}
TEST(FlowFilters, ChangeMeanGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_change_mean(false);
}

/// RubberWhale with the additions: 3 scales, 2 warpings, up to 60 iterations, epsilon 0.01
/// tested every 5 iterations, median 3x3 after each warping.
Tvl1Params additions_params() {
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 2;
  p.iterations = 60;
  p.epsilon = 0.01;
  p.epsilon_check_every = 5;
  p.median_window = 3;
  return p;
}

void check_frame(bool on_host) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const Image &i0 = rw.i0, &i1 = rw.i1;
  const FlowField& gt = rw.gt;
  const Tvl1Params p = additions_params();
  auto solver = test::plain_frame_solver(p, on_host);
  const FlowField got = solver->compute(i0, i1);
  const FlowField ref = tvl1_reference(i0, i1, p);
  double dist = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    dist += std::hypot(double(got.u[k]) - ref.u[k], double(got.v[k]) - ref.v[k]);
  dist /= double(ref.size());
  const double a_ref = flow_error(ref, gt).aepe, a_got = flow_error(got, gt).aepe;
  Tvl1Params off = p;
  off.median_window = 0;
  const double a_off = flow_error(tvl1_reference(i0, i1, off), gt).aepe;
  std::printf(
      "RubberWhale median 3 + epsilon: AEPE reference %.5f, %s %.5f, mean |diff| %.2e px;"
      " reference without median %.5f\n",
      a_ref, on_host ? "host emulation" : "GPU", a_got, dist, a_off);
  EXPECT_LT(std::abs(a_got - a_ref), 0.01);
  EXPECT_LT(dist, 0.02);
  EXPECT_NE(a_ref, a_off);  // the median changed the reference's result
}

TEST(FlowFilters, FrameWithMedianAndEpsilonMatchesReferenceHostEmulation) {
  check_frame(true);
}
TEST(FlowFilters, FrameWithMedianAndEpsilonMatchesReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_frame(false);
}

}  // namespace
}  // namespace flowtune
