// The CUDA frame solver started from an initial flow (compute_from; tvl1_multiscale's
// init_flow) and with bilinear warping, against the CPU reference: the initial flow comes back
// when no iteration moves it, and a RubberWhale frame started from the ground truth (with its
// unknown values) equals the double reference started from it. Host emulation everywhere;
// the device when there is one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

std::unique_ptr<FlowSolver> frame_solver(const Tvl1Params& p, bool on_host) {
  return test::plain_frame_solver(p, on_host);
}

Image wave(int w, int h, double shift) {
  Image im(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      im.at(x, y) = float(128 + 60 * std::sin(0.45 * (x - shift)) * std::cos(0.35 * y));
  return im;
}

// No iteration: on one scale the initial flow itself comes back exactly (NaN and the .flo
// "unknown" 1e10 as 0, as the CPU); on three scales a constant flow comes back after its
// pyramid (zoom_out, x 1/4) and two zoom_in x 2, to float rounding. The same call twice:
// the second frame (which a plain compute() would replay as a graph) also starts from it, and
// compute_from_into writes the same flow into the caller's storage.
void check_comes_back(bool on_host) {
  const Image i0 = wave(40, 30, 0), i1 = wave(40, 30, 1);
  FlowField init(40, 30);
  for (std::size_t i = 0; i < init.size(); ++i) {
    init.u[i] = float(0.01 * double(i % 40));
    init.v[i] = -0.5f;
  }
  init.u[7] = std::numeric_limits<float>::quiet_NaN();
  init.v[8] = 1e10f;
  Tvl1Params p;
  p.n_scales = 1;
  p.iterations = 0;
  p.n_warpings = 2;
  auto solver = frame_solver(p, on_host);
  for (int round = 0; round < 2; ++round) {
    const FlowField out = solver->compute_from(i0, i1, init);
    for (std::size_t i = 0; i < init.size(); ++i) {
      const bool unknown = i == 7 || i == 8;
      EXPECT_EQ(out.u[i], unknown ? 0.f : init.u[i]) << i;
      EXPECT_EQ(out.v[i], unknown ? 0.f : init.v[i]) << i;
    }
  }
  // Into the caller's flow (compute_from_into): the same values, in its storage.
  FlowField into;
  solver->compute_from_into(i0, i1, init, into);
  const float* storage = into.u.data();
  solver->compute_from_into(i0, i1, init, into);
  EXPECT_EQ(into.u.data(), storage) << "the caller's flow was reallocated";
  const FlowField again = solver->compute_from(i0, i1, init);
  EXPECT_TRUE(into.u == again.u && into.v == again.v);
  EXPECT_EQ(solver->compute(i0, i1).u[100], 0.f);  // without an initial flow: 0 again
  FlowField constant(40, 30);
  for (std::size_t i = 0; i < constant.size(); ++i) {
    constant.u[i] = 1.25f;
    constant.v[i] = -0.75f;
  }
  p.n_scales = 3;
  const FlowField out = frame_solver(p, on_host)->compute_from(i0, i1, constant);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(out.u[i], 1.25, 1e-5);
    EXPECT_NEAR(out.v[i], -0.75, 1e-5);
  }
  EXPECT_THROW(frame_solver(p, on_host)->compute_from(i0, i1, FlowField(30, 30)),
               std::invalid_argument);
}

TEST(FrameInitFlow, ComesBackWithoutIterationsHostEmulation) {
  check_comes_back(true);
}
TEST(FrameInitFlow, ComesBackWithoutIterationsGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_comes_back(false);
}

// RubberWhale, 3 scales x 1 warping x 30 iterations, bilinear warping, started from the
// ground truth (whose occluded pixels are "unknown"): the frame solver's flow equals the
// double reference's started from it (mean |diff| < 0.02 px, AEPE within 0.005); the start
// matters (the flow is 10x farther from the reference's run from 0 than from the reference
// from the ground truth) and bilinear differs from bicubic in the reference. (From the
// ground truth is not more accurate here: its pyramid blurs the motion boundaries and 30
// iterations on 3 levels do not recover them: AEPE 0.273 vs 0.264 from 0.)
void check_rubberwhale(bool on_host) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const Image &i0 = rw.i0, &i1 = rw.i1;
  const FlowField& gt = rw.gt;
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 30;
  p.warping_interp = WarpingInterp::bilinear;
  const FlowField got = frame_solver(p, on_host)->compute_from(i0, i1, gt);
  const FlowField ref = tvl1_reference(i0, i1, p, &gt);
  const FlowField from_zero = tvl1_reference(i0, i1, p);
  const auto mean_distance = [](const FlowField& a, const FlowField& b) {
    double sum = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
      sum += std::hypot(double(a.u[k]) - b.u[k], double(a.v[k]) - b.v[k]);
    return sum / double(a.size());
  };
  const double dist = mean_distance(got, ref), dist_zero = mean_distance(got, from_zero);
  const double a_got = flow_error(got, gt).aepe, a_ref = flow_error(ref, gt).aepe;
  const double a_zero = flow_error(from_zero, gt).aepe;
  Tvl1Params cubic = p;
  cubic.warping_interp = WarpingInterp::bicubic;
  const double a_cubic = flow_error(tvl1_reference(i0, i1, cubic, &gt), gt).aepe;
  std::printf(
      "RubberWhale bilinear from the ground truth: AEPE reference %.5f, %s %.5f, mean |diff| "
      "%.2e px (%.2e px from the reference's flow from 0); reference from 0 %.5f, bicubic "
      "from the ground truth %.5f\n",
      a_ref, on_host ? "host emulation" : "GPU", a_got, dist, dist_zero, a_zero, a_cubic);
  EXPECT_LT(std::abs(a_got - a_ref), 0.005);
  EXPECT_LT(dist, 0.02);
  EXPECT_GT(dist_zero, 10 * dist);  // the start is taken, and it matters
  EXPECT_NE(a_ref, a_cubic);
}

TEST(FrameInitFlow, BilinearRubberWhaleFromGroundTruthMatchesReferenceHostEmulation) {
  check_rubberwhale(true);
}
TEST(FrameInitFlow, BilinearRubberWhaleFromGroundTruthMatchesReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_rubberwhale(false);
}

}  // namespace
}  // namespace flowtune
