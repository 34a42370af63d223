// The GPU frame's weighted non-local median and its register median filter
// (kernels/cuda/frame/flow_filters.hpp) against the CPU reference's code in double
// (kernels/weighted_median.hpp, kernels/median_filter.hpp): a hand-computed weighted median,
// random fields, and the whole RubberWhale frame with both filters (host emulation
// everywhere; the device when there is one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/median_filter.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/weighted_median.hpp"
#include "tests/cuda/test_frame_support.hpp"
#if defined(FLOWTUNE_TEST_CUDA_KERNELS)
#include "tests/cuda/weighted_median_oracle_gpu.hpp"
#endif
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

// tests/kernels/test_weighted_median.cpp's edge: guide columns 0 0 100, u.x = 1 1 9 / 2 9 9 /
// 3 9 9, u.y = -u.x; sigma_spatial huge, sigma_color 10: by hand (1, 1) -> (2, -3) (the
// plain 3x3 median would be 9).
void check_hand_weighted(bool on_host) {
  const std::vector<float> guide = {0, 0, 100, 0, 0, 100, 0, 0, 100};
  const std::vector<float> u = {1, 1, 9, 2, 9, 9, 3, 9, 9};
  std::vector<float2> flow;
  for (float v : u) flow.push_back(make_float2(v, -v));
  test::TestBuffer<float2> in(9, on_host), out(9, on_host);
  test::TestBuffer<float> g(9, on_host);
  in.upload(flow);
  g.upload(guide);
  cuda::frame::weighted_median_flow(false, in.get(), out.get(), g.get(), 3, 3, 3, 1e12f, 10.f,
                                    {nullptr, on_host});
  const std::vector<float2> m = out.download();
  EXPECT_EQ(m[4].x, 2.f);
  EXPECT_EQ(m[4].y, -3.f);
  EXPECT_THROW(cuda::frame::weighted_median_flow(false, in.get(), out.get(), g.get(), 3, 3, 4, 7.f,
                                                 7.f, {nullptr, on_host}),
               std::invalid_argument);
}

TEST(FlowFiltersNl, WeightedHandComputedHostEmulation) {
  check_hand_weighted(true);
}
TEST(FlowFiltersNl, WeightedHandComputedGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_hand_weighted(false);
}

struct RandomField {
  int w = 97, h = 61;
  std::vector<float2> flow;
  std::vector<float> guide;
  std::vector<double> u1, u2, g;
};

RandomField random_field() {
  RandomField f;
  const Image a = test::random_image(f.w, f.h, 21, -4.f, 4.f);
  const Image b = test::random_image(f.w, f.h, 22, -4.f, 4.f);
  const Image c = test::random_image(f.w, f.h, 23, 0.f, 255.f);
  for (std::size_t i = 0; i < a.size(); ++i) {
    f.flow.push_back(make_float2(a.data[i], b.data[i]));
    f.guide.push_back(c.data[i]);
    f.u1.push_back(a.data[i]);
    f.u2.push_back(b.data[i]);
    f.g.push_back(c.data[i]);
  }
  return f;
}

// float weights (GPU) against double weights (CPU reference) on the same values: the selected
// sample is the same except where the running sum meets half the total within float rounding
// (a near-tie); those pixels are counted and must stay rare.
void check_random_weighted(bool on_host) {
  const RandomField f = random_field();
  const std::size_t n = f.flow.size();
  test::TestBuffer<float2> in(n, on_host), out(n, on_host);
  test::TestBuffer<float> g(n, on_host);
  in.upload(f.flow);
  g.upload(f.guide);
  for (int window : {3, 7, 11}) {
    cuda::frame::weighted_median_flow(false, in.get(), out.get(), g.get(), f.w, f.h, window, 3.f,
                                      20.f, {nullptr, on_host});
    const std::vector<float2> m = out.download();
    std::vector<double> o1, o2;
    weighted_median_filter(f.u1, f.u2, f.g, f.w, f.h, window, 3.0, 20.0, &o1, &o2);
    std::size_t off = 0;
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::max(std::fabs(m[i].x - o1[i]), std::fabs(m[i].y - o2[i]));
      worst = std::max(worst, d);
      if (d > 1e-3) ++off;
    }
    std::printf(
        "weighted median %dx%d, %s vs double reference: %zu of %zu pixels differ by more "
        "than 1e-3 px (largest %.3g)\n",
        window, window, on_host ? "host emulation" : "GPU", off, n, worst);
    EXPECT_LE(off, n / 1000) << window;
  }
}

TEST(FlowFiltersNl, WeightedMatchesDoubleReferenceHostEmulation) {
  check_random_weighted(true);
}
TEST(FlowFiltersNl, WeightedMatchesDoubleReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_random_weighted(false);
}

#if defined(FLOWTUNE_TEST_CUDA_KERNELS)
// The frame kernel (register selection) against the insertion-sort oracle run on the
// device with the same weights (tests/cuda/weighted_median_oracle_gpu.cu): a random field with
// quantised flow (ties) and guide (equal weights), every window: equal bit for bit at every
// pixel (tests/kernels/test_weighted_median_oracle.cpp shows the same on the host).
TEST(FlowFiltersNl, WeightedEqualsSortingKernelGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  const int w = 97, h = 61;
  const std::size_t n = std::size_t(w) * h;
  std::vector<float2> flow(n);
  std::vector<float> guide(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float a = float(int((i * 7919u) % 13u) - 6) / 2;  // ties
    const float b = i % 5 ? float(int((i * 104729u) % 9u) - 4) / 4 : float(i % 97) / 31.f - 1.5f;
    flow[i] = make_float2(a, b);
    guide[i] = float(20 * int((i * 31u) % 11u));
  }
  test::TestBuffer<float2> in(n, false), out(n, false), want(n, false);
  test::TestBuffer<float> g(n, false);
  in.upload(flow);
  g.upload(guide);
  for (int window : {3, 5, 7, 9, 11})
    for (float sc : {7.f, 40.f}) {
      cuda::frame::weighted_median_flow(false, in.get(), out.get(), g.get(), w, h, window, 2.f, sc,
                                        {nullptr, false});
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      test::weighted_median_sorting_gpu(static_cast<const float2*>(in.get()),
                                        static_cast<const float*>(g.get()),
                                        static_cast<float2*>(want.get()), w, h, window, 2.f, sc);
      const std::vector<float2> m = out.download(), e = want.download();
      std::size_t off = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (std::memcmp(&m[i], &e[i], sizeof(float2)) != 0) ++off;
      std::printf(
          "weighted median %dx%d (sigma_color %g), GPU register selection vs GPU sorting "
          "oracle: %zu of %zu pixels differ in any bit\n",
          window, window, double(sc), off, n);
      EXPECT_EQ(off, 0u) << window << " " << sc;
    }
}
#endif

// The register median (median_select) selects the same sample as the CPU reference's median
// filter in double: equal, every pixel (a selection has no rounding).
void check_random_median(bool on_host) {
  const RandomField f = random_field();
  const std::size_t n = f.flow.size();
  test::TestBuffer<float2> in(n, on_host), out(n, on_host);
  in.upload(f.flow);
  for (int window : {3, 5}) {
    cuda::frame::median_flow(false, in.get(), out.get(), f.w, f.h, window, {nullptr, on_host});
    const std::vector<float2> m = out.download();
    const std::vector<double> o1 = median_filter(f.u1, f.w, f.h, window);
    const std::vector<double> o2 = median_filter(f.u2, f.w, f.h, window);
    std::size_t off = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (double(m[i].x) != o1[i] || double(m[i].y) != o2[i]) ++off;
    EXPECT_EQ(off, 0u) << window;
  }
}

TEST(FlowFiltersNl, MedianEqualsDoubleReferenceHostEmulation) {
  check_random_median(true);
}
TEST(FlowFiltersNl, MedianEqualsDoubleReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_random_median(false);
}

/// RubberWhale, 3 scales x 2 warpings x 30 iterations, epsilon 0, median 5 then the weighted
/// median 5 (sigmas 7, 3.5) after each warping: the GPU frame against the double reference.
void check_weighted_median_frame(bool on_host) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const Image &i0 = rw.i0, &i1 = rw.i1;
  const FlowField& gt = rw.gt;
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 2;
  p.iterations = 30;
  p.median_window = 5;
  p.nl_median_window = 5;
  p.nl_sigma_spatial = 7;
  p.nl_sigma_color = 3.5;
  auto solver = test::plain_frame_solver(p, on_host);
  const FlowField got = solver->compute(i0, i1);
  const FlowField ref = tvl1_reference(i0, i1, p);
  double dist = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    dist += std::hypot(double(got.u[k]) - ref.u[k], double(got.v[k]) - ref.v[k]);
  dist /= double(ref.size());
  const double a_ref = flow_error(ref, gt).aepe, a_got = flow_error(got, gt).aepe;
  Tvl1Params off = p;
  off.nl_median_window = 0;
  const double a_off = flow_error(tvl1_reference(i0, i1, off), gt).aepe;
  std::printf(
      "RubberWhale median 5 + weighted median 5: AEPE reference %.5f, %s %.5f, mean |diff| "
      "%.2e px; reference without the weighted median %.5f\n",
      a_ref, on_host ? "host emulation" : "GPU", a_got, dist, a_off);
  EXPECT_LT(std::abs(a_got - a_ref), 1e-3);
  EXPECT_LT(dist, 1e-3);
  EXPECT_NE(a_ref, a_off);  // the weighted median changed the reference's result
}

TEST(FlowFiltersNl, FrameWithWeightedMedianMatchesReferenceHostEmulation) {
  check_weighted_median_frame(true);
}
TEST(FlowFiltersNl, FrameWithWeightedMedianMatchesReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_weighted_median_frame(false);
}

}  // namespace
}  // namespace flowtune
