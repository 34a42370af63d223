// Frames per second and latency of the GPU TV-L1 frame (variants/cuda/cuda_frame_solver) at
// constant size per stream (RubberWhale 584x388, repo data), Google Benchmark (use
// --benchmark_out=F.json --benchmark_out_format=json, as the frame benchmark run on the GPU
// machine does).
//
// Protocols: `default` = 3 scales x 1 warping x 10 iterations; `opencv_accuracy` = 5 scales x
// zoom 0.8, 5 warpings x 20 iterations (the fixed config at OpenCV's accuracy);
// `opencv_texture` = 5 scales x zoom 0.8, 1 warping x 30 iterations, texture_alpha 0.95,
// epsilon 0 (the structure-texture config at OpenCV's accuracy). FLOWTUNE_THROUGHPUT_PROTOCOLS
// (comma-separated, default "default,opencv_accuracy") picks among these three; `tuned`, when
// FLOWTUNE_THROUGHPUT_TUNED names a tuned header (`tune export`; read by
// select/tuned_header_reader.hpp, FLOWTUNE_THROUGHPUT_TUNED_BOARD picks a board of a header
// of several): the header's variant, precision, tunables and params. Config of the others:
// shared_fusion f16 32x8, resident_px 1024, tiled_px 65536, persistent_px 0
// (FLOWTUNE_THROUGHPUT_VARIANT / _PRECISION / _BLOCK_X / _BLOCK_Y / _RESIDENT_PX / _TILED_PX /
// _PERSISTENT_PX override it; _TILED_T, _TILED_DEPTH and _TILED_COARSEN set the tiled levels'
// shape of every protocol, the tuned one's too; FLOWTUNE_THROUGHPUT_TILED_MEDIAN (1 / 0) its
// tiled_median; _PERSISTENT_SYNCS, _PERSISTENT_THREADS and
// _PERSISTENT_BLOCKS_PER_SM set the frame solver's FrameOptions::persistent_*;
// FLOWTUNE_THROUGHPUT_FUSED (1 / 0), _HOST_CHUNKS and _HOST_COPY_THREADS its fused_stages,
// host_copy_chunks and host_copy_threads: FUSED=0 HOST_CHUNKS=1 is the frame without launch
// fusion and chunked host copies; _PYRAMID_TILE_X, _PYRAMID_TILE_Y and _PYRAMID_THREADS its
// pyramid_schedule: 32 8 256 is kZoomSchedule32x8; FLOWTUNE_THROUGHPUT_ROF_K its
// rof_iterations_per_launch, the structure-texture stage's Chambolle iterations per launch;
// FLOWTUNE_THROUGHPUT_PROGRAMMATIC (1 / 0) its programmatic_launch,
// FLOWTUNE_THROUGHPUT_PROGRAMMATIC_FRAME (1 / 0) its programmatic_frame_kernels).
//
// Benchmarks, each 5 repetitions (median, min, max as aggregates):
//  - device_ms/<p>: device time per frame: CUDA events around one graph frame (upload, graph,
//    download) on an idle device, median of 50 (cuda::profile_frame's graph_device_ms); the
//    bound the throughput rows are compared with is 1000 / device_ms frames/s; counters
//    it_L<level>_ms: the iterations of each pyramid level in a directly launched frame;
//    st_<stage>_ms: each stage of that frame summed over the levels (upload, normalise,
//    presmooth, pyramid, gradient, warping, iterations, zoom_in, to_planar, download, ...;
//    with fused stages, the default, gradient and zoom_in run inside the warping's launch),
//    host_in_ms / host_out_ms / call_ms: the host copies and compute() of the timeline.
//  - latency_host/<p>/<seq> (RubberWhale, Grove2): wall time of one compute_into() (frames in
//    through pinned buffers, flow out into the caller's FlowField), one frame at a time;
//    counter aepe (against the sequence's ground truth).
//  - latency_host_u8/<p>/<seq>: latency_host through the 8-bit host API (cuda::compute_flow_u8:
//    bytes copied into pinned memory and uploaded, widened on the device), on the frames' grey
//    rounded to 8 bits once before timing (the PNGs are 8-bit RGB, their grey Y = 0.299 R +
//    0.587 G + 0.114 B is not an integer, so the frames are what an 8-bit grey camera would
//    deliver and aepe may differ slightly from latency_host's); counter aepe.
//  - latency_host_locked/<p>/<seq>, latency_host_u8_locked/<p>/<seq>: the same with the
//    frames and the flow page-locked by the caller (FlowSolver::page_lock): uploaded from and
//    downloaded into them by DMA, no copy through the solver's pinned buffers.
//  - latency_device/<p>/<seq>: wall time of one cuda::compute_flow_device() on frames already
//    on the device, caller's stream, until the stream has synchronised.
//  - throughput_host/<p>/streams:k (k = 1..4): measure_throughput with k solvers (k streams,
//    k host threads), the same pair (RubberWhale) every frame (constant size), 200 frames.
//  - throughput_device/<p>/streams:k: one host thread enqueues 200 frames round-robin on k
//    solvers with their own streams (device-pointer API, no host copy), then synchronises.
// Throughput rows report real time per frame (1 / frames_per_s) and counters fps, bound_fps
// (1000 / device_ms of the same protocol, measured first) and of_bound = fps / bound_fps.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/frame_throughput.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace {

using namespace flowtune;
using clock_type = std::chrono::steady_clock;

constexpr int kThroughputFrames = 200;
constexpr int kRepetitions = 5;

struct Protocol {
  std::string name;
  Tvl1Params params;
  std::optional<Config> config;  ///< the whole config (tuned header), else config_of's
};

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::vector<Protocol> protocols() {
  Tvl1Params d;
  d.n_scales = 3;
  d.n_warpings = 1;
  d.iterations = 10;
  d.epsilon = 0;
  // The frame these protocols measured: no median of the flow (the schema's default is
  // now median_window 5; README "Defaults"), in every protocol.
  d.median_window = 0;
  Tvl1Params o = d;
  o.n_scales = 5;
  o.zoom = 0.8;
  o.n_warpings = 5;
  o.iterations = 20;
  Tvl1Params t = d;
  t.n_scales = 5;
  t.zoom = 0.8;
  t.n_warpings = 1;
  t.iterations = 30;
  t.texture_alpha = 0.95;
  // FLOWTUNE_THROUGHPUT_PROTOCOLS: the built-in protocols to run (comma-separated); the
  // default is the two that the frame benchmark run measures, opencv_texture is opt-in.
  const std::string wanted =
      "," + env_or("FLOWTUNE_THROUGHPUT_PROTOCOLS", "default,opencv_accuracy") + ",";
  const std::vector<Protocol> builtin{
      {"default", d, {}}, {"opencv_accuracy", o, {}}, {"opencv_texture", t, {}}};
  std::vector<Protocol> all;
  for (const Protocol& p : builtin)
    if (wanted.find("," + p.name + ",") != std::string::npos) all.push_back(p);
  for (std::size_t a = 1, b; (b = wanted.find(',', a)) != std::string::npos; a = b + 1) {
    const std::string name = wanted.substr(a, b - a);
    if (!name.empty() && std::none_of(builtin.begin(), builtin.end(),
                                      [&](const Protocol& p) { return p.name == name; }))
      throw std::invalid_argument("FLOWTUNE_THROUGHPUT_PROTOCOLS: no protocol '" + name +
                                  "' (default, opencv_accuracy, opencv_texture)");
  }
  const std::string tuned = env_or("FLOWTUNE_THROUGHPUT_TUNED", "");
  if (!tuned.empty())
    all.push_back(
        {"tuned", {}, read_tuned_header(tuned, env_or("FLOWTUNE_THROUGHPUT_TUNED_BOARD", ""))});
  return all;
}

/// The tiled levels' shape from FLOWTUNE_THROUGHPUT_TILED_T / _TILED_DEPTH / _TILED_COARSEN
/// (tunables tiled_t, tiled_depth, tiled_coarsen), each set only where given: every protocol,
/// the tuned header's too.
Config with_tiled_shape(Config c) {
  for (const auto& [env, tunable] :
       {std::pair<const char*, const char*>{"FLOWTUNE_THROUGHPUT_TILED_T", "tiled_t"},
        {"FLOWTUNE_THROUGHPUT_TILED_DEPTH", "tiled_depth"},
        {"FLOWTUNE_THROUGHPUT_TILED_COARSEN", "tiled_coarsen"}}) {
    const std::string value = env_or(env, "");
    if (!value.empty()) c.tunables[tunable] = std::stoi(value);
  }
  return c;
}

Config config_of(const Protocol& p) {
  if (p.config) return with_tiled_shape(*p.config);
  Config c;
  c.variant = env_or("FLOWTUNE_THROUGHPUT_VARIANT", "shared_fusion");
  c.precision = env_or("FLOWTUNE_THROUGHPUT_PRECISION", "f16");
  c.tunables = {{"block_x", std::stoi(env_or("FLOWTUNE_THROUGHPUT_BLOCK_X", "32"))},
                {"block_y", std::stoi(env_or("FLOWTUNE_THROUGHPUT_BLOCK_Y", "8"))},
                {"resident_px", std::stoi(env_or("FLOWTUNE_THROUGHPUT_RESIDENT_PX", "1024"))},
                {"tiled_px", std::stoi(env_or("FLOWTUNE_THROUGHPUT_TILED_PX", "65536"))},
                {"persistent_px", std::stoi(env_or("FLOWTUNE_THROUGHPUT_PERSISTENT_PX", "0"))}};
  c.params = param_values_of(p.params);
  return with_tiled_shape(c);
}

/// The frame solver's options: the defaults, with the persistent levels' grid syncs per
/// iteration and blocks per SM from the environment.
cuda::FrameOptions frame_options() {
  cuda::FrameOptions o;
  o.persistent_syncs =
      std::stoi(env_or("FLOWTUNE_THROUGHPUT_PERSISTENT_SYNCS", std::to_string(o.persistent_syncs)));
  o.persistent_threads = std::stoi(
      env_or("FLOWTUNE_THROUGHPUT_PERSISTENT_THREADS", std::to_string(o.persistent_threads)));
  o.persistent_blocks_per_sm = std::stoi(env_or("FLOWTUNE_THROUGHPUT_PERSISTENT_BLOCKS_PER_SM",
                                                std::to_string(o.persistent_blocks_per_sm)));
  o.fused_stages = env_or("FLOWTUNE_THROUGHPUT_FUSED", "1") != "0";
  o.programmatic_launch = env_or("FLOWTUNE_THROUGHPUT_PROGRAMMATIC", "1") != "0";
  o.programmatic_frame_kernels = env_or("FLOWTUNE_THROUGHPUT_PROGRAMMATIC_FRAME", "0") != "0";
  o.host_copy_chunks =
      std::stoi(env_or("FLOWTUNE_THROUGHPUT_HOST_CHUNKS", std::to_string(o.host_copy_chunks)));
  o.host_copy_threads = std::stoi(
      env_or("FLOWTUNE_THROUGHPUT_HOST_COPY_THREADS", std::to_string(o.host_copy_threads)));
  cuda::frame::ZoomSchedule& z = o.pyramid_schedule;
  z.tile_x = std::stoi(env_or("FLOWTUNE_THROUGHPUT_PYRAMID_TILE_X", std::to_string(z.tile_x)));
  z.tile_y = std::stoi(env_or("FLOWTUNE_THROUGHPUT_PYRAMID_TILE_Y", std::to_string(z.tile_y)));
  z.threads = std::stoi(env_or("FLOWTUNE_THROUGHPUT_PYRAMID_THREADS", std::to_string(z.threads)));
  o.tiled_median = env_or("FLOWTUNE_THROUGHPUT_TILED_MEDIAN", o.tiled_median ? "1" : "0") != "0";
  o.rof_iterations_per_launch =
      std::stoi(env_or("FLOWTUNE_THROUGHPUT_ROF_K", std::to_string(o.rof_iterations_per_launch)));
  return o;
}

std::unique_ptr<FlowSolver> make(const Config& c) {
  const auto* v = dynamic_cast<const FlowVariant*>(find_variant(c.variant));
  if (!v) throw std::runtime_error("bench_frame_throughput: no variant " + c.variant);
  if (auto why = v->invalid_reason(c)) throw std::runtime_error("bench_frame_throughput: " + *why);
  return make_cuda_frame_solver(c, cuda::make_iteration_schedule(c), frame_options());
}

struct Frames {
  Image i0, i1;
  std::vector<std::uint8_t> b0, b1;  ///< i0, i1 rounded to 8 bits (latency_host_u8)
  FlowField gt;
  float *d_i0 = nullptr, *d_i1 = nullptr;
};
std::map<std::string, Frames> g_seq;            ///< RubberWhale, Grove2
const Frames& g_frames = g_seq["RubberWhale"];  // the throughput rows' pair
std::map<std::string, double> g_device_ms;      ///< per protocol, measured first

/// Device buffers of one stream's output.
struct DeviceFlow {
  float* p = nullptr;
  explicit DeviceFlow(std::size_t floats) {
    cudaMalloc(reinterpret_cast<void**>(&p), floats * sizeof(float));
  }
  ~DeviceFlow() { cudaFree(p); }
  DeviceFlow(const DeviceFlow&) = delete;
  DeviceFlow& operator=(const DeviceFlow&) = delete;
};

/// With `locked`, the two frames (`frame_bytes` each) and the flow (already of the frames'
/// size) page-locked by the solver (FlowSolver::page_lock) while the handles live; throws if
/// the solver cannot lock them. Without, no handle.
std::vector<std::shared_ptr<void>> lock_frames(FlowSolver& s, bool locked, const void* i0,
                                               const void* i1, std::size_t frame_bytes,
                                               const FlowField& flow) {
  if (!locked) return {};
  std::vector<std::shared_ptr<void>> locks = {
      s.page_lock(i0, frame_bytes), s.page_lock(i1, frame_bytes),
      s.page_lock(flow.u.data(), flow.u.size() * sizeof(float)),
      s.page_lock(flow.v.data(), flow.v.size() * sizeof(float))};
  for (const auto& l : locks)
    if (!l) throw std::runtime_error("bench_frame_throughput: page_lock failed");
  return locks;
}

/// Min and max over the repetitions next to Google Benchmark's mean / median / stddev.
benchmark::internal::Benchmark* with_min_max(benchmark::internal::Benchmark* b) {
  return b
      ->ComputeStatistics(
          "min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
      ->ComputeStatistics("max", [](const std::vector<double>& v) {
        return *std::max_element(v.begin(), v.end());
      });
}

void set_throughput_counters(benchmark::State& st, const Protocol& p, double fps) {
  const double bound = 1000.0 / g_device_ms[p.name];
  st.counters["fps"] = fps;
  st.counters["bound_fps"] = bound;
  st.counters["of_bound"] = fps / bound;
}

void register_protocol(const Protocol& p) {
  const Config c = config_of(p);
  const std::string tag = p.name;
  with_min_max(
      benchmark::RegisterBenchmark(
          ("device_ms/" + tag).c_str(),
          [p, c](benchmark::State& st) {
            auto s = make(c);
            for (auto _ : st) {
              const auto t = cuda::profile_frame(*s, g_frames.i0, g_frames.i1, 50);
              st.SetIterationTime(t.graph_device_ms * 1e-3);
              st.counters["device_ms"] = t.graph_device_ms;
              st.counters["direct_ms"] = t.direct_device_ms;
              g_device_ms[p.name] = t.graph_device_ms;  // the last repetition's
              // Per level, the iterations' share of the directly launched frame
              // (it_L<level>_ms: whatever kernels ran them: scheme, tiled,
              // persistent), to see the cost per iteration level by level.
              std::map<int, double> it_ms;
              for (const auto& stage : t.stages)
                if (stage.stage.rfind("iterations", 0) == 0) it_ms[stage.level] += stage.ms;
              for (const auto& [level, ms] : it_ms)
                st.counters["it_L" + std::to_string(level) + "_ms"] = ms;
              // Every stage summed over the levels (st_<stage>_ms; the iteration
              // stages under st_iterations_ms) and the host side of compute():
              // the frame's timeline as raw output (read by the timeline summary).
              std::map<std::string, double> stage_ms;
              for (const auto& stage : t.stages)
                stage_ms[stage.stage.rfind("iterations", 0) == 0 ? "iterations" : stage.stage] +=
                    stage.ms;
              for (const auto& [stage, ms] : stage_ms) st.counters["st_" + stage + "_ms"] = ms;
              st.counters["host_in_ms"] = t.host_in_ms;
              st.counters["host_out_ms"] = t.host_out_ms;
              st.counters["call_ms"] = t.call_ms;
              st.counters["timed_stages"] = double(t.stages.size());
            }
          }))
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(kRepetitions)
      ->Unit(benchmark::kMillisecond);

  for (const char* seq : {"RubberWhale", "Grove2"}) {
    const Frames* fr = &g_seq.at(seq);
    for (const bool locked : {false, true}) {
      const std::string suffix = locked ? "_locked/" : "/";
      with_min_max(benchmark::RegisterBenchmark(
                       ("latency_host" + suffix + tag + "/" + seq).c_str(),
                       [c, fr, locked](benchmark::State& st) {
                         auto s = make(c);
                         FlowField flow;
                         s->compute_into(fr->i0, fr->i1, flow);
                         const auto locks =
                             lock_frames(*s, locked, fr->i0.data.data(), fr->i1.data.data(),
                                         fr->i0.size() * sizeof(float), flow);
                         for (int i = 0; i < 3; ++i) s->compute_into(fr->i0, fr->i1, flow);
                         for (auto _ : st) {
                           const auto t0 = clock_type::now();
                           s->compute_into(fr->i0, fr->i1, flow);
                           st.SetIterationTime(
                               std::chrono::duration<double>(clock_type::now() - t0).count());
                         }
                         st.counters["aepe"] = flow_error(flow, fr->gt).aepe;
                       }))
          ->UseManualTime()
          ->MinTime(0.1)
          ->Repetitions(kRepetitions)
          ->Unit(benchmark::kMillisecond);

      with_min_max(benchmark::RegisterBenchmark(
                       ("latency_host_u8" + suffix + tag + "/" + seq).c_str(),
                       [c, fr, locked](benchmark::State& st) {
                         auto s = make(c);
                         const int w = fr->i0.width, h = fr->i0.height;
                         FlowField flow;
                         cuda::compute_flow_u8(*s, fr->b0.data(), fr->b1.data(), w, h, w, flow);
                         const auto locks = lock_frames(*s, locked, fr->b0.data(), fr->b1.data(),
                                                        fr->b0.size(), flow);
                         for (int i = 0; i < 3; ++i)
                           cuda::compute_flow_u8(*s, fr->b0.data(), fr->b1.data(), w, h, w, flow);
                         for (auto _ : st) {
                           const auto t0 = clock_type::now();
                           cuda::compute_flow_u8(*s, fr->b0.data(), fr->b1.data(), w, h, w, flow);
                           st.SetIterationTime(
                               std::chrono::duration<double>(clock_type::now() - t0).count());
                         }
                         st.counters["aepe"] = flow_error(flow, fr->gt).aepe;
                       }))
          ->UseManualTime()
          ->MinTime(0.1)
          ->Repetitions(kRepetitions)
          ->Unit(benchmark::kMillisecond);
    }

    with_min_max(benchmark::RegisterBenchmark(
                     ("latency_device/" + tag + "/" + seq).c_str(),
                     [c, fr](benchmark::State& st) {
                       auto s = make(c);
                       const int w = fr->i0.width, h = fr->i0.height;
                       DeviceFlow out(2 * std::size_t(w) * h);
                       cudaStream_t stream = nullptr;
                       cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
                       for (int i = 0; i < 3; ++i) {
                         cuda::compute_flow_device(*s, fr->d_i0, fr->d_i1, w, h, out.p, stream);
                         cudaStreamSynchronize(stream);
                       }
                       for (auto _ : st) {
                         const auto t0 = clock_type::now();
                         cuda::compute_flow_device(*s, fr->d_i0, fr->d_i1, w, h, out.p, stream);
                         cudaStreamSynchronize(stream);
                         st.SetIterationTime(
                             std::chrono::duration<double>(clock_type::now() - t0).count());
                       }
                       cudaStreamDestroy(stream);
                     }))
        ->UseManualTime()
        ->MinTime(0.1)
        ->Repetitions(kRepetitions)
        ->Unit(benchmark::kMillisecond);
  }

  for (int k = 1; k <= 4; ++k) {
    with_min_max(
        benchmark::RegisterBenchmark(
            ("throughput_host/" + tag + "/streams:" + std::to_string(k)).c_str(),
            [p, c, k](benchmark::State& st) {
              std::vector<std::unique_ptr<FlowSolver>> solvers;
              for (int i = 0; i < k; ++i) solvers.push_back(make(c));
              const std::vector<std::pair<Image, Image>> pairs{{g_frames.i0, g_frames.i1}};
              FlowField warm;  // warm-up, two frames each: buffers, then the graph's capture
              for (auto& solver : solvers)
                for (int i = 0; i < 2; ++i) solver->compute_into(g_frames.i0, g_frames.i1, warm);
              for (auto _ : st) {
                const auto r = measure_throughput(solvers, pairs, kThroughputFrames);
                st.SetIterationTime(1.0 / r.frames_per_second);
                set_throughput_counters(st, p, r.frames_per_second);
                st.counters["latency_ms"] = r.median_latency_ms;
              }
            }))
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(kRepetitions)
        ->Unit(benchmark::kMillisecond);

    with_min_max(benchmark::RegisterBenchmark(
                     ("throughput_device/" + tag + "/streams:" + std::to_string(k)).c_str(),
                     [p, c, k](benchmark::State& st) {
                       const int w = g_frames.i0.width, h = g_frames.i0.height;
                       std::vector<std::unique_ptr<FlowSolver>> solvers;
                       std::vector<std::unique_ptr<DeviceFlow>> outs;
                       std::vector<cudaStream_t> streams(std::size_t(k), nullptr);
                       for (int i = 0; i < k; ++i) {
                         solvers.push_back(make(c));
                         outs.push_back(std::make_unique<DeviceFlow>(2 * std::size_t(w) * h));
                         cudaStreamCreateWithFlags(&streams[std::size_t(i)], cudaStreamNonBlocking);
                       }
                       auto run = [&](int frames) {
                         for (int f = 0; f < frames; ++f) {
                           const std::size_t i = std::size_t(f % k);
                           cuda::compute_flow_device(*solvers[i], g_frames.d_i0, g_frames.d_i1, w,
                                                     h, outs[i]->p, streams[i]);
                         }
                         for (auto s : streams) cudaStreamSynchronize(s);
                       };
                       run(2 * k);  // warm-up: buffers and graphs
                       for (auto _ : st) {
                         const auto t0 = clock_type::now();
                         run(kThroughputFrames);
                         const double s =
                             std::chrono::duration<double>(clock_type::now() - t0).count();
                         st.SetIterationTime(s / kThroughputFrames);
                         set_throughput_counters(st, p, kThroughputFrames / s);
                       }
                       for (auto s : streams) cudaStreamDestroy(s);
                     }))
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(kRepetitions)
        ->Unit(benchmark::kMillisecond);
  }
}

std::string repo_data_root() {
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA")) return env;
  if (std::ifstream("data/middlebury/RubberWhale/frame10.png")) return "data";
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("tests/bench/")) + "data";
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<Protocol> all;
  try {
    all = protocols();
  } catch (const std::exception& e) {  // an unreadable tuned header, an unknown protocol
    std::fprintf(stderr, "bench_frame_throughput: %s\n", e.what());
    return 1;
  }
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("bench_frame_throughput: no CUDA device, nothing to measure\n");
    return 0;
  }
  for (const char* seq : {"RubberWhale", "Grove2"}) {
    const std::string dir = repo_data_root() + "/middlebury/" + seq + "/";
    Frames& f = g_seq[seq];
    f.i0 = read_png_gray(dir + "frame10.png");
    f.i1 = read_png_gray(dir + "frame11.png");
    f.gt = read_flo(dir + "flow10.flo");
    for (const auto& [img, bytes] : {std::make_pair(&f.i0, &f.b0), std::make_pair(&f.i1, &f.b1)})
      for (const float v : img->data)
        bytes->push_back(std::uint8_t(std::lround(std::min(255.f, std::max(0.f, v)))));
    const std::size_t bytes = f.i0.size() * sizeof(float);
    cudaMalloc(reinterpret_cast<void**>(&f.d_i0), bytes);
    cudaMalloc(reinterpret_cast<void**>(&f.d_i1), bytes);
    cudaMemcpy(f.d_i0, f.i0.data.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(f.d_i1, f.i1.data.data(), bytes, cudaMemcpyHostToDevice);
  }
  for (const Protocol& p : all) {
    register_protocol(p);
    benchmark::AddCustomContext("config_" + p.name, config_of(p).label());
  }
  benchmark::AddCustomContext("frames", "RubberWhale 584x388, the same pair every frame");
  benchmark::AddCustomContext("persistent_syncs", std::to_string(frame_options().persistent_syncs));
  benchmark::AddCustomContext("persistent_threads",
                              std::to_string(frame_options().persistent_threads));
  benchmark::AddCustomContext("persistent_blocks_per_sm",
                              std::to_string(frame_options().persistent_blocks_per_sm));
  benchmark::AddCustomContext("fused_stages", frame_options().fused_stages ? "1" : "0");
  benchmark::AddCustomContext("host_copy_chunks", std::to_string(frame_options().host_copy_chunks));
  benchmark::AddCustomContext("host_copy_threads",
                              std::to_string(frame_options().host_copy_threads));
  const cuda::frame::ZoomSchedule& z = frame_options().pyramid_schedule;
  benchmark::AddCustomContext(
      "pyramid_schedule",
      std::to_string(z.tile_x) + "x" + std::to_string(z.tile_y) + "/" + std::to_string(z.threads));
  benchmark::AddCustomContext("rof_iterations_per_launch",
                              std::to_string(frame_options().rof_iterations_per_launch));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (auto& [name, f] : g_seq) {
    cudaFree(f.d_i0);
    cudaFree(f.d_i1);
  }
  return 0;
}
