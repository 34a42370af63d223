// The GPU structure-texture stage (kernels/cuda/frame/texture_kernels.hpp, float) against the
// double-precision CPU decomposition (kernels/structure_texture.hpp), and the whole frame with
// it against the CPU reference (host emulation everywhere; the device when there is one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "kernels/cuda/frame/texture_kernels.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/structure_texture.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

void check_against_double(bool on_host, int iterations_per_launch) {
  const int w = 70, h = 45;
  const std::size_t n = std::size_t(w) * h;
  const Image a = test::random_image(w, h, 11, 10.f, 90.f), b = test::random_image(w, h, 12);
  // The double oracle: joint normalisation to [0, 255], then the decomposition.
  Plane<double> da = plane_cast<double>(a), db = plane_cast<double>(b);
  normalize_pair(da, db);
  const Plane<double> ta = structure_texture(da, 0.95, 0.125, 100);
  const Plane<double> tb = structure_texture(db, 0.95, 0.125, 100);
  std::vector<float> frames(a.data);
  frames.insert(frames.end(), b.data.begin(), b.data.end());
  const auto [lo, hi] = std::minmax_element(frames.begin(), frames.end());
  test::TestBuffer<float> f(2 * n, on_host), mm(2, on_host);
  test::TestBuffer<float> scratch(
      cuda::frame::structure_texture_scratch_floats(w, h, iterations_per_launch), on_host);
  f.upload(frames);
  mm.upload({*lo, *hi});
  cuda::frame::structure_texture_pair(f.get(), f.get() + n, w, h, scratch.get(), mm.get(), 0.95f,
                                      0.125f, 100, iterations_per_launch, {nullptr, on_host});
  const std::vector<float> got = f.download();
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    worst = std::max(worst, std::abs(got[i] - ta.data[i]));
    worst = std::max(worst, std::abs(got[n + i] - tb.data[i]));
  }
  std::printf(
      "structure-texture %s, %d iterations per launch, vs double: max |diff| %.3e "
      "(values in [0, 255])\n",
      on_host ? "host emulation" : "GPU", iterations_per_launch, worst);
  EXPECT_LT(worst, 2e-3);
}

TEST(TextureStage, MatchesDoubleReferenceHostEmulation) {
  check_against_double(true, 1);
}
TEST(TextureStage, MatchesDoubleReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_against_double(false, 1);
}
// Temporally blocked (8 iterations per launch: 13 launches, the last of 4).
TEST(TextureStage, BlockedMatchesDoubleReferenceHostEmulation) {
  check_against_double(true, 8);
}
TEST(TextureStage, BlockedMatchesDoubleReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_against_double(false, 8);
}

void check_texture_frame(bool on_host) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const Image &i0 = rw.i0, &i1 = rw.i1;
  const FlowField& gt = rw.gt;
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 50;
  p.texture_alpha = 0.95;
  const FlowField got = test::plain_frame_solver(p, on_host)->compute(i0, i1);
  const FlowField ref = tvl1_reference(i0, i1, p);
  const double a_ref = flow_error(ref, gt).aepe, a_got = flow_error(got, gt).aepe;
  std::printf("RubberWhale structure-texture: AEPE reference %.5f, %s %.5f\n", a_ref,
              on_host ? "host emulation" : "GPU", a_got);
  EXPECT_LT(std::abs(a_got - a_ref), 0.01);
}

TEST(TextureStage, FrameMatchesReferenceHostEmulation) {
  check_texture_frame(true);
}
TEST(TextureStage, FrameMatchesReferenceGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_texture_frame(false);
}

}  // namespace
}  // namespace flowtune
