// Each GPU frame stage (kernels/cuda/frame) against the double CPU implementation of
// kernels/image_ops.hpp / reference_tvl1.hpp on random input, on the device (skipped without
// one) and in host emulation (same per-pixel code in host loops; runs everywhere).
// Outputs are poisoned with NaN first; a NaN anywhere fails the bound.
// Bounds are a few times the float rounding of each stage's arithmetic on values <= 255
// (ulp(255) / 2 = 7.6e-6, sums of <= 20 terms with weights whose absolute sum is <= 1.6 per
// axis); an indexing or boundary error gives errors of O(1..100) on random data.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/reference_tvl1.hpp"
#include "tests/cuda/test_frame_support.hpp"

namespace flowtune {
namespace {

namespace fk = cuda::frame;
using test::TestBuffer;

/// max |a - b|, +inf when a has a non-finite value.
double max_abs_diff(const std::vector<float>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (!std::isfinite(a[i])) return std::numeric_limits<double>::infinity();
    m = std::max(m, std::abs(double(a[i]) - b[i]));
  }
  return m;
}

class FrameStage : public test::HostOrDevice {};

// Joint normalisation + presmoothing (sigma 0.8): vs normalize_pair + gaussian_smooth<double>.
// Bound 1e-3: normalisation (2 roundings) plus 2 x 9-tap float sums on values <= 255.
TEST_P(FrameStage, NormalisedPresmoothingMatchesDouble) {
  const int w = 157, h = 101;
  const std::size_t n = std::size_t(w) * h;
  const Image a = test::random_image(w, h, 1, 10.f, 100.f),
              b = test::random_image(w, h, 2, 20.f, 200.f);
  TestBuffer<float> raw(2 * n, on_host_), tmp(2 * n, on_host_), out(2 * n, on_host_),
      scratch(fk::minmax_scratch_floats(), on_host_), minmax(2, on_host_);
  std::vector<float> both(a.data);
  both.insert(both.end(), b.data.begin(), b.data.end());
  raw.upload(both);
  fk::minmax_pair(raw.get(), raw.get() + n, n, scratch.get(), minmax.get(), exec());
  fk::gaussian_pair(raw.get(), raw.get() + n, tmp.get(), tmp.get() + n, out.get(), out.get() + n, w,
                    h, fk::gaussian_taps(0.8), minmax.get(), exec());
  const std::vector<float> got = out.download();
  const std::vector<float> mm = minmax.download();

  Plane<double> ra = plane_cast<double>(a), rb = plane_cast<double>(b);
  normalize_pair(ra, rb);
  std::vector<double> want = gaussian_smooth(ra, 0.8).data;
  const auto sb = gaussian_smooth(rb, 0.8).data;
  want.insert(want.end(), sb.begin(), sb.end());
  EXPECT_LT(max_abs_diff(got, want), 1e-3);
  EXPECT_GE(mm[0], 10.f);
  EXPECT_LT(mm[1], 200.f);
}

// One pyramid level (zoom_out, zoom 0.5: Gaussian sigma 1.04, then bicubic at 2x) on odd
// sizes vs zoom_out<double>. Bound 2e-3: the Gaussian's 1e-3 times the bicubic weights'
// absolute sum (1.56) plus the 16-tap bicubic's rounding.
TEST_P(FrameStage, PyramidLevelMatchesZoomOut) {
  const int w = 157, h = 101;
  const double zoom = 0.5;
  const int ow = zoom_size(w, zoom), oh = zoom_size(h, zoom);
  const std::size_t n = std::size_t(w) * h, on = std::size_t(ow) * oh;
  const Image a = test::random_image(w, h, 3), b = test::random_image(w, h, 4);
  TestBuffer<float> in(2 * n, on_host_), tmp(2 * n, on_host_), smooth(2 * n, on_host_),
      out(2 * on, on_host_);
  std::vector<float> both(a.data);
  both.insert(both.end(), b.data.begin(), b.data.end());
  in.upload(both);
  fk::gaussian_pair(in.get(), in.get() + n, tmp.get(), tmp.get() + n, smooth.get(),
                    smooth.get() + n, w, h,
                    fk::gaussian_taps(0.6 * std::sqrt(1 / (zoom * zoom) - 1)), nullptr, exec());
  fk::zoom_out_sample_pair(smooth.get(), smooth.get() + n, w, h, out.get(), out.get() + on, ow, oh,
                           zoom, exec());
  const std::vector<float> got = out.download();
  std::vector<double> want = zoom_out(plane_cast<double>(a), zoom).data;
  const auto zb = zoom_out(plane_cast<double>(b), zoom).data;
  want.insert(want.end(), zb.begin(), zb.end());
  EXPECT_LT(max_abs_diff(got, want), 2e-3);
}

// Centred gradient (packed with the value) vs centered_gradient<double>. Bound 1e-4: one
// float subtraction of values <= 255 (error <= 7.6e-6), the halving is exact.
TEST_P(FrameStage, GradientMatchesCentredGradient) {
  const int w = 131, h = 77;
  const std::size_t n = std::size_t(w) * h;
  const Image a = test::random_image(w, h, 5);
  TestBuffer<float> in(n, on_host_);
  TestBuffer<float4> out(n, on_host_);
  in.upload(a.data);
  fk::packed_gradient(in.get(), w, h, out.get(), exec());
  const std::vector<float4> got = out.download();
  Plane<double> gx, gy;
  centered_gradient(plane_cast<double>(a), gx, gy);
  std::vector<float> g0(n), g1(n), g2(n);
  for (std::size_t i = 0; i < n; ++i) {
    g0[i] = got[i].x;
    g1[i] = got[i].y;
    g2[i] = got[i].z;
  }
  EXPECT_EQ(max_abs_diff(g0, std::vector<double>(a.data.begin(), a.data.end())), 0.0);
  EXPECT_LT(max_abs_diff(g1, gx.data), 1e-4);
  EXPECT_LT(max_abs_diff(g2, gy.data), 1e-4);
}

struct WarpCase {
  Image i0, i1;
  Plane<double> gx, gy;
  Tvl1State<double> state;
  std::vector<float4> packed;
  std::vector<float> u0;  // interleaved
};

// Random frames; u0 in [-6, 6] on a 1/256 grid, so that x + u0 is exact in float and u0 is
// exact in half: the comparison then measures the interpolation, not the position rounding.
// Displacements reach beyond the borders (clamp-to-edge).
WarpCase warp_case(int w, int h) {
  WarpCase c;
  c.i0 = test::random_image(w, h, 6);
  c.i1 = test::random_image(w, h, 7);
  centered_gradient(plane_cast<double>(c.i1), c.gx, c.gy);
  c.state = Tvl1State<double>(w, h);
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> d(-6 * 256, 6 * 256);
  c.u0.resize(2 * std::size_t(w) * h);
  c.packed.resize(std::size_t(w) * h);
  for (std::size_t i = 0; i < c.packed.size(); ++i) {
    c.state.u1[i] = d(rng) / 256.0;
    c.state.u2[i] = d(rng) / 256.0;
    c.u0[2 * i] = float(c.state.u1[i]);
    c.u0[2 * i + 1] = float(c.state.u2[i]);
    c.packed[i] = make_float4(c.i1.data[i], float(c.gx.data[i]), float(c.gy.data[i]), 0.f);
  }
  return c;
}

// Bicubic warping in f32 vs prepare_warping<double>. Bounds: grad 1e-3 (16-tap bicubic of
// values <= 128), rho_c 5e-3 (grad . u0 reaches ~1200: its rounding and the grad error x 6).
TEST_P(FrameStage, WarpingMatchesPrepareWarping) {
  const int w = 97, h = 61;
  const std::size_t n = std::size_t(w) * h;
  const WarpCase c = warp_case(w, h);
  TestBuffer<float> i0(n, on_host_), u(2 * n, on_host_), grad(2 * n, on_host_), rho(n, on_host_);
  TestBuffer<float4> i1g(n, on_host_);
  i0.upload(c.i0.data);
  i1g.upload(c.packed);
  u.upload(c.u0);
  fk::warp(false, i0.get(), i1g.get(), w, h, u.get(), grad.get(), rho.get(), exec());
  const std::vector<float> g = grad.download(), r = rho.download();
  const WarpingData<double> want =
      prepare_warping(plane_cast<double>(c.i0), plane_cast<double>(c.i1), c.gx, c.gy, c.state);
  std::vector<float> gxs(n), gys(n);
  for (std::size_t i = 0; i < n; ++i) {
    gxs[i] = g[2 * i];
    gys[i] = g[2 * i + 1];
  }
  EXPECT_LT(max_abs_diff(gxs, want.grad_x), 1e-3);
  EXPECT_LT(max_abs_diff(gys, want.grad_y), 1e-3);
  EXPECT_LT(max_abs_diff(r, want.rho_c), 5e-3);
}

// Bilinear warping (warping_interp = bilinear, kernels/bilinear.hpp) in f32 vs
// prepare_warping<double>(..., bilinear): the same per-sample code, float vs double. Bounds as
// the bicubic's (4 taps instead of 16, so smaller in fact); the two interpolations differ by
// O(1) on this random data, so a kernel that ignored the choice fails.
TEST_P(FrameStage, BilinearWarpingMatchesPrepareWarping) {
  const int w = 97, h = 61;
  const std::size_t n = std::size_t(w) * h;
  const WarpCase c = warp_case(w, h);
  TestBuffer<float> i0(n, on_host_), u(2 * n, on_host_), grad(2 * n, on_host_), rho(n, on_host_);
  TestBuffer<float4> i1g(n, on_host_);
  i0.upload(c.i0.data);
  i1g.upload(c.packed);
  u.upload(c.u0);
  fk::warp(false, i0.get(), i1g.get(), w, h, u.get(), grad.get(), rho.get(), exec(),
           WarpingInterp::bilinear);
  const std::vector<float> g = grad.download(), r = rho.download();
  const auto i0d = plane_cast<double>(c.i0), i1d = plane_cast<double>(c.i1);
  const WarpingData<double> want =
      prepare_warping(i0d, i1d, c.gx, c.gy, c.state, WarpingInterp::bilinear);
  const WarpingData<double> cubic = prepare_warping(i0d, i1d, c.gx, c.gy, c.state);
  std::vector<float> gxs(n), gys(n);
  for (std::size_t i = 0; i < n; ++i) {
    gxs[i] = g[2 * i];
    gys[i] = g[2 * i + 1];
  }
  EXPECT_LT(max_abs_diff(gxs, want.grad_x), 1e-3);
  EXPECT_LT(max_abs_diff(gys, want.grad_y), 1e-3);
  EXPECT_LT(max_abs_diff(r, want.rho_c), 5e-3);
  EXPECT_GT(max_abs_diff(r, cubic.rho_c), 0.1);
}

// The same in f16 storage: the float results rounded to half, so the bound is the half
// rounding 2^-11 |ref| (+ the f32 bound): |err| <= 6e-4 |ref| + 5e-3.
TEST_P(FrameStage, WarpingF16IsRoundedF32) {
  const int w = 97, h = 61;
  const std::size_t n = std::size_t(w) * h;
  const WarpCase c = warp_case(w, h);
  std::vector<__half2> u0h(n);
  for (std::size_t i = 0; i < n; ++i) {
    u0h[i].x = __float2half_rn(c.u0[2 * i]);
    u0h[i].y = __float2half_rn(c.u0[2 * i + 1]);
  }
  TestBuffer<float> i0(n, on_host_);
  TestBuffer<float4> i1g(n, on_host_);
  TestBuffer<__half2> u(n, on_host_), grad(n, on_host_);
  TestBuffer<__half> rho(n, on_host_);
  i0.upload(c.i0.data);
  i1g.upload(c.packed);
  u.upload(u0h);
  fk::warp(true, i0.get(), i1g.get(), w, h, u.get(), grad.get(), rho.get(), exec());
  const std::vector<__half2> g = grad.download();
  const std::vector<__half> r = rho.download();
  const WarpingData<double> want =
      prepare_warping(plane_cast<double>(c.i0), plane_cast<double>(c.i1), c.gx, c.gy, c.state);
  int bad = 0;
  auto ok = [](float got, double ref) {
    return std::isfinite(got) && std::abs(got - ref) <= 6e-4 * std::abs(ref) + 5e-3;
  };
  for (std::size_t i = 0; i < n; ++i) {
    bad += !ok(__half2float(g[i].x), want.grad_x[i]);
    bad += !ok(__half2float(g[i].y), want.grad_y[i]);
    bad += !ok(__half2float(r[i]), want.rho_c[i]);
  }
  EXPECT_EQ(bad, 0);
}

// Flow up-sampling 79x51 -> 157x101 (a non-integer ratio) times 2 vs zoom_in<double>. Bound
// 2e-3: the float position x * sx is off by <= 1.5e-5 px and the interpolant of flow values
// in [-5, 5] has slope <= ~25 px/px, times the factor 2.
TEST_P(FrameStage, FlowZoomInMatchesZoomIn) {
  const int w = 79, h = 51, ow = 157, oh = 101;
  const std::size_t n = std::size_t(w) * h, on = std::size_t(ow) * oh;
  const Image fu = test::random_image(w, h, 9, -5.f, 5.f),
              fv = test::random_image(w, h, 10, -5.f, 5.f);
  std::vector<float> inter(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    inter[2 * i] = fu.data[i];
    inter[2 * i + 1] = fv.data[i];
  }
  TestBuffer<float> in(2 * n, on_host_), out(2 * on, on_host_), planar(2 * on, on_host_);
  in.upload(inter);
  fk::zoom_in_flow(false, in.get(), w, h, out.get(), ow, oh, 2.f, exec());
  fk::flow_to_planar(false, out.get(), ow, oh, planar.get(), exec());
  const std::vector<float> got = planar.download();
  std::vector<double> want = zoom_in(plane_cast<double>(fu), ow, oh, 2.0).data;
  const auto wv = zoom_in(plane_cast<double>(fv), ow, oh, 2.0).data;
  want.insert(want.end(), wv.begin(), wv.end());
  EXPECT_LT(max_abs_diff(got, want), 2e-3);
}

INSTANTIATE_TEST_SUITE_P(HostAndDevice, FrameStage, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return std::string(i.param ? "HostEmulation" : "Device");
                         });

}  // namespace
}  // namespace flowtune
