// Launch fusion on the frame path (kernels/cuda/frame: warp_level,
// minmax_pair_one_launch, gaussian_pair_one_launch, zoom_out_pair_one_launch;
// cuda::FrameOptions::fused_stages) and chunked
// host copies (FrameOptions::host_copy_chunks): the fused stages give the separate stages' results
// bit for bit (the same per-pixel functions of frame_pixels.cuh, the same reduction order), and so
// does the whole frame, for every CUDA scheme and every per-level scheme; the chunked host path
// gives the one-copy host path's and the device-pointer path's flow bit for bit. The host
// emulation tests run everywhere; GPU tests skip without a device.
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/png_io.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

namespace fk = cuda::frame;
using test::TestBuffer;

using Pair = test::MiddleburyPair;

/// 3 scales, 2 warpings (the later warping's path too), 10 iterations, no epsilon stopping.
Tvl1Params two_warping_params() {
  return test::frame_params(2);
}

using test::config_of;

/// Expects a and b to be the same flow bit for bit, counting the pixels that differ.
void expect_same_pixels(const FlowField& a, const FlowField& b, const std::string& what) {
  ASSERT_EQ(a.width, b.width) << what;
  ASSERT_EQ(a.height, b.height) << what;
  ASSERT_EQ(a.u.size(), b.u.size()) << what;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.u.size(); ++i)
    differ += (a.u[i] != b.u[i]) || (a.v[i] != b.v[i]);  // NaN != NaN fails too
  EXPECT_EQ(differ, 0u) << what << ": " << differ << " of " << a.u.size() << " pixels differ";
}

/// Random storage values in [lo, hi) as the bytes of f16 / f32 pairs (n pairs).
std::vector<float> random_floats(std::size_t n, unsigned seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

class FusedStage : public test::HostOrDevice {};

/// The bytes of a buffer of `n` storage units (float or half pairs) as floats to compare
/// bitwise: downloads and reinterprets.
template <class T>
std::vector<unsigned char> bytes_of(const TestBuffer<T>& b) {
  const std::vector<T> v = b.download();
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  return std::vector<unsigned char>(p, p + v.size() * sizeof(T));
}

// warp_level against packed_gradient + memsets + zoom_in_flow + warp, on random images and a
// random coarse flow of up to +-8 px (reads far outside the level, clamped), for every start
// (keep, zero, zoom_in), f32 and f16 storage, bicubic and bilinear: every output byte equal.
TEST_P(FusedStage, WarpLevelEqualsTheSeparateStages) {
  const int w = 75, h = 53, cw = 38, ch = 27;
  const std::size_t n = std::size_t(w) * h, cn = std::size_t(cw) * ch;
  const Image i0 = test::random_image(w, h, 3), i1 = test::random_image(w, h, 4);
  for (const bool f16 : {false, true}) {
    const std::size_t pair = f16 ? 4 : 8, scalar = f16 ? 2 : 4;
    // Flows in the storage: written through planar_to_flow (the frame's own conversion).
    TestBuffer<float> planar_fine(2 * n, on_host_), planar_coarse(2 * cn, on_host_);
    planar_fine.upload(random_floats(2 * n, 5, -8.f, 8.f));
    planar_coarse.upload(random_floats(2 * cn, 6, -4.f, 4.f));
    for (const auto flow :
         {fk::LevelStart::Flow::keep, fk::LevelStart::Flow::zero, fk::LevelStart::Flow::zoom_in}) {
      for (const auto interp : {WarpingInterp::bicubic, WarpingInterp::bilinear}) {
        TestBuffer<float> d_i0(n, on_host_), d_i1(n, on_host_);
        d_i0.upload(i0.data);
        d_i1.upload(i1.data);
        TestBuffer<float4> i1g(n, on_host_);
        // Separate stages (a = reference) and warp_level (b) on their own buffers.
        TestBuffer<unsigned char> coarse(cn * pair, on_host_), ua(n * pair, on_host_),
            ub(n * pair, on_host_), ga(n * pair, on_host_), gb(n * pair, on_host_),
            ra(n * scalar, on_host_), rb(n * scalar, on_host_), p1a(n * pair, on_host_),
            p1b(n * pair, on_host_), p2a(n * pair, on_host_), p2b(n * pair, on_host_);
        fk::planar_to_flow(f16, planar_coarse.get(), cn, cw, ch, 1.f, coarse.get(), exec());
        fk::planar_to_flow(f16, planar_fine.get(), n, w, h, 1.f, ua.get(), exec());
        fk::planar_to_flow(f16, planar_fine.get(), n, w, h, 1.f, ub.get(), exec());
        // p = 1 everywhere before, so that a missing zeroing shows.
        std::vector<unsigned char> ones(n * pair);
        if (f16) {
          const __half one = __float2half_rn(1.f);
          for (std::size_t i = 0; i < 2 * n; ++i) std::memcpy(&ones[i * 2], &one, 2);
        } else {
          const float one = 1.f;
          for (std::size_t i = 0; i < 2 * n; ++i) std::memcpy(&ones[i * 4], &one, 4);
        }
        for (auto* b : {&p1a, &p1b, &p2a, &p2b}) b->upload(ones);
        fk::LevelStart st;
        st.flow = flow;
        st.coarse_u = coarse.get();
        st.coarse_w = cw;
        st.coarse_h = ch;
        st.factor = 2.f;
        st.zero_p = flow != fk::LevelStart::Flow::keep;
        // a: the stages of the unfused frame.
        const std::vector<unsigned char> zeros(n * pair, 0);
        if (flow == fk::LevelStart::Flow::zero) ua.upload(zeros);
        if (flow == fk::LevelStart::Flow::zoom_in)
          fk::zoom_in_flow(f16, coarse.get(), cw, ch, ua.get(), w, h, 2.f, exec());
        if (st.zero_p) {
          p1a.upload(zeros);
          p2a.upload(zeros);
        }
        fk::packed_gradient(d_i1.get(), w, h, i1g.get(), exec());
        fk::warp(f16, d_i0.get(), i1g.get(), w, h, ua.get(), ga.get(), ra.get(), exec(), interp);
        // b: one launch.
        fk::warp_level(f16, d_i0.get(), d_i1.get(), w, h, ub.get(), gb.get(), rb.get(), p1b.get(),
                       p2b.get(), st, exec(), interp);
        const std::string what = std::string(f16 ? "f16" : "f32") + " start " +
                                 std::to_string(int(flow)) + " interp " +
                                 std::to_string(int(interp));
        EXPECT_EQ(bytes_of(ub), bytes_of(ua)) << what << ": u";
        EXPECT_EQ(bytes_of(gb), bytes_of(ga)) << what << ": grad";
        EXPECT_EQ(bytes_of(rb), bytes_of(ra)) << what << ": rho_c";
        EXPECT_EQ(bytes_of(p1b), bytes_of(p1a)) << what << ": p1";
        EXPECT_EQ(bytes_of(p2b), bytes_of(p2a)) << what << ": p2";
      }
    }
  }
}

// minmax_pair_one_launch against minmax_pair: the same two floats for sizes below one block,
// of a few blocks and beyond the 512 partials (grid-stride), called repeatedly on the same
// scratch (the last block's counter must come back to 0), negative values included; with the
// copy, the copies equal the inputs.
TEST_P(FusedStage, MinmaxOneLaunchEqualsTwoLaunches) {
  TestBuffer<float> scratch(fk::minmax_scratch_floats(), on_host_), mm2(2, on_host_),
      mm1(2, on_host_);
  scratch.upload(std::vector<float>(fk::minmax_scratch_floats(), 0.f));
  for (const std::size_t n :
       {std::size_t(1), std::size_t(1000), std::size_t(226592), std::size_t(512 * 256 * 3 + 17)}) {
    for (unsigned seed = 1; seed <= 3; ++seed) {
      TestBuffer<float> a(n, on_host_), b(n, on_host_);
      a.upload(random_floats(n, seed, -300.f, 200.f));
      b.upload(random_floats(n, seed + 10, -100.f, 400.f));
      fk::minmax_pair(a.get(), b.get(), n, scratch.get(), mm2.get(), exec());
      fk::minmax_pair_one_launch(a.get(), b.get(), n, scratch.get(), mm1.get(), exec());
      const std::vector<float> two = mm2.download(), one = mm1.download();
      EXPECT_EQ(one, two) << "n " << n << " seed " << seed;
      EXPECT_LT(two[0], two[1]);
      // With the copy (the device-pointer path's frames into the solver's buffer).
      TestBuffer<float> ca(n, on_host_), cb(n, on_host_), mmc(2, on_host_);
      fk::minmax_pair_one_launch(a.get(), b.get(), n, scratch.get(), mmc.get(), exec(), ca.get(),
                                 cb.get());
      EXPECT_EQ(mmc.download(), two) << "copying, n " << n << " seed " << seed;
      EXPECT_EQ(ca.download(), a.download()) << "n " << n;
      EXPECT_EQ(cb.download(), b.download()) << "n " << n;
    }
  }
}

// gaussian_pair_one_launch against gaussian_pair: every output float equal, with and without
// the joint normalisation, for the presmoothing and pyramid sigmas and the widest supported
// (32 taps), on planes narrower / shorter than a block and than the Gaussian's reach.
TEST_P(FusedStage, GaussianOneLaunchEqualsTwoPasses) {
  struct Case {
    int w, h;
    double sigma;
    bool normalise;
  };
  const Case cases[] = {{157, 101, 0.8, true}, {584, 388, 0.8, true}, {292, 194, 1.04, false},
                        {37, 25, 1.04, false}, {5, 4, 6.1, false},    {70, 90, 6.1, true},
                        {1, 33, 2.0, true}};
  for (const Case& c : cases) {
    const std::size_t n = std::size_t(c.w) * c.h;
    const fk::GaussTaps taps = fk::gaussian_taps(c.sigma);
    const Image a = test::random_image(c.w, c.h, 7, -50.f, 100.f),
                b = test::random_image(c.w, c.h, 8, 20.f, 300.f);
    std::vector<float> both(a.data);
    both.insert(both.end(), b.data.begin(), b.data.end());
    TestBuffer<float> in(2 * n, on_host_), tmp(2 * n, on_host_), two(2 * n, on_host_),
        one(2 * n, on_host_), scratch(fk::minmax_scratch_floats(), on_host_), mm(2, on_host_);
    in.upload(both);
    fk::minmax_pair(in.get(), in.get() + n, n, scratch.get(), mm.get(), exec());
    const float* minmax = c.normalise ? mm.get() : nullptr;
    fk::gaussian_pair(in.get(), in.get() + n, tmp.get(), tmp.get() + n, two.get(), two.get() + n,
                      c.w, c.h, taps, minmax, exec());
    fk::gaussian_pair_one_launch(in.get(), in.get() + n, one.get(), one.get() + n, c.w, c.h, taps,
                                 minmax, exec());
    const std::vector<float> x = one.download(), y = two.download();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < x.size(); ++i) differ += !(x[i] == y[i]);
    EXPECT_EQ(differ, 0u) << c.w << "x" << c.h << " sigma " << c.sigma << " normalise "
                          << c.normalise;
  }
}

// zoom_out_pair_one_launch against gaussian_pair + zoom_out_sample_pair: every output float
// equal for the default zoom 0.5, OpenCV's 0.8, an odd 0.63 and 0.3, on planes from 9 x 7 up
// to RubberWhale's size; and a zoom of 0.1 (a 30-tap Gaussian over a wide footprint) is
// declined (false) rather than run with too little shared memory.
TEST_P(FusedStage, PyramidLevelOneLaunchEqualsTwoStages) {
  struct Case {
    int w, h;
    double zoom;
  };
  const Case cases[] = {{584, 388, 0.5}, {292, 194, 0.5}, {157, 101, 0.8},
                        {120, 77, 0.63}, {9, 7, 0.5},     {200, 150, 0.3}};
  for (const Case& c : cases) {
    const int ow = std::max(1, int(c.w * c.zoom + 0.5)), oh = std::max(1, int(c.h * c.zoom + 0.5));
    const std::size_t n = std::size_t(c.w) * c.h, on = std::size_t(ow) * oh;
    const fk::GaussTaps taps = fk::gaussian_taps(0.6 * std::sqrt(1.0 / (c.zoom * c.zoom) - 1.0));
    const Image a = test::random_image(c.w, c.h, 9, 0.f, 255.f),
                b = test::random_image(c.w, c.h, 10, 0.f, 255.f);
    std::vector<float> both(a.data);
    both.insert(both.end(), b.data.begin(), b.data.end());
    TestBuffer<float> in(2 * n, on_host_), tmp(2 * n, on_host_), smooth(2 * n, on_host_),
        two(2 * on, on_host_), one(2 * on, on_host_);
    in.upload(both);
    fk::gaussian_pair(in.get(), in.get() + n, tmp.get(), tmp.get() + n, smooth.get(),
                      smooth.get() + n, c.w, c.h, taps, nullptr, exec());
    fk::zoom_out_sample_pair(smooth.get(), smooth.get() + n, c.w, c.h, two.get(), two.get() + on,
                             ow, oh, c.zoom, exec());
    ASSERT_TRUE(fk::zoom_out_pair_one_launch(in.get(), in.get() + n, c.w, c.h, one.get(),
                                             one.get() + on, ow, oh, taps, c.zoom, exec()))
        << c.w << "x" << c.h << " zoom " << c.zoom;
    const std::vector<float> x = one.download(), y = two.download();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < x.size(); ++i) differ += !(x[i] == y[i]);
    EXPECT_EQ(differ, 0u) << c.w << "x" << c.h << " zoom " << c.zoom;
  }
  TestBuffer<float> in(2 * 400 * 300, on_host_), out(2 * 40 * 30, on_host_);
  EXPECT_FALSE(fk::zoom_out_pair_one_launch(in.get(), in.get() + 400 * 300, 400, 300, out.get(),
                                            out.get() + 40 * 30, 40, 30,
                                            fk::gaussian_taps(0.6 * std::sqrt(99.0)), 0.1, exec()));
}

INSTANTIATE_TEST_SUITE_P(HostAndDevice, FusedStage, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return std::string(i.param ? "HostEmulation" : "Device");
                         });

std::unique_ptr<FlowSolver> plain_solver_with_fusion(const Tvl1Params& p,
                                                     const std::string& precision, bool on_host,
                                                     bool fused) {
  cuda::FrameOptions o;
  o.host_emulation = on_host;
  o.fused_stages = fused;
  return make_cuda_frame_solver(
      config_of("plain", precision, p),
      std::make_unique<test::PlainSchedule>(p, cuda::storage_of(precision), on_host), o);
}

// Host emulation (no GPU needed): the whole frame fused equals the unfused frame bit for bit
// on RubberWhale, f32 and f16, with 2 warpings, with a median filter between the warpings
// (the flow buffers' ping-pong), and from an initial flow (compute_from: the coarsest level
// keeps its flow instead of zeroing it).
TEST(FrameFusion, HostEmulationFusedFrameEqualsUnfused) {
  const Pair rw = test::load_repo_pair("RubberWhale");
  for (const std::string precision : {"f32", "f16"}) {
    for (const int median : {0, 3}) {
      if (median && precision == "f16") continue;  // the ping-pong once (CI time)
      Tvl1Params p = two_warping_params();
      p.median_window = median;
      const std::string what = precision + " median " + std::to_string(median);
      auto fused = plain_solver_with_fusion(p, precision, true, true);
      auto unfused = plain_solver_with_fusion(p, precision, true, false);
      const FlowField a = unfused->compute(rw.i0, rw.i1);
      const FlowField b = fused->compute(rw.i0, rw.i1);
      expect_same_pixels(b, a, what);
      if (median == 0 && precision == "f32") {
        expect_same_pixels(fused->compute_from(rw.i0, rw.i1, a),
                           unfused->compute_from(rw.i0, rw.i1, a), what + " compute_from");
      }
    }
  }
}

class FrameFusionGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

// Every registered CUDA scheme (global, shared_fusion, the pipelines, ...) in f32 and f16, and
// with shared_fusion the per-level schemes (resident, tiled, persistent levels): the fused
// frame equals the unfused one bit for bit, directly launched (first frame) and replayed from
// the CUDA Graph (second frame), on RubberWhale with 3 scales x 2 warpings x 10 iterations;
// then Grove2 (a second size in the cache).
TEST_F(FrameFusionGpu, EverySchemeFusedEqualsUnfused) {
  const Pair rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  const Tvl1Params p = two_warping_params();
  struct Levels {
    const char* name;
    int resident, tiled, persistent;
  };
  const Levels per_level[] = {
      {"scheme", 0, 0, 0}, {"resident+tiled", 4096, 65536, 0}, {"persistent", 0, 0, 65536}};
  int compared = 0;
  for (const Variant* v : all_variants()) {
    if (v->target() != "cuda" || !dynamic_cast<const FlowVariant*>(v)) continue;
    const auto precisions = v->precisions();
    for (const std::string precision : {"f32", "f16"}) {
      if (std::find(precisions.begin(), precisions.end(), precision) == precisions.end()) continue;
      const auto c = test::first_valid_config(*v, precision, p);
      ASSERT_TRUE(c) << v->name() << " " << precision;
      for (const Levels& l : per_level) {
        // The per-level schemes take the same fields as the schemes: checked once, on the
        // default frame's scheme (device time).
        if ((l.resident || l.tiled || l.persistent) && v->name() != "shared_fusion") continue;
        auto make = [&](bool fused) {
          cuda::FrameOptions o;
          o.fused_stages = fused;
          o.resident_max_pixels = l.resident;
          o.tiled_max_pixels = l.tiled;
          o.persistent_max_pixels = l.persistent;
          return make_cuda_frame_solver(*c, cuda::make_iteration_schedule(*c), o);
        };
        auto fused = make(true), unfused = make(false);
        const std::string what = c->label() + " levels " + l.name;
        const FlowField a1 = unfused->compute(rw.i0, rw.i1), a2 = unfused->compute(rw.i0, rw.i1);
        const FlowField b1 = fused->compute(rw.i0, rw.i1), b2 = fused->compute(rw.i0, rw.i1);
        expect_same_pixels(b1, a1, what + " direct");
        expect_same_pixels(b2, a2, what + " graph");
        expect_same_pixels(a2, a1, what + " unfused graph vs direct");
        expect_same_pixels(fused->compute(g2.i0, g2.i1), unfused->compute(g2.i0, g2.i1),
                           what + " Grove2");
        ++compared;
      }
    }
  }
  std::printf("fused vs unfused: %d scheme x precision x level configs bit for bit\n", compared);
  EXPECT_GE(compared, 4);
}

// The host API with chunked host copies (1, 3, 8 and 64 chunks) gives the flow of the
// device-pointer API bit for bit, frame after frame, alternating two sizes; and the unfused
// frame's too.
TEST_F(FrameFusionGpu, ChunkedHostCopiesEqualTheDevicePath) {
  const Pair rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  Tvl1Params p = two_warping_params();
  p.n_warpings = 1;
  Config c = config_of("shared_fusion", "f16", p);
  c.tunables = {{"block_x", 32},
                {"block_y", 8},
                {"resident_px", 1024},
                {"tiled_px", 65536},
                {"persistent_px", 0}};  // bench_frame_throughput's
  const auto* v = find_variant(c.variant);
  ASSERT_TRUE(v);
  ASSERT_FALSE(v->invalid_reason(c)) << *v->invalid_reason(c);
  auto device_flow = [&](FlowSolver& s, const Pair& f) {
    const std::size_t n = f.i0.size();
    float *d_in = nullptr, *d_flow = nullptr;
    test::cuda_ok(cudaMalloc(reinterpret_cast<void**>(&d_in), 2 * n * sizeof(float)), "cudaMalloc");
    test::cuda_ok(cudaMalloc(reinterpret_cast<void**>(&d_flow), 2 * n * sizeof(float)),
                  "cudaMalloc");
    test::cuda_ok(cudaMemcpy(d_in, f.i0.data.data(), n * sizeof(float), cudaMemcpyHostToDevice),
                  "upload");
    test::cuda_ok(cudaMemcpy(d_in + n, f.i1.data.data(), n * sizeof(float), cudaMemcpyHostToDevice),
                  "upload");
    cuda::compute_flow_device(s, d_in, d_in + n, f.i0.width, f.i0.height, d_flow, nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "frame");
    FlowField out;
    out.width = f.i0.width;
    out.height = f.i0.height;
    out.u.resize(n);
    out.v.resize(n);
    test::cuda_ok(cudaMemcpy(out.u.data(), d_flow, n * sizeof(float), cudaMemcpyDeviceToHost),
                  "download");
    test::cuda_ok(cudaMemcpy(out.v.data(), d_flow + n, n * sizeof(float), cudaMemcpyDeviceToHost),
                  "download");
    cudaFree(d_in);
    cudaFree(d_flow);
    return out;
  };
  cuda::FrameOptions ref_o;
  ref_o.host_copy_chunks = 1;
  ref_o.fused_stages = false;
  auto ref_solver = make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), ref_o);
  const FlowField ref_rw = device_flow(*ref_solver, rw), ref_g2 = device_flow(*ref_solver, g2);
  for (const int chunks : {1, 3, 8, 64}) {
    cuda::FrameOptions o;
    o.host_copy_chunks = chunks;
    auto s = make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), o);
    FlowField f;  // compute_into reuses it across sizes
    for (const char* name : {"RubberWhale", "RubberWhale", "Grove2", "RubberWhale", "Grove2"}) {
      const bool is_rw = std::string(name) == "RubberWhale";
      s->compute_into(is_rw ? rw.i0 : g2.i0, is_rw ? rw.i1 : g2.i1, f);
      expect_same_pixels(f, is_rw ? ref_rw : ref_g2,
                         std::string(name) + " chunks " + std::to_string(chunks));
    }
    expect_same_pixels(device_flow(*s, rw), ref_rw,
                       "device path, chunks " + std::to_string(chunks));
  }
}

}  // namespace
}  // namespace flowtune
