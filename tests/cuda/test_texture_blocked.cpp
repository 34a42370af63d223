// The temporally blocked ROF of the structure-texture stage (k Chambolle iterations per
// launch, kernels/cuda/frame/texture_kernels.hpp) against the per-iteration path (k = 1):
// equal bit for bit (memcmp) for several k, iteration counts not divisible by k, one launch
// only, and frame sizes that are not multiples of the tile; in host emulation here and on the
// device when there is one. Also the whole frame: the flow with k = 8 equals the flow with
// k = 1. (The double-precision oracle of both paths is in test_texture_stage.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/cuda/frame/texture_kernels.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

constexpr int kMaxK = cuda::frame::kMaxRofIterationsPerLaunch;

/// The texture frames of the pair (a, b) (frame 0's then frame 1's values) with `k`
/// iterations per launch; the scratch is poisoned with NaN first (the device buffers are).
std::vector<float> texture_of(const Image& a, const Image& b, int iterations, int k, bool on_host) {
  const int w = a.width, h = a.height;
  const std::size_t n = std::size_t(w) * h;
  std::vector<float> frames(a.data);
  frames.insert(frames.end(), b.data.begin(), b.data.end());
  const auto [lo, hi] = std::minmax_element(frames.begin(), frames.end());
  const std::size_t s = cuda::frame::structure_texture_scratch_floats(w, h, k);
  test::TestBuffer<float> f(2 * n, on_host), scratch(s, on_host), mm(2, on_host);
  f.upload(frames);
  scratch.upload(std::vector<float>(s, std::numeric_limits<float>::quiet_NaN()));
  mm.upload({*lo, *hi});
  cuda::frame::structure_texture_pair(f.get(), f.get() + n, w, h, scratch.get(), mm.get(), 0.95f,
                                      0.125f, iterations, k, {nullptr, on_host});
  return f.download();
}

/// memcmp of the blocked texture against k = 1 for each k in ks; reports the first pixel that
/// differs.
void expect_blocked_equal(const Image& a, const Image& b, int iterations,
                          const std::vector<int>& ks, bool on_host) {
  const std::vector<float> ref = texture_of(a, b, iterations, 1, on_host);
  for (int k : ks) {
    const std::vector<float> got = texture_of(a, b, iterations, k, on_host);
    ASSERT_EQ(got.size(), ref.size());
    const bool same = std::memcmp(got.data(), ref.data(), ref.size() * sizeof(float)) == 0;
    std::size_t first = 0;
    while (first < ref.size() && std::memcmp(&got[first], &ref[first], sizeof(float)) == 0) ++first;
    EXPECT_TRUE(same) << a.width << "x" << a.height << ", " << iterations
                      << " iterations, k = " << k << " (" << (on_host ? "host emulation" : "GPU")
                      << "): first difference at value " << first << ": "
                      << (first < got.size() ? got[first] : 0.f) << " vs "
                      << (first < ref.size() ? ref[first] : 0.f);
  }
}

/// Random frames whose sizes are not multiples of the output tiles (and one smaller than a
/// tile); the host emulation (slow: every block computes 64 x 64 cells, and k = 31 leaves
/// 2 x 2 output pixels per block) takes fewer k.
void check_sizes(bool on_host) {
  const std::vector<int> ks100 =
      on_host ? std::vector<int>{2, 8, 16} : std::vector<int>{2, 5, 8, 16, kMaxK};
  const std::vector<int> ks37 = on_host ? std::vector<int>{5, 16} : std::vector<int>{2, 5, 8, 16};
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{97, 61}, {5, 3}}) {
    const Image a = test::random_image(w, h, 21, 10.f, 90.f), b = test::random_image(w, h, 22);
    expect_blocked_equal(a, b, 100, ks100, on_host);
    expect_blocked_equal(a, b, 37, ks37, on_host);
    expect_blocked_equal(a, b, 9, {8}, on_host);      // the last launch runs 1 iteration
    expect_blocked_equal(a, b, 8, {8, 16}, on_host);  // one launch, separate texture
  }
}

TEST(TextureBlocked, EqualsPerIterationHostEmulation) {
  check_sizes(true);
}
TEST(TextureBlocked, EqualsPerIterationGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  check_sizes(false);
  for (const char* seq : {"RubberWhale", "Grove2"}) {
    const test::MiddleburyPair p = test::load_repo_pair(seq);
    expect_blocked_equal(p.i0, p.i1, 100, {2, 4, 5, 8, 16, 25}, false);
    expect_blocked_equal(p.i0, p.i1, 37, {2, 5, 8, 16}, false);
  }
}

TEST(TextureBlocked, RejectsIterationsPerLaunchOutOfRange) {
  EXPECT_THROW(cuda::frame::structure_texture_scratch_floats(8, 8, 0), std::invalid_argument);
  EXPECT_THROW(cuda::frame::structure_texture_scratch_floats(8, 8, kMaxK + 1),
               std::invalid_argument);
  EXPECT_EQ(cuda::frame::structure_texture_scratch_floats(8, 8, 1), 6u * 64u);
  EXPECT_EQ(cuda::frame::structure_texture_scratch_floats(8, 8, 2), 10u * 64u);
}

/// The whole frame (3 scales, texture_alpha 0.95) with rof_iterations_per_launch = 8 and 1:
/// the same flow bit for bit.
void check_frame(const Image& i0, const Image& i1, bool on_host) {
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 10;
  p.texture_alpha = 0.95;
  FlowField flow[2];
  for (int j = 0; j < 2; ++j) {
    cuda::FrameOptions o;
    o.rof_iterations_per_launch = j == 0 ? 1 : 8;
    flow[j] = test::plain_frame_solver(p, on_host, o)->compute(i0, i1);
  }
  ASSERT_EQ(flow[0].u.size(), flow[1].u.size());
  EXPECT_EQ(std::memcmp(flow[0].u.data(), flow[1].u.data(), flow[0].u.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(flow[0].v.data(), flow[1].v.data(), flow[0].v.size() * sizeof(float)), 0);
}

TEST(TextureBlocked, FrameEqualsPerIterationHostEmulation) {
  check_frame(test::random_image(97, 61, 31), test::random_image(97, 61, 32), true);
}
TEST(TextureBlocked, FrameEqualsPerIterationGpu) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  const test::MiddleburyPair p = test::load_repo_pair("RubberWhale");
  check_frame(p.i0, p.i1, false);
}

}  // namespace
}  // namespace flowtune
