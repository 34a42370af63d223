// The frame solver's per-size cache and its two paths (variants/cuda/cuda_frame_solver): video
// alternating RubberWhale (584x388) and Grove2 (640x480) gives, frame for frame, the flow a
// fresh solver gives (bit for bit) while each size's buffers are allocated once and its CUDA
// Graph captured once; the device-pointer path (cuda::compute_flow_device) gives the host
// path's flow bit for bit. The host-emulation tests run everywhere; GPU tests skip without a
// device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/png_io.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

using Pair = test::MiddleburyPair;

Config config_of(const std::string& variant, const std::string& precision) {
  Config c;
  c.variant = variant;
  c.precision = precision;
  c.params = param_values_of(test::frame_params());
  return c;
}

std::unique_ptr<FlowSolver> plain_solver_with_cache(bool on_host, int cached_sizes = 4) {
  cuda::FrameOptions o;
  o.host_emulation = on_host;
  o.cached_sizes = cached_sizes;
  return make_cuda_frame_solver(
      config_of("plain", "f32"),
      std::make_unique<test::PlainSchedule>(test::frame_params(), cuda::Storage::f32, on_host), o);
}

using test::expect_same_flow;

/// The order of sizes of the alternation tests: a size's graph is captured before the other
/// size makes the schedule's scratch grow, and replayed after it.
const char* kOrder[] = {"RubberWhale", "RubberWhale", "Grove2",     "Grove2",
                        "RubberWhale", "Grove2",      "RubberWhale"};

// Host emulation (no GPU needed): buffers of each size allocated once, the flows those of
// fresh solvers; with a cache of one size every switch evicts and reallocates, same flows.
TEST(FrameCache, HostEmulationAlternatingSizesMatchFreshSolvers) {
  const Pair rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  const FlowField fresh_rw = plain_solver_with_cache(true)->compute(rw.i0, rw.i1);
  const FlowField fresh_g2 = plain_solver_with_cache(true)->compute(g2.i0, g2.i1);
  for (int cached : {4, 1}) {
    auto solver = plain_solver_with_cache(true, cached);
    FlowField flow;  // one caller buffer for every frame (compute_into)
    for (const char* name : {"RubberWhale", "Grove2", "RubberWhale"}) {
      const bool is_rw = std::string(name) == "RubberWhale";
      const Pair& p = is_rw ? rw : g2;
      solver->compute_into(p.i0, p.i1, flow);
      expect_same_flow(flow, is_rw ? fresh_rw : fresh_g2,
                       std::string(name) + " cache " + std::to_string(cached));
    }
    const auto st = cuda::frame_cache_stats(*solver);
    EXPECT_EQ(st.graph_builds, 0);  // no graphs in host emulation
    if (cached == 4) {
      EXPECT_EQ(st.buffer_allocations, 2);
      EXPECT_EQ(st.evictions, 0);
      EXPECT_EQ(st.cached_sizes, 2);
    } else {
      EXPECT_EQ(st.buffer_allocations, 3);
      EXPECT_EQ(st.evictions, 2);
      EXPECT_EQ(st.cached_sizes, 1);
    }
  }
  EXPECT_THROW(plain_solver_with_cache(true, 0), std::invalid_argument);
  auto host = plain_solver_with_cache(true);
  float dummy = 0;
  EXPECT_THROW(cuda::compute_flow_device(*host, &dummy, &dummy, 1, 1, &dummy, nullptr),
               std::runtime_error);
}

class FrameCacheGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

/// The first valid config of a registered variant (domains in lexicographic order).
std::optional<Config> first_valid(const Variant& v, const std::string& precision) {
  const auto domains = v.tunables();
  std::vector<std::size_t> idx(domains.size(), 0);
  while (true) {
    Config c = config_of(v.name(), precision);
    for (std::size_t k = 0; k < domains.size(); ++k)
      c.tunables[domains[k].name] = domains[k].values[idx[k]];
    if (!v.invalid_reason(c)) return c;
    std::size_t k = 0;
    while (k < idx.size() && ++idx[k] == domains[k].values.size()) idx[k++] = 0;
    if (k == idx.size()) return std::nullopt;
  }
}

/// Solvers to test: the plain schedule, and every registered CUDA TV-L1 variant (its NVRTC
/// schedule with scratch that grows with the frame size) in f32 and, where offered, f16.
std::vector<std::pair<std::string, std::function<std::unique_ptr<FlowSolver>()>>> makers() {
  std::vector<std::pair<std::string, std::function<std::unique_ptr<FlowSolver>()>>> out;
  out.emplace_back("plain f32", [] { return plain_solver_with_cache(false); });
  for (const Variant* v : all_variants()) {
    const auto* fv = dynamic_cast<const FlowVariant*>(v);
    if (v->target() != "cuda" || !fv) continue;
    for (const std::string precision : {"f32", "f16"}) {
      const auto ps = v->precisions();
      if (std::find(ps.begin(), ps.end(), precision) == ps.end()) continue;
      const auto c = first_valid(*v, precision);
      if (!c) continue;
      out.emplace_back(c->label(), [fv, c] { return fv->make_solver(*c); });
    }
  }
  return out;
}

// Alternating sizes on one solver: each frame bit for bit the flow of a fresh solver (whose
// one frame runs direct launches), two buffer allocations and two graph builds in all.
TEST_F(FrameCacheGpu, AlternatingSizesMatchFreshSolversAndKeepTheirGraphs) {
  const Pair rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  for (const auto& [label, make] : makers()) {
    const FlowField fresh_rw = make()->compute(rw.i0, rw.i1);
    const FlowField fresh_g2 = make()->compute(g2.i0, g2.i1);
    auto solver = make();
    FlowField flow;
    for (const char* name : kOrder) {
      const bool is_rw = std::string(name) == "RubberWhale";
      const Pair& p = is_rw ? rw : g2;
      solver->compute_into(p.i0, p.i1, flow);
      expect_same_flow(flow, is_rw ? fresh_rw : fresh_g2, label + " " + name);
    }
    const auto st = cuda::frame_cache_stats(*solver);
    std::printf("%s: %ld allocations, %ld graph builds, %ld evictions\n", label.c_str(),
                st.buffer_allocations, st.graph_builds, st.evictions);
    EXPECT_EQ(st.buffer_allocations, 2) << label;
    EXPECT_EQ(st.graph_builds, 2) << label;
    EXPECT_EQ(st.evictions, 0) << label;
    EXPECT_EQ(st.cached_sizes, 2) << label;
  }
}

/// Device copies of a pair and a device flow buffer, freed at the end of the scope.
struct DevicePair {
  test::TestBuffer<float> i0, i1, flow;
  explicit DevicePair(const Pair& p)
      : i0(p.i0.size(), false), i1(p.i1.size(), false), flow(2 * p.i0.size(), false) {
    i0.upload(p.i0.data);
    i1.upload(p.i1.data);
  }
  FlowField download(int w, int h) const {
    const std::vector<float> uv = flow.download();
    FlowField f;
    f.width = w;
    f.height = h;
    f.u.assign(uv.begin(), uv.begin() + std::ptrdiff_t(uv.size() / 2));
    f.v.assign(uv.begin() + std::ptrdiff_t(uv.size() / 2), uv.end());
    return f;
  }
};

// The device-pointer path on the caller's stream equals the host path bit for bit: on a fresh
// solver (direct launches), on later frames (the graph), alternating sizes, and mixed with
// host frames on the same solver.
TEST_F(FrameCacheGpu, DevicePointerPathEqualsHostPath) {
  const Pair rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  for (const auto& [label, make] : makers()) {
    const FlowField host_rw = make()->compute(rw.i0, rw.i1);
    const FlowField host_g2 = make()->compute(g2.i0, g2.i1);
    DevicePair drw(rw), dg2(g2);
    auto solver = make();
    auto run_device = [&](const Pair& p, const DevicePair& d) {
      cuda::compute_flow_device(*solver, d.i0.get(), d.i1.get(), p.i0.width, p.i0.height,
                                d.flow.get(), stream);
      EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      return d.download(p.i0.width, p.i0.height);
    };
    for (const char* name : kOrder) {
      const bool is_rw = std::string(name) == "RubberWhale";
      expect_same_flow(run_device(is_rw ? rw : g2, is_rw ? drw : dg2), is_rw ? host_rw : host_g2,
                       label + " device " + name);
    }
    // Host frames and device frames mixed on one solver, without a sync in between on the
    // caller's stream (the solver orders them).
    cuda::compute_flow_device(*solver, dg2.i0.get(), dg2.i1.get(), g2.i0.width, g2.i0.height,
                              dg2.flow.get(), stream);
    const FlowField mixed_host = solver->compute(rw.i0, rw.i1);
    expect_same_flow(mixed_host, host_rw, label + " host after device");
    expect_same_flow(dg2.download(g2.i0.width, g2.i0.height), host_g2,
                     label + " device before host");
    const auto st = cuda::frame_cache_stats(*solver);
    EXPECT_EQ(st.buffer_allocations, 2) << label;
    EXPECT_EQ(st.graph_builds, 2) << label;
  }
  cudaStreamDestroy(stream);
  auto solver = plain_solver_with_cache(false);
  EXPECT_THROW(cuda::compute_flow_device(*solver, nullptr, nullptr, 8, 8, nullptr, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
