// Where a GPU TV-L1 frame goes, and what the frame pipeline gives for video:
//  1. per variant x precision, the frame's cost split into host copies, device time in a CUDA
//     Graph, and the sum of the stages of a directly launched frame (cuda::profile_frame);
//  2. the per-stage timeline (upload, normalise, presmooth, pyramid, gradient, warping,
//     iterations per level, zoom_in, to_planar, download) of the fastest config;
//  3. throughput mode: 1, 2, 4 and 8 frame pairs in flight (measure_throughput) at constant
//     size, frames/s next to latency;
//  4. paper table 3: the largest frame (RubberWhale resampled bicubically to N x N) whose frame
//     fits 5, 10, 20 and 33 ms, per precision.
// Protocols: `default` = 3 scales x 1 warping x 10 iterations (the CLI's old default frame,
// the 0.15 ms target), `ipol` = 6 scales x 5 warpings x 30 iterations, lambda 0.2, and
// `opencv_accuracy` = 5 scales x zoom 0.8 x 5 warpings x 20 iterations (OpenCV's accuracy on
// RubberWhale + Grove2); FLOWTUNE_TIMELINE_PROTOCOLS picks them (default "default ipol").
// Frames: RubberWhale (584x388, repo data). Prints Markdown and writes it to
// $FLOWTUNE_BENCH_MD when set. Env: FLOWTUNE_TIMELINE_SIZES (table 3 sides, default
// "512 1024 1536 2048 3072 4096"), FLOWTUNE_TIMELINE_CANDIDATES (sweep points per variant x
// precision, default 4).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "db/repository.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/png_io.hpp"
#include "tests/bench/frame_candidates.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/frame_throughput.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace {

using namespace flowtune;

struct Protocol {
  std::string name, text;
  Tvl1Params params;
};

std::vector<Protocol> protocols() {
  Tvl1Params d;
  d.n_scales = 3;
  d.n_warpings = 1;
  d.iterations = 10;
  d.epsilon = 0;
  // The frame these protocols measured: no median of the flow (the schema's default is
  // now median_window 5; README "Defaults"), in every protocol.
  d.median_window = 0;
  Tvl1Params q = d;
  q.n_scales = 6;
  q.n_warpings = 5;
  q.iterations = 30;
  q.lambda = 0.2;
  Tvl1Params o = d;  // the point of OpenCV's accuracy on RubberWhale + Grove2 (frames report)
  o.n_scales = 5;
  o.zoom = 0.8;
  o.n_warpings = 5;
  o.iterations = 20;
  std::vector<Protocol> all = {
      {"default", "3 scales x 1 warping x 10 iterations", d},
      {"ipol", "6 scales x 5 warpings x 30 iterations, lambda 0.2", q},
      {"opencv_accuracy", "5 scales x zoom 0.8 x 5 warpings x 20 iterations", o}};
  // FLOWTUNE_TIMELINE_PROTOCOLS: the protocols to run, by name (default "default ipol").
  std::string wanted = "default ipol";
  if (const char* e = std::getenv("FLOWTUNE_TIMELINE_PROTOCOLS")) wanted = e;
  std::vector<Protocol> out;
  std::istringstream in(wanted);
  for (std::string name; in >> name;)
    for (const Protocol& p : all)
      if (p.name == name) out.push_back(p);
  return out;
}

std::unique_ptr<FlowSolver> make(const Config& c, int resident_max_pixels = -1,
                                 int host_copy_threads = -1) {
  cuda::FrameOptions o;
  o.resident_max_pixels = resident_max_pixels;
  o.host_copy_threads = host_copy_threads;
  return make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), o);
}

std::string fmt(double v, int digits = 3) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

struct Measured {
  Config config;
  cuda::FrameTimeline timeline;
};

/// The fastest config (by compute() wall time) of each variant x precision for protocol p.
std::vector<Measured> sweep(const Protocol& p, const Image& a, const Image& b,
                            std::size_t per_variant) {
  std::vector<Measured> out;
  for (const Variant* v : all_variants()) {
    if (v->target() != "cuda" || v->workload() != "tvl1") continue;
    for (const std::string precision : {"f32", "f16"}) {
      const auto ps = v->precisions();
      if (std::find(ps.begin(), ps.end(), precision) == ps.end()) continue;
      Measured best;
      best.timeline.call_ms = 1e30;
      for (const Config& c : bench::frame_candidates(*v, precision, p.params, per_variant)) {
        try {
          auto s = make(c);
          const auto t = cuda::profile_frame(*s, a, b, 10);
          std::printf("sweep %-8s %-60s call %.3f ms graph %.3f ms\n", p.name.c_str(),
                      c.label().c_str(), t.call_ms, t.graph_device_ms);
          if (t.call_ms < best.timeline.call_ms) best = {c, t};
        } catch (const std::exception& e) {
          std::printf("sweep %-8s %-60s failed: %s\n", p.name.c_str(), c.label().c_str(), e.what());
        }
      }
      if (!best.config.variant.empty()) out.push_back(best);
    }
  }
  return out;
}

std::string summary_table(const Protocol& p, const std::vector<Measured>& rows) {
  std::ostringstream o;
  o << "### Frame cost, " << p.text << " (RubberWhale 584x388)\n\n"
    << "| variant | precision | tunables | compute() ms | device ms (graph) | host in ms | "
       "host out ms | stages ms (direct) | iterations ms (direct) |\n"
    << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& m : rows) {
    double it = 0;
    for (const auto& s : m.timeline.stages)
      if (s.stage == "iterations") it += s.ms;
    o << "| " << m.config.variant << " | " << m.config.precision << " | `"
      << db::tunables_json(m.config.tunables) << "` | " << fmt(m.timeline.call_ms) << " | "
      << fmt(m.timeline.graph_device_ms) << " | " << fmt(m.timeline.host_in_ms) << " | "
      << fmt(m.timeline.host_out_ms) << " | " << fmt(m.timeline.direct_device_ms) << " | "
      << fmt(it) << " |\n";
  }
  return o.str();
}

std::string stage_table(const Protocol& p, const Measured& m) {
  // Stages with the same name and level (the warpings of one level) are summed.
  std::vector<std::pair<std::string, int>> order;
  std::map<std::pair<std::string, int>, std::pair<double, int>> sum;
  for (const auto& s : m.timeline.stages) {
    const auto key = std::make_pair(s.stage, s.level);
    if (!sum.count(key)) order.push_back(key);
    sum[key].first += s.ms;
    ++sum[key].second;
  }
  std::ostringstream o;
  o << "### Timeline of one frame, " << p.text << ": " << m.config.label() << "\n\n"
    << "Direct launches, CUDA events after each stage (medians of 10 frames). Level 0 is the "
       "finest.\n\n| stage | level | times | ms | share |\n|---|---|---|---|---|\n";
  o << "| host: frames into pinned memory | | 1 | " << fmt(m.timeline.host_in_ms) << " | |\n";
  for (const auto& k : order) {
    const auto& [ms, n] = sum[k];
    o << "| " << k.first << " | " << (k.second < 0 ? std::string() : std::to_string(k.second))
      << " | " << n << " | " << fmt(ms) << " | "
      << fmt(100.0 * ms / std::max(1e-9, m.timeline.direct_device_ms), 1) << "% |\n";
  }
  o << "| host: flow out of pinned memory | | 1 | " << fmt(m.timeline.host_out_ms) << " | |\n"
    << "| **device, direct (sum)** | | | " << fmt(m.timeline.direct_device_ms) << " | |\n"
    << "| **device, CUDA Graph** | | | " << fmt(m.timeline.graph_device_ms) << " | |\n"
    << "| **compute() call** | | | " << fmt(m.timeline.call_ms) << " | |\n";
  return o.str();
}

std::string throughput_table(const Protocol& p, const Measured& m, const Image& a, const Image& b,
                             const Image& c, const Image& d) {
  std::ostringstream o;
  o << "### Throughput mode, " << p.text << ": " << m.config.label() << "\n\n"
    << "RubberWhale every frame (constant size per stream), 200 frames; one solver (stream, "
       "buffers, graph per size) and one host thread per frame in flight. "
       "bench_frame_throughput measures this with repetitions and the device-pointer API.\n\n"
    << "| frames in flight | frames/s | median latency ms |\n|---|---|---|\n";
  (void)c, (void)d;  // constant size: alternating sizes measured the cache, not the stream
  const std::vector<std::pair<Image, Image>> pairs{{a, b}};
  for (int k : {1, 2, 4, 8}) {
    std::vector<std::unique_ptr<FlowSolver>> solvers;
    for (int i = 0; i < k; ++i) solvers.push_back(make(m.config));
    const auto r = measure_throughput(solvers, pairs, 200);
    o << "| " << k << " | " << fmt(r.frames_per_second, 0) << " | " << fmt(r.median_latency_ms)
      << " |\n";
  }
  return o.str();
}

/// The host copies (frames into pinned memory, flow out) by the number of copy threads.
std::string host_copy_table(const Protocol& p, const Measured& m, const Image& a, const Image& b) {
  std::ostringstream o;
  o << "### Host copies by thread count, " << p.text << ": " << m.config.label() << "\n\n"
    << "| copy threads | host in ms | host out ms | compute() ms |\n|---|---|---|---|\n";
  for (int threads : {1, 2, 4, 8}) {
    auto s = make(m.config, -1, threads);
    const auto t = cuda::profile_frame(*s, a, b, 20);
    o << "| " << threads << " | " << fmt(t.host_in_ms) << " | " << fmt(t.host_out_ms) << " | "
      << fmt(t.call_ms) << " |\n";
  }
  return o.str();
}

/// Per-level schemes: each variant x precision's best config with the coarse levels resident
/// (resident_px) and the middle levels tiled (tiled_px), against every level on the scheme.
std::string per_level_table(const Protocol& p, const std::vector<Measured>& rows, const Image& a,
                            const Image& b) {
  const std::vector<std::pair<int, int>> choices{{0, 0},     {1024, 0},     {4096, 0},
                                                 {0, 65536}, {1024, 65536}, {4096, 65536}};
  std::ostringstream o;
  o << "### Per-level schemes, " << p.text << "\n\n"
    << "Device ms of the frame in a CUDA Graph / compute() ms; columns: resident_px / "
       "tiled_px (0 / 0 = every level on the config's scheme).\n\n| config |";
  for (const auto& [r, t] : choices) o << " " << r << " / " << t << " |";
  o << "\n|---|";
  for (std::size_t k = 0; k < choices.size(); ++k) o << "---|";
  o << "\n";
  for (const auto& m : rows) {
    o << "| " << m.config.variant << " " << m.config.precision << " `"
      << db::tunables_json(m.config.tunables) << "` |";
    for (const auto& [r, t] : choices) {
      try {
        cuda::FrameOptions opt;
        opt.resident_max_pixels = r;
        opt.tiled_max_pixels = t;
        auto s = make_cuda_frame_solver(m.config, cuda::make_iteration_schedule(m.config), opt);
        const auto tl = cuda::profile_frame(*s, a, b, 10);
        o << " " << fmt(tl.graph_device_ms) << " / " << fmt(tl.call_ms) << " |";
      } catch (const std::exception& e) {
        o << " failed |";
        std::printf("per-level %d/%d %s failed: %s\n", r, t, m.config.label().c_str(), e.what());
      }
    }
    o << "\n";
  }
  return o.str();
}

/// Paper table 3: the largest N x N frame within each budget, per precision.
std::string resolution_table(const Protocol& p, const std::vector<Measured>& rows, const Image& a,
                             const Image& b, const std::vector<int>& sides) {
  std::ostringstream o;
  o << "### Largest frame within a time budget (paper table 3), " << p.text << "\n\n"
    << "RubberWhale resampled (bicubic) to N x N; the fastest config of each precision at "
       "584x388; time = median compute() wall clock (frames in, flow out).\n\n"
    << "| precision | config | N: ms per frame | 5 ms | 10 ms | 20 ms | 33 ms |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const std::string precision : {"f32", "f16"}) {
    const Measured* best = nullptr;
    for (const auto& m : rows)
      if (m.config.precision == precision && (!best || m.timeline.call_ms < best->timeline.call_ms))
        best = &m;
    if (!best) continue;
    std::vector<std::pair<int, double>> ms;
    std::string cells;
    for (int n : sides) {
      try {
        const Image sa = zoom_in(a, n, n), sb = zoom_in(b, n, n);
        auto s = make(best->config);
        const auto t = cuda::profile_frame(*s, sa, sb, 5);
        ms.emplace_back(n, t.call_ms);
        cells += std::to_string(n) + ": " + fmt(t.call_ms, 2) + "; ";
      } catch (const std::exception& e) {
        cells += std::to_string(n) + ": failed; ";
        std::printf("table 3 %d failed: %s\n", n, e.what());
      }
    }
    o << "| " << precision << " | " << best->config.label() << " | " << cells << " |";
    for (double budget : {5.0, 10.0, 20.0, 33.0}) {
      int largest = 0;
      for (const auto& [n, t] : ms)
        if (t <= budget) largest = std::max(largest, n);
      o << " " << (largest ? std::to_string(largest) + "^2" : std::string("-")) << " |";
    }
    o << "\n";
  }
  return o.str();
}

std::string repo_data_root() {
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA")) return env;
  if (std::ifstream("data/middlebury/RubberWhale/frame10.png")) return "data";
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("tests/bench/")) + "data";
}

}  // namespace

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("bench_frame_timeline: no CUDA device, nothing to measure\n");
    return 0;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  const std::string root = repo_data_root() + "/middlebury/";
  const Image a = read_png_gray(root + "RubberWhale/frame10.png");
  const Image b = read_png_gray(root + "RubberWhale/frame11.png");
  const Image c = read_png_gray(root + "Grove2/frame10.png");
  const Image d = read_png_gray(root + "Grove2/frame11.png");
  std::size_t per_variant = 4;
  if (const char* e = std::getenv("FLOWTUNE_TIMELINE_CANDIDATES")) per_variant = std::stoul(e);
  std::vector<int> sides{512, 1024, 1536, 2048, 3072, 4096};
  if (const char* e = std::getenv("FLOWTUNE_TIMELINE_SIZES")) {
    sides.clear();
    std::istringstream in(e);
    for (int s; in >> s;) sides.push_back(s);
  }

  std::ostringstream md;
  md << "## GPU TV-L1 frames on " << prop.name << " (bench_frame_timeline)\n\n";
  for (const Protocol& p : protocols()) {
    const auto rows = sweep(p, a, b, per_variant);
    if (rows.empty()) continue;
    std::ostringstream sec;
    sec << summary_table(p, rows) << "\n";
    const Measured& best = *std::min_element(rows.begin(), rows.end(), [](auto& x, auto& y) {
      return x.timeline.call_ms < y.timeline.call_ms;
    });
    sec << stage_table(p, best) << "\n"
        << host_copy_table(p, best, a, b) << "\n"
        << per_level_table(p, rows, a, b) << "\n"
        << throughput_table(p, best, a, b, c, d) << "\n";
    if (p.name == "default") sec << resolution_table(p, rows, a, b, sides) << "\n";
    std::printf("%s", sec.str().c_str());
    std::fflush(stdout);
    md << sec.str();
  }
  std::printf("\n%s", md.str().c_str());
  if (const char* path = std::getenv("FLOWTUNE_BENCH_MD")) std::ofstream(path) << md.str();
  return 0;
}
