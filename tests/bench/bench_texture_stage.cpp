// Device time of the structure-texture stage alone (Wedel et al. 2009, sec. 2.3;
// kernels/cuda/frame/texture_kernels.hpp): the joint normalisation, rof_iterations = 100
// Chambolle iterations (rof_theta 0.125) and the texture (alpha 0.95) of a frame pair, at
// k = 1, 2, 4, 8, 16, 25 iterations per launch, on RubberWhale (584x388) and Grove2 (640x480)
// of the repo's data (the texture-stage benchmark run on the GPU machine).
//
// Benchmark texture_stage/<seq>/k:<k>, one iteration: FLOWTUNE_TEXTURE_REPS (default 30)
// timed runs after two warm-up runs, each from the raw frames (a device-to-device copy before
// it, not timed), CUDA events around the stage:
//  - launched directly on a stream: counters direct_median_ms, direct_min_ms, direct_max_ms;
//  - as a CUDA Graph of the stage (as the frame solver replays it): graph_median_ms,
//    graph_min_ms, graph_max_ms (the benchmark's time is graph_median_ms);
// launches (kernel launches of the stage) and reps. Without a CUDA device it prints a line
// and measures nothing.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/frame/texture_kernels.hpp"
#include "kernels/png_io.hpp"

namespace {

using namespace flowtune;

constexpr float kAlpha = 0.95f, kTheta = 0.125f;
constexpr int kIterations = 100;

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("bench_texture_stage: ") + what + ": " +
                             cudaGetErrorString(e));
}

std::string repo_data_root() {
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA")) return env;
  if (std::ifstream("data/middlebury/RubberWhale/frame10.png")) return "data";
  const std::string here = __FILE__;
  return here.substr(0, here.rfind("tests/bench/")) + "data";
}

struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return {v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]), v.front(), v.back()};
}

/// The device buffers of one measurement: raw frames, the frames the stage works on in place,
/// its scratch and the joint (min, max).
struct Stage {
  int w = 0, h = 0, k = 1;
  float *raw = nullptr, *f = nullptr, *scratch = nullptr, *minmax = nullptr;
  Stage(const Image& a, const Image& b, int iterations_per_launch)
      : w(a.width), h(a.height), k(iterations_per_launch) {
    const std::size_t n = a.size();
    std::vector<float> frames(a.data);
    frames.insert(frames.end(), b.data.begin(), b.data.end());
    const auto [lo, hi] = std::minmax_element(frames.begin(), frames.end());
    const float mm[2] = {*lo, *hi};
    const std::size_t s = cuda::frame::structure_texture_scratch_floats(w, h, k);
    ok(cudaMalloc(reinterpret_cast<void**>(&raw), 2 * n * sizeof(float)), "cudaMalloc");
    ok(cudaMalloc(reinterpret_cast<void**>(&f), 2 * n * sizeof(float)), "cudaMalloc");
    ok(cudaMalloc(reinterpret_cast<void**>(&scratch), s * sizeof(float)), "cudaMalloc");
    ok(cudaMalloc(reinterpret_cast<void**>(&minmax), 2 * sizeof(float)), "cudaMalloc");
    ok(cudaMemcpy(raw, frames.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    ok(cudaMemcpy(minmax, mm, sizeof(mm), cudaMemcpyHostToDevice), "upload");
  }
  ~Stage() {
    cudaFree(raw);
    cudaFree(f);
    cudaFree(scratch);
    cudaFree(minmax);
  }
  Stage(const Stage&) = delete;
  Stage& operator=(const Stage&) = delete;
  void reset(cudaStream_t s) const {
    ok(cudaMemcpyAsync(f, raw, 2 * std::size_t(w) * h * sizeof(float), cudaMemcpyDeviceToDevice, s),
       "reset");
  }
  void run(cudaStream_t s) const {
    const std::size_t n = std::size_t(w) * h;
    cuda::frame::structure_texture_pair(f, f + n, w, h, scratch, minmax, kAlpha, kTheta,
                                        kIterations, k, {s, false});
  }
};

/// Device ms of `reps` runs of `body` (after two warm-ups), each after stage.reset.
template <class Body>
std::vector<double> time_runs(const Stage& stage, cudaStream_t s, int reps, const Body& body) {
  cudaEvent_t e0, e1;
  ok(cudaEventCreate(&e0), "cudaEventCreate");
  ok(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<double> ms;
  for (int r = -2; r < reps; ++r) {
    stage.reset(s);
    ok(cudaEventRecord(e0, s), "cudaEventRecord");
    body();
    ok(cudaEventRecord(e1, s), "cudaEventRecord");
    ok(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float t = 0;
    ok(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
    if (r >= 0) ms.push_back(t);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return ms;
}

void bench_stage_or_throw(benchmark::State& st, const Image* a, const Image* b, int k) {
  const int reps = std::max(
      1, std::atoi(std::getenv("FLOWTUNE_TEXTURE_REPS") ? std::getenv("FLOWTUNE_TEXTURE_REPS")
                                                        : "30"));
  Stage stage(*a, *b, k);
  cudaStream_t s = nullptr;
  ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  stage.run(s);
  ok(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
  ok(cudaGraphInstantiateWithFlags(&exec, graph, 0), "cudaGraphInstantiate");
  for (auto _ : st) {
    const Stats direct = stats_of(time_runs(stage, s, reps, [&] { stage.run(s); }));
    const Stats graphed = stats_of(
        time_runs(stage, s, reps, [&] { ok(cudaGraphLaunch(exec, s), "cudaGraphLaunch"); }));
    st.SetIterationTime(graphed.median * 1e-3);
    st.counters["direct_median_ms"] = direct.median;
    st.counters["direct_min_ms"] = direct.min;
    st.counters["direct_max_ms"] = direct.max;
    st.counters["graph_median_ms"] = graphed.median;
    st.counters["graph_min_ms"] = graphed.min;
    st.counters["graph_max_ms"] = graphed.max;
  }
  std::size_t nodes = 0;
  ok(cudaGraphGetNodes(graph, nullptr, &nodes), "cudaGraphGetNodes");
  st.counters["graph_nodes"] = double(nodes);  // kernels and the memset of k = 1
  st.counters["reps"] = reps;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

void bench_stage(benchmark::State& st, const Image* a, const Image* b, int k) {
  try {
    bench_stage_or_throw(st, a, b, k);
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("bench_texture_stage: no CUDA device, nothing to measure\n");
    return 0;
  }
  static Image frames[2][2];
  const char* seqs[2] = {"RubberWhale", "Grove2"};
  try {
    for (int i = 0; i < 2; ++i) {
      const std::string dir = repo_data_root() + "/middlebury/" + seqs[i] + "/";
      frames[i][0] = read_png_gray(dir + "frame10.png");
      frames[i][1] = read_png_gray(dir + "frame11.png");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_texture_stage: %s\n", e.what());
    return 1;
  }
  for (int i = 0; i < 2; ++i)
    for (int k : {1, 2, 4, 8, 16, 25})
      benchmark::RegisterBenchmark(
          ("texture_stage/" + std::string(seqs[i]) + "/k:" + std::to_string(k)).c_str(),
          bench_stage, &frames[i][0], &frames[i][1], k)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
  benchmark::AddCustomContext("rof_iterations", std::to_string(kIterations));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
