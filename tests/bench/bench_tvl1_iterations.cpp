// Benchmark of the TV-L1 inner iterations of every CUDA variant x precision (Romera et al.
// 2023, table 1 protocol): monoscale, 1 warping, 10 iterations, non-constant images, square
// sizes 128^2 .. 4096^2, a small sweep of tunables, and the tiled levels' kernel (rows named
// "tiled": temporal tiling in shared memory, tiled_depth iterations per launch) in a few shapes.
// Manual time from CUDA events.
// Counters: ns_per_px, GB/s (60 B/px per 10 iterations in f32, 30 in f16/mixed: ARCHITECTURE.md's
// count - read grad x2, rho_c, u x2, p x4, write u x2, p x4 once per 10 fused iterations),
// GFLOP/s (kFlopsPerPixelIteration). The memory floor comes from a device-to-device copy in
// the same run. At the end a Markdown table (best tunables per variant x precision and size)
// is printed and, when $FLOWTUNE_BENCH_MD is set, written there.
// Raw output: --benchmark_out=F.json --benchmark_out_format=json; $FLOWTUNE_BENCH_REPETITIONS
// (default 1) repeats every benchmark, with median, min and max aggregates in the JSON
// (the benchmark run of the committed raw outputs uses 5, and its summary makes the tables); the
// copy bandwidth is in the JSON context (copy_GB_per_s).
#include <benchmark/benchmark.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tvl1_iteration_sweep.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/tiled_levels.hpp"
#include "variants/variant.hpp"

using flowtune::Config;
using namespace flowtune::cuda;
using flowtune::bench::Fields;
using flowtune::bench::fields_for;
using flowtune::bench::protocol_config;
using flowtune::bench::sweeps;

namespace {

constexpr int kIterations = flowtune::bench::kProtocolIterations;
/// Floating-point operations per pixel and iteration, counted from tvl1_math.cuh (update_u:
/// rho 4, |grad|^2 3, threshold 2, v 4, divergence 6, u 4; update_p: gradients 4, norms 6 +
/// 2 sqrt, denominators 4 + 2 rcp, p 12), a sqrt, rcp or division counted as one.
constexpr double kFlopsPerPixelIteration = 53;
/// Square sizes measured: $FLOWTUNE_BENCH_SIZES (comma-separated, e.g. "2048") or all of
/// 128^2 .. 4096^2.
std::vector<int> bench_sizes() {
  std::vector<int> sizes;
  if (const char* env = std::getenv("FLOWTUNE_BENCH_SIZES")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) sizes.push_back(std::stoi(item));
  }
  if (sizes.empty()) sizes = {128, 256, 512, 1024, 2048, 4096};
  return sizes;
}
const std::vector<int> kSizes = bench_sizes();

double bytes_per_px(const std::string& precision) {
  return precision == "f32" ? 60.0 : 30.0;
}

struct Result {
  std::string label;
  double ns_per_px = 0;
};
/// "label size" -> the last call's result. Google Benchmark calls a benchmark several times
/// (short calibration runs first, then the reported run, once per repetition); only the
/// last call is a reported run, so the Markdown table is made from these, not from the
/// minimum over every call (which favoured the noisier calibration runs).
std::map<std::string, std::pair<std::string, Result>> g_last;
std::map<std::string, Result> g_best;  // "variant precision size" -> best result (of g_last)
double g_copy_bytes_per_s = 0;

/// Median of per-run times.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Times run(fields, kIterations) on n x n fields of config's storage (CUDA events, median of
/// the timed runs) and records the result under config's label; `run` launches on the legacy
/// stream.
template <class Run>
void bench_runs(benchmark::State& state, const Config& config, int n, const Run& run) {
  try {
    Fields& fields = fields_for(n, storage_of(config.precision));
    cudaEvent_t start, stop;
    check_cuda(cudaEventCreate(&start), "event");
    check_cuda(cudaEventCreate(&stop), "event");
    run(fields.f);  // warm-up (scratch allocation, caches)
    check_cuda(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> times_s;
    for (auto _ : state) {
      check_cuda(cudaEventRecord(start, nullptr), "record");
      run(fields.f);
      check_cuda(cudaEventRecord(stop, nullptr), "record");
      check_cuda(cudaEventSynchronize(stop), "sync");
      float ms = 0;
      check_cuda(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      state.SetIterationTime(ms * 1e-3);
      times_s.push_back(ms * 1e-3);
    }
    check_cuda(cudaGetLastError(), "launches");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    const double px = double(n) * n, t = median(times_s);
    const double ns_px = t * 1e9 / px;
    state.counters["ns_per_px"] = ns_px;
    state.counters["GB_per_s"] = bytes_per_px(config.precision) * px / t * 1e-9;
    state.counters["GFLOP_per_s"] = kFlopsPerPixelIteration * kIterations * px / t * 1e-9;
    const std::string key = config.variant + " " + config.precision + " " + std::to_string(n);
    g_last[config.label() + " " + std::to_string(n)] = {key, {config.label(), ns_px}};
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

/// A config's iteration schedule (make_iteration_schedule), kIterations per run.
void bench_schedule(benchmark::State& state, const Config& config, int n) {
  std::unique_ptr<IterationSchedule> schedule;
  try {
    schedule = make_iteration_schedule(config);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  bench_runs(state, config, n,
             [&](const DeviceFields& f) { schedule->run(f, kIterations, nullptr); });
}

/// The tiled levels' kernel (variants/cuda/tiled_levels.hpp: temporal tiling in shared memory,
/// tiled_depth iterations per launch) as the whole level's schedule, kIterations per run.
void bench_tiled(benchmark::State& state, const Config& config, int n) {
  std::unique_ptr<TiledLevels> tiled;
  try {
    tiled = std::make_unique<TiledLevels>(config, n * n);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  bench_runs(state, config, n, [&](const DeviceFields& f) { tiled->run(f, kIterations, nullptr); });
}

/// The tiled kernel's shapes measured (tiled_t, tiled_depth, tiled_coarsen): the default, the
/// depths that make 10 iterations 2 or 3 launches, and the 64^2 regions of thread coarsening.
std::vector<std::map<std::string, int>> tiled_shapes() {
  std::vector<std::map<std::string, int>> out;
  for (const auto& [t, depth, coarsen] : std::vector<std::tuple<int, int, int>>{
           {32, 4, 1}, {32, 5, 1}, {32, 10, 2}, {16, 5, 2}, {16, 5, 4}})
    out.push_back({{"tiled_t", t}, {"tiled_depth", depth}, {"tiled_coarsen", coarsen}});
  return out;
}

/// Device-to-device copy bandwidth (bytes read + written per second) of a 1 GiB buffer.
double measure_copy_bandwidth() {
  const std::size_t bytes = std::size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  check_cuda(cudaMalloc(&a, bytes), "cudaMalloc");
  check_cuda(cudaMalloc(&b, bytes), "cudaMalloc");
  check_cuda(cudaMemset(a, 1, bytes), "memset");
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> t;
  for (int r = 0; r < 12; ++r) {
    cudaEventRecord(start, nullptr);
    check_cuda(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, nullptr), "copy");
    cudaEventRecord(stop, nullptr);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (r >= 2) t.push_back(ms * 1e-3);
  }
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(bytes) / median(t);
}

std::string markdown_table() {
  std::ostringstream os;
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  os << "## TV-L1 inner iterations, " << prop.name << " (monoscale, 1 warping, " << kIterations
     << " iterations)\n\n";
  os << "Copy bandwidth (device-to-device, read + write): " << g_copy_bytes_per_s * 1e-9
     << " GB/s; floor = bytes/px (60 f32, 30 f16/mixed) / copy bandwidth.\n\n";
  os << "| size | variant | precision | best tunables | ns/px | x floor | GB/s | GFLOP/s | "
        "speed-up vs global f32 |\n";
  os << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [label, last] : g_last) {
    auto it = g_best.find(last.first);
    if (it == g_best.end() || last.second.ns_per_px < it->second.ns_per_px)
      g_best[last.first] = last.second;
  }
  for (int n : kSizes) {
    const auto base = g_best.find("global f32 " + std::to_string(n));
    std::vector<std::string> variants;
    for (const auto& s : sweeps()) variants.push_back(s.variant);
    variants.push_back("tiled");
    for (const auto& v : variants)
      for (const std::string p : {"f32", "f16", "mixed"}) {
        auto it = g_best.find(v + " " + p + " " + std::to_string(n));
        if (it == g_best.end()) continue;
        const double floor_ns = bytes_per_px(p) / g_copy_bytes_per_s * 1e9;
        char line[512];
        const double ns = it->second.ns_per_px;
        std::snprintf(line, sizeof line,
                      "| %d^2 | %s | %s | %s | %.4f | %.1f | %.0f | %.0f | %.2f |\n", n, v.c_str(),
                      p.c_str(), it->second.label.c_str(), ns, ns / floor_ns, bytes_per_px(p) / ns,
                      kFlopsPerPixelIteration * kIterations / ns,
                      base == g_best.end() ? 0.0 : base->second.ns_per_px / it->second.ns_per_px);
        os << line;
      }
  }
  return os.str();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!device_available()) {
    std::printf("bench_tvl1_iterations: no CUDA device, nothing to measure\n");
    return 0;
  }
  g_copy_bytes_per_s = measure_copy_bandwidth();
  std::printf("copy bandwidth: %.1f GB/s\n", g_copy_bytes_per_s * 1e-9);
  // $FLOWTUNE_BENCH_MIN_TIME: seconds per benchmark (default 0.05; longer for a power
  // measurement of one config on the GPU machine).
  const char* min_time_env = std::getenv("FLOWTUNE_BENCH_MIN_TIME");
  const double min_time = min_time_env ? std::stod(min_time_env) : 0.05;
  const char* repetitions_env = std::getenv("FLOWTUNE_BENCH_REPETITIONS");
  const int repetitions = repetitions_env ? std::max(1, std::stoi(repetitions_env)) : 1;
  benchmark::AddCustomContext("copy_GB_per_s", std::to_string(g_copy_bytes_per_s * 1e-9));
  benchmark::AddCustomContext("iterations_per_run", std::to_string(kIterations));
  const auto add = [&](const Config& c, int n, bool tiled) {
    auto* b =
        benchmark::RegisterBenchmark((c.label() + " " + std::to_string(n)).c_str(),
                                     [c, n, tiled](benchmark::State& st) {
                                       tiled ? bench_tiled(st, c, n) : bench_schedule(st, c, n);
                                     })
            ->UseManualTime()
            ->MinTime(min_time)
            ->Unit(benchmark::kMicrosecond);
    if (repetitions > 1)
      b->Repetitions(repetitions)
          ->ComputeStatistics(
              "min",
              [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
          ->ComputeStatistics("max", [](const std::vector<double>& v) {
            return *std::max_element(v.begin(), v.end());
          });
  };
  for (int n : kSizes) {
    for (const auto& s : sweeps())
      for (const std::string p : {"f32", "f16", "mixed"})
        for (const auto& t : s.tunables) {
          const Config c = protocol_config(s.variant, p, t);
          // A tunable the precision or the GPU lacks (staging=1: f16, below sm_80) is no run.
          const flowtune::Variant* variant = flowtune::find_variant(c.variant);
          if (variant == nullptr || variant->invalid_reason(c) ||
              arch_invalid_reason(c.variant, c, current_device_arch()))
            continue;
          add(c, n, false);
        }
    // The tiled levels' kernel, named "tiled" in the rows and the table (a per-level scheme,
    // not a variant: the frame runs it on the levels of at most tiled_px pixels).
    for (const std::string p : {"f32", "f16", "mixed"})
      for (const auto& t : tiled_shapes()) {
        Config c = protocol_config("tiled", p, t);
        if (tiled_shape_invalid_reason(tiled_shape_of(c), p)) continue;
        add(c, n, true);
      }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const std::string table = markdown_table();
  std::printf("\n%s", table.c_str());
  if (const char* path = std::getenv("FLOWTUNE_BENCH_MD")) std::ofstream(path) << table;
  return 0;
}
