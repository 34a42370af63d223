// The GPU frame's weighted median with the occlusion factor (Sun, Roth, Black 2010, sec. 4,
// eq. 10; kernels/cuda/frame/occlusion_filters.hpp) against the CPU reference's code in double
// (kernels/occlusion.hpp, kernels/weighted_median.hpp): the occlusion cost of a random field,
// the occluded weighted median, the whole RubberWhale frame with nl_occlusion on, and
// nl_occlusion off leaving the frame as it was (host emulation everywhere; the device when
// there is one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/cuda/frame/occlusion_filters.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/occlusion.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/weighted_median.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

struct Field {
  int w = 97, h = 61;
  std::vector<float2> flow;
  std::vector<float> i0, i1;
  std::vector<double> u1, u2, d0, d1;
};

// A smooth flow with a converging band (negative divergence) plus noise, frames in [0, 255].
Field field() {
  Field f;
  const Image n1 = test::random_image(f.w, f.h, 31, -0.3f, 0.3f);
  const Image n2 = test::random_image(f.w, f.h, 32, -0.3f, 0.3f);
  const Image a = test::random_image(f.w, f.h, 33, 0.f, 255.f);
  const Image b = test::random_image(f.w, f.h, 34, 0.f, 255.f);
  for (int y = 0; y < f.h; ++y)
    for (int x = 0; x < f.w; ++x) {
      const std::size_t i = std::size_t(y) * f.w + x;
      const float u = (x < 40 ? 2.f : (x < 50 ? 2.f - 0.4f * float(x - 40) : -2.f)) + n1.data[i];
      const float v = 0.5f * std::sin(0.1f * float(y)) + n2.data[i];
      f.flow.push_back(make_float2(u, v));
      f.u1.push_back(u);
      f.u2.push_back(v);
      f.i0.push_back(a.data[i]);
      f.i1.push_back(b.data[i]);
      f.d0.push_back(a.data[i]);
      f.d1.push_back(b.data[i]);
    }
  return f;
}

// The cost in float against double: relative error below 1e-4 (plus 1e-5 absolute) at every
// pixel except where x + u lands within float rounding of the level's border (counted, rare).
// The occluded weighted median: the same sample as the double reference fed the double cost,
// except at near-ties of the running sum (rare, as the plain weighted median's test).
void check_random(bool on_host) {
  const Field f = field();
  const std::size_t n = f.flow.size();
  test::TestBuffer<float2> in(n, on_host), out(n, on_host);
  test::TestBuffer<float> i0(n, on_host), i1(n, on_host), cost(n, on_host);
  in.upload(f.flow);
  i0.upload(f.i0);
  i1.upload(f.i1);
  cuda::frame::occlusion_cost(false, in.get(), i0.get(), i1.get(), cost.get(), f.w, f.h, 0.3f, 20.f,
                              {nullptr, on_host});
  const std::vector<float> q = cost.download();
  const std::vector<double> ref = occlusion_cost_map(f.u1, f.u2, f.d0, f.d1, f.w, f.h, 0.3, 20.0);
  std::size_t off = 0, occluded = 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::fabs(q[i] - ref[i]) / (std::fabs(ref[i]) + 0.1);
    worst = std::max(worst, e);
    if (std::fabs(q[i] - ref[i]) > 1e-4 * std::fabs(ref[i]) + 1e-5) ++off;
    if (ref[i] > 1) ++occluded;
  }
  std::printf(
      "occlusion cost, %s vs double reference: %zu of %zu pixels off by more than 1e-4 "
      "(relative; largest %.3g); %zu pixels with o < 1/e\n",
      on_host ? "host emulation" : "GPU", off, n, worst, occluded);
  EXPECT_LE(off, n / 1000);
  EXPECT_GT(occluded, n / 20);  // the field has occluded pixels to weigh

  for (int window : {3, 5, 7}) {
    cuda::frame::weighted_median_flow_occlusion(false, in.get(), out.get(), i0.get(), i1.get(),
                                                cost.get(), f.w, f.h, window, 3.f, 20.f, 0.3f, 20.f,
                                                {nullptr, on_host});
    const std::vector<float2> m = out.download();
    std::vector<double> o1, o2, p1, p2;
    weighted_median_filter(f.u1, f.u2, f.d0, f.w, f.h, window, 3.0, 20.0, &o1, &o2, &ref);
    weighted_median_filter(f.u1, f.u2, f.d0, f.w, f.h, window, 3.0, 20.0, &p1, &p2);
    std::size_t wrong = 0, moved = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (std::max(std::fabs(m[i].x - o1[i]), std::fabs(m[i].y - o2[i])) > 1e-3) ++wrong;
      if (o1[i] != p1[i] || o2[i] != p2[i]) ++moved;
    }
    std::printf(
        "occluded weighted median %dx%d, %s vs double reference: %zu of %zu pixels differ by "
        "more than 1e-3 px; the factor moved %zu pixels of the reference\n",
        window, window, on_host ? "host emulation" : "GPU", wrong, n, moved);
    EXPECT_LE(wrong, n / 1000) << window;
    EXPECT_GT(moved, n / 50) << window;  // the factor matters on this field
  }
  EXPECT_THROW(cuda::frame::occlusion_cost(false, in.get(), i0.get(), i1.get(), cost.get(), f.w,
                                           f.h, 0.f, 20.f, {nullptr, on_host}),
               std::invalid_argument);
}

TEST(OcclusionFilters, MatchDoubleReferenceHostEmulation) {
  check_random(true);
}
TEST(OcclusionFilters, MatchDoubleReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_random(false);
}

FlowField solve(const Tvl1Params& p, const Image& i0, const Image& i1, bool on_host) {
  auto solver = test::plain_frame_solver(p, on_host);
  return solver->compute(i0, i1);
}

/// RubberWhale, 3 scales x 2 warpings x 30 iterations, epsilon 0, median 5 then the weighted
/// median 5 with the occlusion factor (the paper's sigmas): the GPU frame against the double
/// reference; and with nl_occlusion 0 but other sigmas, the frame without the factor, bit for
/// bit.
void check_occlusion_frame(bool on_host) {
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
  p.nl_sigma_color = 7;
  Tvl1Params on = p;
  on.nl_occlusion = true;
  const FlowField got = solve(on, i0, i1, on_host);
  const FlowField ref = tvl1_reference(i0, i1, on);
  double dist = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    dist += std::hypot(double(got.u[k]) - ref.u[k], double(got.v[k]) - ref.v[k]);
  dist /= double(ref.size());
  const double a_ref = flow_error(ref, gt).aepe, a_got = flow_error(got, gt).aepe;
  const double a_off = flow_error(tvl1_reference(i0, i1, p), gt).aepe;
  std::printf(
      "RubberWhale median 5 + weighted median 5 with occlusion: AEPE reference %.5f, %s %.5f, "
      "mean |diff| %.2e px; reference without the factor %.5f\n",
      a_ref, on_host ? "host emulation" : "GPU", a_got, dist, a_off);
  EXPECT_LT(std::abs(a_got - a_ref), 1e-3);
  EXPECT_LT(dist, 2e-3);
  EXPECT_NE(a_ref, a_off);  // the factor changed the reference's result

  Tvl1Params off = p;
  off.nl_sigma_divergence = 5;  // ignored while nl_occlusion is 0
  off.nl_sigma_residual = 1;
  const FlowField a = solve(p, i0, i1, on_host), b = solve(off, i0, i1, on_host);
  EXPECT_EQ(std::memcmp(a.u.data(), b.u.data(), a.u.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(a.v.data(), b.v.data(), a.v.size() * sizeof(float)), 0);
}

TEST(OcclusionFilters, FrameMatchesReferenceHostEmulation) {
  check_occlusion_frame(true);
}
TEST(OcclusionFilters, FrameMatchesReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_occlusion_frame(false);
}

}  // namespace
}  // namespace flowtune
