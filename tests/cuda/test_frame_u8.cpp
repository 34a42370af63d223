// The 8-bit host API of the frame solver (cuda::compute_flow_u8): the flow of two 8-bit frames
// equals, bit for bit, compute_into's on float Images holding the same integer values (the
// oracle: the float host API), packed and with a row stride, chunked and in one copy, on the
// direct frame and the size's CUDA Graph, alternating sizes. The host-emulation tests run
// everywhere; GPU tests skip without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

std::unique_ptr<FlowSolver> plain_solver(bool on_host, cuda::Storage storage, int chunks = 8) {
  Config c;
  c.variant = "plain";
  c.precision = storage == cuda::Storage::f16 ? "f16" : "f32";
  c.params = param_values_of(test::frame_params());
  cuda::FrameOptions o;
  o.host_emulation = on_host;
  o.host_copy_chunks = chunks;
  return make_cuda_frame_solver(
      c, std::make_unique<test::PlainSchedule>(test::frame_params(), storage, on_host), o);
}

/// A Middlebury pair rounded to 8 bits, as bytes (rows `stride` bytes apart, the padding
/// filled with 255 so that reading it would change the flow) and as float Images of the same
/// integer values.
struct BytePair {
  int width = 0, height = 0;
  std::ptrdiff_t stride = 0;
  std::vector<std::uint8_t> b0, b1;
  Image i0, i1;
};

BytePair byte_pair(const std::string& name, int padding) {
  const test::MiddleburyPair p = test::load_repo_pair(name);
  BytePair out;
  out.width = p.i0.width;
  out.height = p.i0.height;
  out.stride = out.width + padding;
  const std::size_t rows = std::size_t(out.height), stride = std::size_t(out.stride);
  out.b0.assign(rows * stride, 255);
  out.b1.assign(rows * stride, 255);
  out.i0 = p.i0;
  out.i1 = p.i1;
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(out.width) + std::size_t(x);
      const std::size_t j = std::size_t(y) * stride + std::size_t(x);
      out.b0[j] = std::uint8_t(std::lround(p.i0.data[i]));
      out.b1[j] = std::uint8_t(std::lround(p.i1.data[i]));
      out.i0.data[i] = float(out.b0[j]);
      out.i1.data[i] = float(out.b1[j]);
    }
  return out;
}

using test::expect_same_flow;

/// The largest |u| + |v| of a flow: the frames move, so a flow of zeros would be a bug.
float largest(const FlowField& f) {
  float m = 0;
  for (std::size_t i = 0; i < f.u.size(); ++i)
    m = std::fmax(m, std::fabs(f.u[i]) + std::fabs(f.v[i]));
  return m;
}

// Host emulation (no GPU): packed and strided bytes give the float path's flow bit for bit.
TEST(FrameU8, HostEmulationEqualsFloatFramesOfTheSameValues) {
  for (int padding : {0, 13}) {
    const BytePair p = byte_pair("RubberWhale", padding);
    const FlowField want = plain_solver(true, cuda::Storage::f32)->compute(p.i0, p.i1);
    ASSERT_GT(largest(want), 0.5f);
    auto solver = plain_solver(true, cuda::Storage::f32);
    FlowField flow;
    cuda::compute_flow_u8(*solver, p.b0.data(), p.b1.data(), p.width, p.height, p.stride, flow);
    expect_same_flow(flow, want, "padding " + std::to_string(padding));
  }
}

TEST(FrameU8, RejectsBadArguments) {
  auto solver = plain_solver(true, cuda::Storage::f32);
  const std::vector<std::uint8_t> px(64, 0);
  FlowField flow;
  EXPECT_THROW(cuda::compute_flow_u8(*solver, nullptr, px.data(), 8, 8, 8, flow),
               std::invalid_argument);
  EXPECT_THROW(cuda::compute_flow_u8(*solver, px.data(), px.data(), 0, 8, 8, flow),
               std::invalid_argument);
  EXPECT_THROW(cuda::compute_flow_u8(*solver, px.data(), px.data(), 8, 8, 7, flow),
               std::invalid_argument);
}

class FrameU8Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

// On the device, f32 and f16 storage, chunked (8), one copy (1) and unstaged (0): every frame of a
// sequence alternating sizes (the first at a size direct, then the size's graph) equals the float
// host API's on the same solver kind, bit for bit; the sizes' graphs are built once each.
TEST_F(FrameU8Gpu, EqualsFloatFramesOfTheSameValues) {
  const BytePair rw = byte_pair("RubberWhale", 0), g2 = byte_pair("Grove2", 5);
  for (const cuda::Storage storage : {cuda::Storage::f32, cuda::Storage::f16})
    for (int chunks : {8, 1, 0}) {
      const std::string label = std::string(storage == cuda::Storage::f16 ? "f16" : "f32") +
                                " chunks " + std::to_string(chunks);
      const FlowField want_rw = plain_solver(false, storage, chunks)->compute(rw.i0, rw.i1);
      const FlowField want_g2 = plain_solver(false, storage, chunks)->compute(g2.i0, g2.i1);
      ASSERT_GT(largest(want_rw), 0.5f) << label;
      auto solver = plain_solver(false, storage, chunks);
      FlowField flow;
      for (const BytePair* p : {&rw, &rw, &g2, &g2, &rw, &g2, &rw}) {
        cuda::compute_flow_u8(*solver, p->b0.data(), p->b1.data(), p->width, p->height, p->stride,
                              flow);
        expect_same_flow(flow, p == &rw ? want_rw : want_g2,
                         label + " " + std::to_string(p->width));
      }
      const auto st = cuda::frame_cache_stats(*solver);
      EXPECT_EQ(st.buffer_allocations, 2) << label;
      EXPECT_EQ(st.graph_builds, 2) << label;
    }
}

// Page-locked strided bytes and flow (FlowSolver::page_lock: uploaded row span by row span
// and downloaded by DMA, no pinned staging) give the float host API's flow bit for bit.
TEST_F(FrameU8Gpu, PageLockedBytesEqualFloatFramesOfTheSameValues) {
  const BytePair p = byte_pair("Grove2", 7);
  const FlowField want = plain_solver(false, cuda::Storage::f32)->compute(p.i0, p.i1);
  auto solver = plain_solver(false, cuda::Storage::f32);
  FlowField flow;
  cuda::compute_flow_u8(*solver, p.b0.data(), p.b1.data(), p.width, p.height, p.stride, flow);
  const std::size_t n = flow.u.size(), span = std::size_t(p.height - 1) * p.stride + p.width;
  const std::vector<std::shared_ptr<void>> locks = {
      solver->page_lock(p.b0.data(), span), solver->page_lock(p.b1.data(), span),
      solver->page_lock(flow.u.data(), n * sizeof(float)),
      solver->page_lock(flow.v.data(), n * sizeof(float))};
  for (const auto& l : locks) ASSERT_NE(l, nullptr);
  for (int i = 0; i < 3; ++i) {  // the direct frame's successors run the size's graph
    cuda::compute_flow_u8(*solver, p.b0.data(), p.b1.data(), p.width, p.height, p.stride, flow);
    expect_same_flow(flow, want, "page-locked, frame " + std::to_string(i));
  }
}

}  // namespace
}  // namespace flowtune
