// Programmatic dependent launch of the TV-L1 iteration kernels (cuda::FrameOptions::
// programmatic_launch, variants/cuda/launch_order.hpp) and of the frame stages' kernels
// (programmatic_frame_kernels): every kernel entry waits for its predecessor before it touches
// memory, so a frame launched that way gives the stream-ordered
// frame's flow bit for bit, directly launched and replayed from its CUDA Graph, for every CUDA
// scheme, precision and per-level scheme. The source check runs everywhere; GPU tests skip
// without a device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <string>

#include "tests/cuda/test_frame_support.hpp"
#include "tests/source_root.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/embedded_sources.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

// A kernel launched with LaunchOrder::programmatic that read or wrote memory before waiting
// would race with the kernel before it: every entry of every TV-L1 source must begin with the
// wait. Counted per file, against the number of entries found in it.
TEST(ProgrammaticLaunch, EveryTvl1KernelEntryWaitsForItsPredecessorFirst) {
  const std::regex entry(R"re(extern "C" __global__[^{]*\{\s*([^;]*;))re");
  int entries = 0;
  for (const auto& [file, text] : cuda::embedded_tvl1_sources()) {
    if (file.rfind("tvl1_", 0) != 0) continue;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
         it != std::sregex_iterator(); ++it) {
      ++entries;
      EXPECT_EQ((*it)[1].str(), "ft::wait_previous_grid_then_allow_next();")
          << file << ": a kernel entry starts with `" << (*it)[1].str() << "`";
    }
  }
  // ft_global_u, ft_global_p, ft_shared_fusion, ft_global_pipeline, ft_shared_pipeline,
  // ft_tiled, ft_resident, ft_persistent.
  EXPECT_EQ(entries, 8);
}

// The frame stages' kernels (nvcc, kernels/cuda/frame/) are launched programmatically too
// (frame::Exec::programmatic): each begins with the wait, and every launch goes through
// frame::launch_kernel (no `<<<` left that would launch one without the stage's order).
TEST(ProgrammaticLaunch, EveryFrameKernelWaitsFirstAndLaunchesThroughTheStageOrder) {
  const std::regex entry(R"re(__global__[^{;]*\{\s*([^;]*;))re");
  int entries = 0;
  for (const char* name :
       {"flow_filters.cu", "frame_kernels.cu", "occlusion_filters.cu", "texture_kernels.cu"}) {
    const std::string path = (test::source_root_holding("kernels/cuda/frame/frame_kernels.cu") /
                              "kernels/cuda/frame" / name)
                                 .string();
    std::FILE* f = std::fopen(path.c_str(), "rb");
    ASSERT_NE(f, nullptr) << path;
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
         it != std::sregex_iterator(); ++it) {
      ++entries;
      EXPECT_EQ((*it)[1].str(), "ft::wait_previous_grid();")
          << name << ": a kernel starts with `" << (*it)[1].str() << "`";
    }
    EXPECT_EQ(text.find("<<<"), std::string::npos) << name << " launches a kernel with <<<";
  }
  // median, weighted median, flow change (2), pixel, minmax (3), gaussian, zoom-out,
  // occlusion cost, occluded weighted median, texture pixel, blocked ROF.
  EXPECT_EQ(entries, 14);
}

class ProgrammaticLaunchGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

// The driver path exists where the hardware has it: compute capability 9.0 and newer (the
// GPU machine's H200) supports it, older devices do not (their launches stay in stream order).
TEST_F(ProgrammaticLaunchGpu, SupportedExactlyFromComputeCapabilityNine) {
  int dev = 0, major = 0;
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), cudaSuccess);
  EXPECT_EQ(cuda::programmatic_launch_supported(), major >= 9) << "compute capability " << major;
}

/// Solvers of c with programmatic launch on (the frame stages' kernels too when
/// frame_kernels) and off, per-level schemes as given.
struct SolverPair {
  std::unique_ptr<FlowSolver> programmatic, ordered;
};

SolverPair solver_pair(const Config& c, int resident_px, int tiled_px, bool frame_kernels = true) {
  auto make = [&](bool programmatic) {
    cuda::FrameOptions o;
    o.programmatic_launch = programmatic;
    o.programmatic_frame_kernels = programmatic && frame_kernels;
    o.resident_max_pixels = resident_px;
    o.tiled_max_pixels = tiled_px;
    o.persistent_max_pixels = 0;
    return make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), o);
  };
  return {make(true), make(false)};
}

/// Frames 1 (direct launches) to 4 (graph replays) of both solvers, compared frame by frame.
void expect_same_frames(SolverPair& s, const test::MiddleburyPair& pair, const std::string& what) {
  for (int frame = 1; frame <= 4; ++frame) {
    const FlowField a = s.programmatic->compute(pair.i0, pair.i1);
    const FlowField b = s.ordered->compute(pair.i0, pair.i1);
    test::expect_same_flow(a, b,
                           what + (frame == 1 ? " direct" : " graph frame ") +
                               (frame == 1 ? "" : std::to_string(frame)));
  }
}

// Every registered CUDA scheme in f32, f16 and mixed (its first valid config), with the
// scheme on every level and, for shared_fusion, with the resident and tiled levels too:
// programmatic equals stream order bit for bit on RubberWhale (3 scales x 2 warpings x 10
// iterations), then Grove2 (a second size in the cache).
TEST_F(ProgrammaticLaunchGpu, EverySchemeGivesTheStreamOrderedFlow) {
  const auto rw = test::load_repo_pair("RubberWhale"), g2 = test::load_repo_pair("Grove2");
  const Tvl1Params p = test::frame_params(2);
  int compared = 0;
  for (const Variant* v : all_variants()) {
    if (v->target() != "cuda" || !dynamic_cast<const FlowVariant*>(v)) continue;
    const auto precisions = v->precisions();
    for (const std::string precision : {"f32", "f16", "mixed"}) {
      if (std::find(precisions.begin(), precisions.end(), precision) == precisions.end()) continue;
      const auto c = test::first_valid_config(*v, precision, p);
      ASSERT_TRUE(c) << v->name() << " " << precision;
      for (const bool levels : {false, true}) {
        if (levels && v->name() != "shared_fusion") continue;
        SolverPair s = solver_pair(*c, levels ? 4096 : 0, levels ? 65536 : 0);
        const std::string what = c->label() + (levels ? " resident+tiled levels" : " scheme");
        expect_same_frames(s, rw, what + " RubberWhale");
        expect_same_frames(s, g2, what + " Grove2");
        ++compared;
      }
    }
  }
  std::printf("programmatic vs stream order: %d configs bit for bit\n", compared);
  EXPECT_GE(compared, 8);
}

// The frame of the tuned header at OpenCV's accuracy on the H200
// (results/tuned-eight/h200/2026-11-25/after/equal.h: global_pipeline f16, depth 3, 2 parts,
// 2 rows per thread, w 256, strip_h 64; 4 scales x 0.65, 2 warpings x 15 iterations, median
// 5, texture 0.95 with 3 ROF iterations): the frame whose short launches the overlap is for,
// with every optional stage, bit for bit.
TEST_F(ProgrammaticLaunchGpu, TunedPipelineFrameGivesTheStreamOrderedFlow) {
  Tvl1Params p;
  p.epsilon = 0;
  p.iterations = 15;
  p.lambda = 0.15;
  p.median_window = 5;
  p.n_scales = 4;
  p.n_warpings = 2;
  p.presmoothing_sigma = 0.8;
  p.rof_iterations = 3;
  p.tau = 0.25;
  p.texture_alpha = 0.95;
  p.theta = 0.3;
  p.zoom = 0.65;
  Config c = test::config_of("global_pipeline", "f16", p);
  c.tunables = {{"depth", 3},          {"parts", 2},           {"persistent_px", 0},
                {"resident_px", 1024}, {"rows_per_thread", 2}, {"skew", 1},
                {"strip_h", 64},       {"tiled_px", 1048576},  {"w", 256}};
  const auto* v = find_variant("global_pipeline");
  ASSERT_TRUE(v);
  if (auto why = v->invalid_reason(c)) FAIL() << *why;
  for (const bool frame_kernels : {false, true}) {  // the default, then the frame kernels too
    SolverPair s = solver_pair(c, -1, -1, frame_kernels);
    const std::string what = c.label() + (frame_kernels ? " (frame kernels too) " : " ");
    expect_same_frames(s, test::load_repo_pair("RubberWhale"), what + "RubberWhale");
    expect_same_frames(s, test::load_repo_pair("Grove2"), what + "Grove2");
  }
}

}  // namespace
}  // namespace flowtune
