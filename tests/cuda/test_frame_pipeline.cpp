// The whole GPU frame (variants/cuda/cuda_frame_solver) against the double reference
// tvl1_reference on Middlebury data: with the private plain schedule (host emulation, and on
// the device), with every registered CUDA variant's schedule (make_solver), and f16 vs f32
// on the 8 Middlebury sequences. GPU tests skip without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

struct Sequence {
  std::string name;
  Image i0, i1;
  FlowField gt;
};

Sequence load(const std::string& dir, const std::string& name) {
  const std::string d = dir + "/" + name + "/";
  return {name, read_png_gray(d + "frame10.png"), read_png_gray(d + "frame11.png"),
          read_flo(d + "flow10.flo")};
}

/// The frame benchmark's parameters: 3 scales, 1 warping, 50 iterations, no epsilon stopping.
Tvl1Params frame_params() {
  return test::frame_params(1, 50);
}

Config plain_config(const std::string& precision) {
  Config c;
  c.variant = "plain";
  c.precision = precision;
  c.params = param_values_of(frame_params());
  return c;
}

std::unique_ptr<FlowSolver> plain_solver_with_graph(const std::string& precision, bool on_host,
                                                    bool graph = true) {
  const Config c = plain_config(precision);
  cuda::FrameOptions o;
  o.host_emulation = on_host;
  o.use_cuda_graph = graph;
  return make_cuda_frame_solver(
      c,
      std::make_unique<test::PlainSchedule>(frame_params(), cuda::storage_of(precision), on_host),
      o);
}

/// Mean endpoint distance between two flows (+inf on a non-finite value).
double mean_distance(const FlowField& a, const FlowField& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::hypot(double(a.u[i]) - b.u[i], double(a.v[i]) - b.v[i]);
    if (!std::isfinite(d)) return INFINITY;
    s += d;
  }
  return s / double(a.size());
}

/// test::first_valid_config with this file's frame parameters.
std::optional<Config> first_valid_config(const Variant& v, const std::string& precision) {
  return test::first_valid_config(v, precision, frame_params());
}

std::vector<const Variant*> cuda_variants_registered() {
  std::vector<const Variant*> out;
  for (const Variant* v :
       all_variants())  // the TV-L1 ones (other workloads have CUDA variants too)
    if (v->target() == "cuda" && dynamic_cast<const FlowVariant*>(v)) out.push_back(v);
  return out;
}

// Host emulation (runs everywhere): the same per-pixel code as the GPU, the plain schedule.
// float vs double over 3 scales x 50 iterations: AEPE within 0.01 px, and the two flows
// within 0.01 px of each other on average (an error in any stage moves them by >> 0.1 px).
TEST(FramePipeline, HostEmulationMatchesReferenceOnRubberWhale) {
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  const FlowField ref = tvl1_reference(s.i0, s.i1, frame_params());
  const FlowField got = plain_solver_with_graph("f32", true)->compute(s.i0, s.i1);
  const double a_ref = flow_error(ref, s.gt).aepe, a_got = flow_error(got, s.gt).aepe;
  std::printf("RubberWhale host emulation: AEPE ref %.5f, f32 %.5f, mean |diff| %.2e px\n", a_ref,
              a_got, mean_distance(got, ref));
  EXPECT_LT(std::abs(a_got - a_ref), 0.01);
  EXPECT_LT(mean_distance(got, ref), 0.01);
  EXPECT_LT(a_ref, 1.0);  // sanity: the reference itself estimates the flow
}

TEST(FramePipeline, RejectsFramesOfDifferentSizes) {
  auto solver = plain_solver_with_graph("f32", true);
  EXPECT_THROW(solver->compute(Image(8, 8), Image(8, 9)), std::invalid_argument);
  EXPECT_THROW(make_cuda_frame_solver(plain_config("f32"), nullptr, {}), std::invalid_argument);
}

class FramePipelineGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

// The device pipeline with the plain schedule: AEPE within 0.01 px of the reference; the
// graph replay and direct launches give the same flow bit for bit, frame after frame.
TEST_F(FramePipelineGpu, PlainScheduleMatchesReferenceOnRubberWhale) {
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  const FlowField ref = tvl1_reference(s.i0, s.i1, frame_params());
  auto graph = plain_solver_with_graph("f32", false, true);
  auto direct = plain_solver_with_graph("f32", false, false);
  const FlowField a = direct->compute(s.i0, s.i1);
  const FlowField g1 = graph->compute(s.i0, s.i1);  // warm-up frame (direct launches)
  const FlowField g2 = graph->compute(s.i0, s.i1);  // captured and replayed
  const FlowField g3 = graph->compute(s.i0, s.i1);
  const double a_ref = flow_error(ref, s.gt).aepe, a_gpu = flow_error(a, s.gt).aepe;
  std::printf(
      "RubberWhale GPU plain f32: AEPE ref %.5f, gpu %.5f, |diff| %.5f, mean |flow "
      "diff| %.2e px\n",
      a_ref, a_gpu, std::abs(a_gpu - a_ref), mean_distance(a, ref));
  EXPECT_LT(std::abs(a_gpu - a_ref), 0.01);
  EXPECT_LT(mean_distance(a, ref), 0.01);
  for (const FlowField* f : {&g1, &g2, &g3}) {
    EXPECT_EQ(f->u, a.u);
    EXPECT_EQ(f->v, a.v);
  }
  // A different size afterwards: its own buffers and graph (the per-size cache).
  const Sequence g = load(test::repo_middlebury_dir(), "Grove2");
  const FlowField gd = direct->compute(g.i0, g.i1);
  const FlowField gg = graph->compute(g.i0, g.i1);
  const FlowField gg2 = graph->compute(g.i0, g.i1);
  EXPECT_EQ(gg.u, gd.u);
  EXPECT_EQ(gg2.v, gd.v);
}

// Every registered CUDA variant (NVRTC schedule) through make_solver, f32: AEPE within 0.01 px
// of the double reference on RubberWhale.
TEST_F(FramePipelineGpu, EveryCudaVariantMatchesReferenceOnRubberWhale) {
  const auto variants = cuda_variants_registered();
  ASSERT_FALSE(variants.empty()) << "no CUDA variant registered";
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  const double a_ref = flow_error(tvl1_reference(s.i0, s.i1, frame_params()), s.gt).aepe;
  for (const Variant* v : variants) {
    const auto c = first_valid_config(*v, "f32");
    ASSERT_TRUE(c) << v->name();
    const FlowField f = dynamic_cast<const FlowVariant&>(*v).make_solver(*c)->compute(s.i0, s.i1);
    const double a = flow_error(f, s.gt).aepe;
    std::printf("RubberWhale %s: AEPE ref %.5f, gpu %.5f, |diff| %.5f\n", c->label().c_str(), a_ref,
                a, std::abs(a - a_ref));
    EXPECT_LT(std::abs(a - a_ref), 0.01) << c->label();
  }
}

// f16 storage vs f32 with the same iteration count, all 8 Middlebury sequences: the mean
// AEPE (over the sequences) within 0.05 px, for the plain schedule and every CUDA variant
// that offers f16.
TEST_F(FramePipelineGpu, F16MeanAepeWithin005OfF32OnMiddlebury) {
  const char* names[] = {"Dimetrodon",  "Grove2", "Grove3", "Hydrangea",
                         "RubberWhale", "Urban2", "Urban3", "Venus"};
  if (!std::filesystem::exists(test::shared_middlebury_dir() + "/Venus/flow10.flo"))
    GTEST_SKIP() << "shared Middlebury data not found at " << test::shared_middlebury_dir()
                 << " (set FLOWTUNE_SHARED_DATA to the folder holding middlebury/)";
  std::vector<Sequence> seqs;
  for (const char* n : names) seqs.push_back(load(test::shared_middlebury_dir(), n));

  struct SolverPair {
    std::string label;
    std::unique_ptr<FlowSolver> f32, f16;
  };
  std::vector<SolverPair> pairs;
  pairs.push_back(
      {"plain", plain_solver_with_graph("f32", false), plain_solver_with_graph("f16", false)});
  for (const Variant* v : cuda_variants_registered()) {
    const auto p = v->precisions();
    if (std::find(p.begin(), p.end(), "f16") == p.end()) continue;
    const auto c32 = first_valid_config(*v, "f32"), c16 = first_valid_config(*v, "f16");
    ASSERT_TRUE(c32 && c16) << v->name();
    const auto& fv = dynamic_cast<const FlowVariant&>(*v);
    pairs.push_back({v->name(), fv.make_solver(*c32), fv.make_solver(*c16)});
  }
  ASSERT_GE(pairs.size(), 2u) << "no CUDA variant with f16 registered";
  for (auto& pr : pairs) {
    double m32 = 0, m16 = 0;
    for (const auto& s : seqs) {
      const double a32 = flow_error(pr.f32->compute(s.i0, s.i1), s.gt).aepe;
      const double a16 = flow_error(pr.f16->compute(s.i0, s.i1), s.gt).aepe;
      std::printf("%-14s %-12s AEPE f32 %.4f f16 %.4f\n", pr.label.c_str(), s.name.c_str(), a32,
                  a16);
      m32 += a32 / double(seqs.size());
      m16 += a16 / double(seqs.size());
    }
    std::printf("%-14s mean AEPE f32 %.4f f16 %.4f |diff| %.4f\n", pr.label.c_str(), m32, m16,
                std::abs(m16 - m32));
    EXPECT_LT(std::abs(m16 - m32), 0.05) << pr.label;
  }
}

// The tiled kernel's shapes (tiled_t, tiled_depth, tiled_coarsen; kernels/cuda/tvl1_tiled.cuh)
// and the median in its last launch (FrameOptions::tiled_median): every shape runs each
// pixel's arithmetic in the same order and the median is a selection, so with the 146x97 and
// 292x194 levels tiled the flow of shared_fusion in f32 and f16 equals the one with every
// level on the scheme and the median as its own stage bit for bit, with median_window 0, 3
// and 5. The timeline names both tiled levels at every warping, and a median stage only where
// the median did not run in the tiled launch (depth 1 cannot take a 3 x 3 median's ring).
// Shapes: the default (32, 4, 1), deeper (32, 8, 1), coarsened (16, 3, 2), (8, 5, 4), (32, 1,
// 1) and, in f16 only (48 KiB), (32, 10, 2).
TEST_F(FramePipelineGpu, TiledShapesMatchTheScheme) {
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  Tvl1Params p = frame_params();
  p.n_scales = 6;
  p.n_warpings = 2;
  p.iterations = 22;
  const Variant* v = find_variant("shared_fusion");
  ASSERT_NE(v, nullptr);
  for (const int median : {0, 3, 5})
    for (const char* precision : {"f32", "f16"}) {
      p.median_window = median;
      auto c = first_valid_config(*v, precision);
      ASSERT_TRUE(c) << precision;
      c->params = param_values_of(p);
      auto make = [&](const Config& config, int tiled) {
        cuda::FrameOptions o;
        o.resident_max_pixels = 4096;
        o.tiled_max_pixels = tiled;
        o.tiled_median = tiled > 0;
        return make_cuda_frame_solver(config, cuda::make_iteration_schedule(config), o);
      };
      const FlowField plain = make(*c, 0)->compute(s.i0, s.i1);
      struct Shape {
        int t, depth, coarsen;
      };
      for (const Shape sh : {Shape{32, 4, 1}, Shape{32, 8, 1}, Shape{16, 3, 2}, Shape{8, 5, 4},
                             Shape{32, 1, 1}, Shape{32, 10, 2}}) {
        Config tc = *c;
        tc.tunables["tiled_t"] = sh.t;
        tc.tunables["tiled_depth"] = sh.depth;
        tc.tunables["tiled_coarsen"] = sh.coarsen;
        tc.tunables["tiled_px"] = 65536;
        const std::string name = std::string(precision) + " median " + std::to_string(median) +
                                 " tiled_t=" + std::to_string(sh.t) +
                                 " tiled_depth=" + std::to_string(sh.depth) +
                                 " tiled_coarsen=" + std::to_string(sh.coarsen);
        if (auto why = v->invalid_reason(tc)) {
          // Only the f32 region of 64^2 pixels (96 KiB) is over the static shared memory limit.
          EXPECT_TRUE(std::string(precision) == "f32" && sh.t * sh.coarsen == 64) << *why;
          EXPECT_NE(why->find("49152"), std::string::npos) << *why;
          continue;
        }
        auto solver = make(tc, 65536);
        const FlowField f = solver->compute(s.i0, s.i1);
        std::printf("%s: vs scheme mean |diff| %.2e px\n", name.c_str(), mean_distance(plain, f));
        EXPECT_EQ(f.u, plain.u) << name;
        EXPECT_EQ(f.v, plain.v) << name;
        const auto t = cuda::profile_frame(*solver, s.i0, s.i1, 1);
        int n_tiled = 0, n_median = 0;
        for (const auto& st : t.stages) {
          n_tiled += st.stage == "iterations_tiled";
          n_median += st.stage == "median";
        }
        EXPECT_EQ(n_tiled, 2 * p.n_warpings) << name;
        // 6 levels x 2 warpings; the two tiled levels' medians run in their last tiled launch
        // unless the depth is 1.
        const int fused = median > 0 && sh.depth > median / 2 ? 2 : 0;
        EXPECT_EQ(n_median, median > 0 ? (6 - fused) * p.n_warpings : 0) << name;
      }
    }
}

}  // namespace
}  // namespace flowtune

namespace flowtune {
namespace {

// The per-stage timeline (cuda::profile_frame): every stage of the frame in stream order,
// one `iterations` stage per scale and warping, times >= 0 that add up, and profiling leaves
// the flow of the next frame bit for bit what it was.
TEST_F(FramePipelineGpu, ProfileFrameTimesEveryStageInOrder) {
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  auto solver = plain_solver_with_graph("f32", false, true);
  const FlowField before = solver->compute(s.i0, s.i1);
  const cuda::FrameTimeline t = cuda::profile_frame(*solver, s.i0, s.i1, 3);
  const FlowField after = solver->compute(s.i0, s.i1);
  EXPECT_EQ(after.u, before.u);
  EXPECT_EQ(after.v, before.v);
  ASSERT_FALSE(t.stages.empty());
  EXPECT_EQ(t.stages.front().stage, "upload");
  EXPECT_EQ(t.stages.back().stage, "download");
  int iterations = 0, warpings = 0;
  double sum = 0;
  for (const auto& st : t.stages) {
    EXPECT_GE(st.ms, 0) << st.stage;
    sum += st.ms;
    iterations += st.stage == "iterations" || st.stage == "iterations_resident";
    warpings += st.stage == "warping";
  }
  const Tvl1Params p = frame_params();
  EXPECT_EQ(iterations, p.n_scales * p.n_warpings);
  EXPECT_EQ(warpings, p.n_scales * p.n_warpings);
  EXPECT_NEAR(t.direct_device_ms, sum, 1e-9);
  EXPECT_GT(t.graph_device_ms, 0);
  EXPECT_GT(t.call_ms, 0);
  EXPECT_GE(t.host_in_ms, 0);
  auto host = plain_solver_with_graph("f32", true);
  EXPECT_THROW(cuda::profile_frame(*host, s.i0, s.i1, 1), std::runtime_error);
}

}  // namespace
}  // namespace flowtune

namespace flowtune {
namespace {

// Launch-free warpings and temporal tiling per level (variants/cuda/resident_levels,
// tiled_levels): with 6 scales RubberWhale's levels of <= 4096 px run resident in one block
// and, with tiled_px 65536, the 146x97 and 292x194 levels 4 iterations per launch. For every
// CUDA variant in f32 the flow equals the one with every level on the scheme bit for bit (the
// same arithmetic in the same order), the double reference's AEPE within 0.01 px, and the
// timeline names the levels.
TEST_F(FramePipelineGpu, PerLevelSchemesMatchTheSchemes) {
  const Sequence s = load(test::repo_middlebury_dir(), "RubberWhale");
  Tvl1Params p = frame_params();
  p.n_scales = 6;
  p.n_warpings = 2;
  p.iterations = 22;  // 5 launches of 4 + 1 of 2 per warping on the tiled levels
  const double a_ref = flow_error(tvl1_reference(s.i0, s.i1, p), s.gt).aepe;
  for (const Variant* v : cuda_variants_registered()) {
    auto c = first_valid_config(*v, "f32");
    ASSERT_TRUE(c) << v->name();
    c->params = param_values_of(p);
    auto make = [&](int resident, int tiled) {
      cuda::FrameOptions o;
      o.resident_max_pixels = resident;
      o.tiled_max_pixels = tiled;
      return make_cuda_frame_solver(*c, cuda::make_iteration_schedule(*c), o);
    };
    const FlowField plain = make(0, 0)->compute(s.i0, s.i1);
    for (const auto& [resident, tiled] :
         {std::pair<int, int>{4096, 0}, {0, 65536}, {4096, 65536}}) {
      auto solver = make(resident, tiled);
      const FlowField f = solver->compute(s.i0, s.i1);
      const double d = mean_distance(plain, f), aepe = flow_error(f, s.gt).aepe;
      std::printf("%s resident %d tiled %d: vs scheme mean |diff| %.2e px, AEPE %.5f (ref %.5f)\n",
                  c->label().c_str(), resident, tiled, d, aepe, a_ref);
      EXPECT_EQ(f.u, plain.u) << c->label() << " " << resident << " " << tiled;
      EXPECT_EQ(f.v, plain.v) << c->label() << " " << resident << " " << tiled;
      EXPECT_LT(std::abs(aepe - a_ref), 0.01) << c->label();
      const auto t = cuda::profile_frame(*solver, s.i0, s.i1, 1);
      int n_resident = 0, n_tiled = 0;
      for (const auto& st : t.stages) {
        n_resident += st.stage == "iterations_resident";
        n_tiled += st.stage == "iterations_tiled";
      }
      // 19x13, 37x25, 73x49 are <= 4096 px; 146x97 and 292x194 <= 65536 (with resident
      // off, the three smallest are tiled too).
      EXPECT_EQ(n_resident, resident ? 3 * p.n_warpings : 0) << c->label();
      EXPECT_EQ(n_tiled, tiled ? (resident ? 2 : 5) * p.n_warpings : 0) << c->label();
    }
  }
}

}  // namespace
}  // namespace flowtune
