// The schedule of the one-launch pyramid level (kernels/cuda/frame's ZoomSchedule: output tile
// and threads per block of zoom_out_pair_one_launch; cuda::FrameOptions::pyramid_schedule) is
// a schedule only: every output float of every schedule equals, byte for byte (memcmp), that
// of the 32 x 8 tiles with 256 threads and that of the two separate stages
// (gaussian_pair, zoom_out_sample_pair), on RubberWhale's and Grove2's frames, the sizes of
// their second pyramid level and odd sizes, at the frame's zooms 0.5 (default) and 0.8
// (OpenCV's accuracy); and the whole frame's flow does not depend on it. The host emulation
// runs the kernel's phases block by block with the schedule's tiles (everywhere); the device
// tests skip without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/image_ops.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

namespace fk = cuda::frame;
using test::TestBuffer;

std::string name_of(const fk::ZoomSchedule& s) {
  return std::to_string(s.tile_x) + "x" + std::to_string(s.tile_y) + "/" +
         std::to_string(s.threads);
}

/// The schedules compared: the default, the 32 x 8 one, those bench_zoom_schedule measures, and odd
/// ones (a tile that is no power of two with fewer threads than outputs, more threads than outputs,
/// a single output per block).
std::vector<fk::ZoomSchedule> schedules(bool on_host) {
  std::vector<fk::ZoomSchedule> s = {fk::kZoomScheduleDefault, {13, 5, 32}, {8, 2, 64}};
  if (on_host) return s;  // CI time: the host emulation runs each block in turn
  const std::vector<fk::ZoomSchedule> more = {
      {32, 8, 512},  {32, 8, 1024}, {32, 4, 256}, {16, 8, 512}, {16, 8, 256},
      {16, 16, 256}, {16, 4, 128},  {8, 8, 128},  {8, 8, 256},  {1, 1, 32}};
  s.insert(s.end(), more.begin(), more.end());
  return s;
}

class FusedStageZoomSchedule : public test::HostOrDevice {};

/// Byte-wise equality of two float planes; the count of differing floats otherwise.
std::size_t differing(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  if (std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0) return 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
  return n;
}

// Every schedule against the 32 x 8 schedule and against the two stages, byte for byte, on
// both planes of each level; the inputs are RubberWhale's and Grove2's frames 10 and 11 at
// their own sizes, random planes at the second pyramid level's sizes (292 x 194, 320 x 240)
// and at odd sizes (97 x 61, 9 x 7).
TEST_P(FusedStageZoomSchedule, EveryScheduleEquals32x8AndTwoStages) {
  struct Case {
    std::string name;
    Image a, b;
  };
  std::vector<Case> cases;
  for (const char* seq : {"RubberWhale", "Grove2"}) {
    const test::MiddleburyPair p = test::load_repo_pair(seq);
    cases.push_back({seq, p.i0, p.i1});
  }
  const int sizes[][2] = {{292, 194}, {320, 240}, {97, 61}, {9, 7}};
  unsigned seed = 21;
  for (const auto& s : sizes)
    cases.push_back({std::to_string(s[0]) + "x" + std::to_string(s[1]),
                     test::random_image(s[0], s[1], seed++),
                     test::random_image(s[0], s[1], seed++)});
  int compared = 0;
  for (const Case& c : cases) {
    const int w = c.a.width, h = c.a.height;
    const std::size_t n = std::size_t(w) * h;
    std::vector<float> both(c.a.data);
    both.insert(both.end(), c.b.data.begin(), c.b.data.end());
    TestBuffer<float> in(2 * n, on_host_), tmp(2 * n, on_host_), smooth(2 * n, on_host_);
    in.upload(both);
    for (const double zoom : {0.5, 0.8}) {
      const int ow = zoom_size(w, zoom), oh = zoom_size(h, zoom);
      const std::size_t on = std::size_t(ow) * oh;
      const std::string what = c.name + " zoom " + std::to_string(zoom);
      const fk::GaussTaps taps = fk::gaussian_taps(0.6 * std::sqrt(1.0 / (zoom * zoom) - 1.0));
      TestBuffer<float> two(2 * on, on_host_), old(2 * on, on_host_);
      fk::gaussian_pair(in.get(), in.get() + n, tmp.get(), tmp.get() + n, smooth.get(),
                        smooth.get() + n, w, h, taps, nullptr, exec());
      fk::zoom_out_sample_pair(smooth.get(), smooth.get() + n, w, h, two.get(), two.get() + on, ow,
                               oh, zoom, exec());
      ASSERT_TRUE(fk::zoom_out_pair_one_launch(in.get(), in.get() + n, w, h, old.get(),
                                               old.get() + on, ow, oh, taps, zoom, exec(),
                                               fk::kZoomSchedule32x8))
          << what;
      const std::vector<float> reference = two.download(), tiles32x8 = old.download();
      ASSERT_EQ(differing(tiles32x8, reference), 0u) << what << ": 32 x 8 vs two stages";
      for (const fk::ZoomSchedule& s : schedules(on_host_)) {
        TestBuffer<float> one(2 * on, on_host_);
        ASSERT_TRUE(fk::zoom_out_pair_one_launch(in.get(), in.get() + n, w, h, one.get(),
                                                 one.get() + on, ow, oh, taps, zoom, exec(), s))
            << what << " schedule " << name_of(s);
        const std::vector<float> x = one.download();
        EXPECT_EQ(differing(x, tiles32x8), 0u)
            << what << " schedule " << name_of(s) << " vs 32x8/256";
        EXPECT_EQ(differing(x, reference), 0u)
            << what << " schedule " << name_of(s) << " vs the two stages";
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, int(cases.size()) * 2 * int(schedules(on_host_).size()));
}

// A schedule that is not one is refused with an error naming the field, before anything runs.
TEST_P(FusedStageZoomSchedule, RejectsInvalidSchedules) {
  const fk::ZoomSchedule bad[] = {{0, 8, 256}, {16, 0, 256},  {16, 8, 48},
                                  {16, 8, 0},  {16, 8, 2048}, {1024, 1024, 256}};
  TestBuffer<float> in(2 * 64 * 48, on_host_), out(2 * 32 * 24, on_host_);
  for (const fk::ZoomSchedule& s : bad) {
    EXPECT_THROW(fk::check_zoom_schedule(s), std::invalid_argument) << name_of(s);
    EXPECT_THROW(fk::zoom_out_pair_one_launch(in.get(), in.get() + 64 * 48, 64, 48, out.get(),
                                              out.get() + 32 * 24, 32, 24, fk::gaussian_taps(1.0),
                                              0.5, exec(), s),
                 std::invalid_argument)
        << name_of(s);
  }
  try {
    fk::check_zoom_schedule({16, 8, 100});
    ADD_FAILURE() << "threads 100 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("threads 100"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(fk::check_zoom_schedule(fk::kZoomScheduleDefault));
  EXPECT_NO_THROW(fk::check_zoom_schedule(fk::kZoomSchedule32x8));
}

// The launch of RubberWhale's first level (584 x 388 -> 292 x 194, zoom 0.5: Gaussian radius
// (int)(5 x 0.6 sqrt 3) + 1 = 6, so 10 rows of vertical reach), by hand. 16 x 16 tiles (the
// default): 19 x 13 tiles; an inner tile's outputs x in [16, 31] sample x / 0.5 in [32, 62],
// whose bicubic cells read texels 31 .. 64 (34 columns; the first tile 33, the last 9), and as
// many rows: (34 + 10) x 34 row-pass floats + 34 x 34 smoothed floats = 2652 floats. 16 x 8:
// rows y in [8, 15] read 15 .. 32 (18 rows): (18 + 10) x 34 + 18 x 34 = 1564 floats. The
// 32 x 8 one: 10 x 25 tiles, 66 columns: (18 + 10) x 66 + 18 x 66 = 3036 floats.
TEST(FusedStageZoomScheduleLaunch, RubberWhalesFirstLevelByHand) {
  const fk::GaussTaps taps = fk::gaussian_taps(0.6 * std::sqrt(3.0));
  ASSERT_EQ(taps.radius, 6);
  const fk::ZoomLaunch now =
      fk::zoom_out_launch(584, 388, 292, 194, taps, 0.5, fk::ZoomSchedule{16, 16, 512}, false);
  EXPECT_EQ(now.grid_x, 19);
  EXPECT_EQ(now.grid_y, 13);
  EXPECT_EQ(now.smem_bytes, 2652 * sizeof(float));
  EXPECT_EQ(now.blocks_per_sm, 0);  // not queried
  const fk::ZoomLaunch half =
      fk::zoom_out_launch(584, 388, 292, 194, taps, 0.5, fk::ZoomSchedule{16, 8, 256}, false);
  EXPECT_EQ(half.grid_x, 19);
  EXPECT_EQ(half.grid_y, 25);
  EXPECT_EQ(half.smem_bytes, 1564 * sizeof(float));
  const fk::ZoomLaunch old =
      fk::zoom_out_launch(584, 388, 292, 194, taps, 0.5, fk::kZoomSchedule32x8, false);
  EXPECT_EQ(old.grid_x, 10);
  EXPECT_EQ(old.grid_y, 25);
  EXPECT_EQ(old.smem_bytes, 3036 * sizeof(float));
  EXPECT_EQ(
      fk::zoom_out_launch(584, 388, 0, 194, taps, 0.5, fk::kZoomScheduleDefault, false).grid_x, 0);
  EXPECT_THROW(fk::zoom_out_launch(584, 388, 292, 194, taps, 0.5, {16, 8, 31}, false),
               std::invalid_argument);
}

using test::config_of;

// The whole default frame (3 scales x 1 warping x 10 iterations) on RubberWhale and Grove2 with
// the default pyramid schedule equals the frame with the 32 x 8 one byte for byte: in host
// emulation with the tests' plain schedule (f32), on the device with bench_frame_throughput's
// shared_fusion f16 config, directly launched and replayed from the CUDA Graph. A solver with
// an invalid schedule is refused when it is made.
TEST_P(FusedStageZoomSchedule, FrameFlowDoesNotDependOnTheSchedule) {
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 10;
  p.epsilon = 0;
  auto make = [&](const fk::ZoomSchedule& s) -> std::unique_ptr<FlowSolver> {
    cuda::FrameOptions o;
    o.host_emulation = on_host_;
    o.pyramid_schedule = s;
    if (on_host_)
      return make_cuda_frame_solver(
          config_of("plain", "f32", p),
          std::make_unique<test::PlainSchedule>(p, cuda::Storage::f32, true), o);
    Config c = config_of("shared_fusion", "f16", p);
    c.tunables = {{"block_x", 32},
                  {"block_y", 8},
                  {"resident_px", 1024},
                  {"tiled_px", 65536},
                  {"persistent_px", 0}};
    return make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), o);
  };
  auto now = make(fk::kZoomScheduleDefault), before = make(fk::kZoomSchedule32x8);
  for (const char* seq : {"RubberWhale", "Grove2"}) {
    const test::MiddleburyPair f = test::load_repo_pair(seq);
    for (int frame = 0; frame < (on_host_ ? 1 : 2); ++frame) {  // device: direct, then graph
      const FlowField a = now->compute(f.i0, f.i1), b = before->compute(f.i0, f.i1);
      ASSERT_EQ(a.u.size(), b.u.size()) << seq;
      EXPECT_EQ(differing(a.u, b.u), 0u) << seq << " frame " << frame << " u";
      EXPECT_EQ(differing(a.v, b.v), 0u) << seq << " frame " << frame << " v";
    }
  }
  EXPECT_THROW(make({16, 8, 33}), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(HostAndDevice, FusedStageZoomSchedule, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return std::string(i.param ? "HostEmulation" : "Device");
                         });

}  // namespace
}  // namespace flowtune
