// Energy per pixel of the TV-L1 inner iterations (paper fig. 12: ns/px against nJ/px, Romera
// et al. 2023, table 1 protocol: monoscale, 1 warping, 10 iterations, non-constant fields).
// For every CUDA variant x precision it times each tunable set of the shared sweep
// (tvl1_iteration_sweep.hpp; CUDA events, median of $FLOWTUNE_BENCH_TIMED_RUNS runs after a
// warm-up), keeps the fastest, and measures its energy with the board's sensor
// (boards/energy_sensor.hpp; on an H200 the NVML total-energy counter): the 10-iteration run
// repeated back to back for at least $FLOWTUNE_ENERGY_WINDOW_MS (default 600, the sensor's
// minimum is 200) in one window, $FLOWTUNE_ENERGY_WINDOWS windows (default 3). A window of the
// same length with the GPU idle is measured first. Clocks are read, never set.
// Usage: bench_tvl1_energy [--board NAME|auto] [--out FILE.json]; $FLOWTUNE_BENCH_SIZES (default
// "2048"). The JSON holds every window; python3 -m benchmarks.summarise energy-per-pixel FOLDER
// prints the fig. 12 table and SVG. Without a CUDA device it says so and exits 0.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "boards/board.hpp"
#include "boards/energy_sensor.hpp"
#include "boards/nvml.hpp"
#include "tvl1_iteration_sweep.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/device_fields.hpp"

namespace {

using flowtune::Config;
using flowtune::EnergySensor;
using flowtune::bench::Fields;
using flowtune::cuda::check_cuda;

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::max(1, std::atoi(v)) : fallback;
}

std::vector<int> sizes() {
  std::vector<int> out;
  const char* env = std::getenv("FLOWTUNE_BENCH_SIZES");
  std::stringstream ss(env && *env ? env : "2048");
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(std::stoi(item));
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string json_number(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", *v);
  return b;
}

std::optional<double> clock_mhz() {
  if (auto* nvml = flowtune::Nvml::get())
    if (auto c = nvml->graphics_clock_mhz()) return double(*c);
  return std::nullopt;
}

/// Median time in ms of one 10-iteration run of config on fields (after one warm-up run).
double time_run_ms(flowtune::cuda::IterationSchedule& schedule, Fields& fields, int runs) {
  cudaEvent_t a, b;
  check_cuda(cudaEventCreate(&a), "event");
  check_cuda(cudaEventCreate(&b), "event");
  schedule.run(fields.f, flowtune::bench::kProtocolIterations, nullptr);
  check_cuda(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    check_cuda(cudaEventRecord(a, nullptr), "record");
    schedule.run(fields.f, flowtune::bench::kProtocolIterations, nullptr);
    check_cuda(cudaEventRecord(b, nullptr), "record");
    check_cuda(cudaEventSynchronize(b), "sync");
    float t = 0;
    check_cuda(cudaEventElapsedTime(&t, a, b), "elapsed");
    ms.push_back(t);
  }
  check_cuda(cudaGetLastError(), "launches");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(ms);
}

/// One energy window: `runs` back-to-back runs between two events, the sensor read around.
struct Window {
  int runs = 0;
  double elapsed_ms = 0;
  std::optional<double> energy_mj;
  std::optional<double> clock_mhz;
};

Window energy_window(flowtune::cuda::IterationSchedule& schedule, Fields& fields, int runs,
                     EnergySensor& sensor) {
  cudaEvent_t a, b;
  check_cuda(cudaEventCreate(&a), "event");
  check_cuda(cudaEventCreate(&b), "event");
  check_cuda(cudaDeviceSynchronize(), "sync");
  Window w;
  w.runs = runs;
  sensor.start();
  check_cuda(cudaEventRecord(a, nullptr), "record");
  for (int r = 0; r < runs; ++r)
    schedule.run(fields.f, flowtune::bench::kProtocolIterations, nullptr);
  check_cuda(cudaEventRecord(b, nullptr), "record");
  w.clock_mhz = clock_mhz();
  check_cuda(cudaEventSynchronize(b), "sync");
  w.energy_mj = sensor.stop_mj();
  float t = 0;
  check_cuda(cudaEventElapsedTime(&t, a, b), "elapsed");
  w.elapsed_ms = t;
  check_cuda(cudaGetLastError(), "launches");
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return w;
}

std::string window_json(const Window& w) {
  std::ostringstream os;
  os << "{\"runs\": " << w.runs << ", \"elapsed_ms\": " << json_number(w.elapsed_ms)
     << ", \"energy_mj\": " << json_number(w.energy_mj)
     << ", \"sm_clock_mhz\": " << json_number(w.clock_mhz) << "}";
  return os.str();
}

int run(int argc, char** argv) {
  std::string board_name = "auto", out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--board" || a == "--out") && i + 1 < argc)
      (a == "--board" ? board_name : out_path) = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_tvl1_energy [--board NAME|auto] [--out FILE.json]\n");
      return 2;
    }
  }
  if (!flowtune::cuda::device_available()) {
    std::printf("bench_tvl1_energy: no CUDA device, nothing to measure\n");
    return 0;
  }
  if (board_name == "auto") board_name = flowtune::detect_board_name();
  const flowtune::Board board = flowtune::load_board(board_name);
  std::unique_ptr<EnergySensor> sensor = flowtune::make_energy_sensor(board);
  const int window_ms = env_int("FLOWTUNE_ENERGY_WINDOW_MS", 600);
  const int windows = env_int("FLOWTUNE_ENERGY_WINDOWS", 3);
  const int timed_runs = env_int("FLOWTUNE_BENCH_TIMED_RUNS", 20);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("bench_tvl1_energy: %s, board %s, sensor %s, windows %d x >= %d ms\n", prop.name,
              board.name.c_str(), sensor ? sensor->name().c_str() : "none", windows, window_ms);

  std::ostringstream js;
  js << "{\n  \"device\": " << json_string(prop.name)
     << ",\n  \"board\": " << json_string(board.name)
     << ",\n  \"sensor\": " << (sensor ? json_string(sensor->name()) : "null")
     << ",\n  \"iterations_per_run\": " << flowtune::bench::kProtocolIterations
     << ",\n  \"window_ms\": " << window_ms << ",\n  \"clock_control\": \"none (clocks as found)\"";
  // The idle window: the same sensor with no work queued, for the board's floor.
  if (sensor) {
    check_cuda(cudaDeviceSynchronize(), "sync");
    sensor->start();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(window_ms));
    const auto e = sensor->stop_mj();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    js << ",\n  \"idle\": {\"elapsed_ms\": " << json_number(ms)
       << ", \"energy_mj\": " << json_number(e)
       << ", \"sm_clock_mhz\": " << json_number(clock_mhz()) << "}";
    std::printf("idle: %.1f ms, %s mJ\n", ms, json_number(e).c_str());
  }
  js << ",\n  \"rows\": [";
  // The JSON so far, closed, written after every row: a run cut short keeps its rows.
  const auto write = [&](bool final_write) {
    const std::string text = js.str() + "\n  ]\n}\n";
    if (out_path.empty()) {
      if (final_write) std::cout << text;
      return true;
    }
    std::ofstream f(out_path);
    f << text;
    if (!f) std::fprintf(stderr, "bench_tvl1_energy: cannot write %s\n", out_path.c_str());
    return bool(f);
  };
  bool first = true;
  for (int n : sizes()) {
    const double px = double(n) * n;
    for (const auto& s : flowtune::bench::sweeps())
      for (const std::string p : {"f32", "f16", "mixed"}) {
        Fields& fields = flowtune::bench::fields_for(n, flowtune::cuda::storage_of(p));
        std::string best_label;
        double best_ms = 0;
        std::unique_ptr<flowtune::cuda::IterationSchedule> best;
        int candidates = 0;
        for (const auto& t : s.tunables) {
          const Config c = flowtune::bench::protocol_config(s.variant, p, t);
          try {
            auto schedule = flowtune::cuda::make_iteration_schedule(c);
            const double ms = time_run_ms(*schedule, fields, timed_runs);
            ++candidates;
            if (!best || ms < best_ms) {
              best_ms = ms;
              best_label = c.label();
              best = std::move(schedule);
            }
          } catch (const std::exception& e) {
            std::printf("  %s %d^2: skipped (%s)\n", c.label().c_str(), n, e.what());
          }
        }
        if (!best) continue;
        const int runs = std::max(1, int(std::ceil(window_ms / best_ms)));
        std::vector<Window> ws;
        if (sensor)
          for (int w = 0; w < windows; ++w)
            ws.push_back(energy_window(*best, fields, runs, *sensor));
        std::printf("%s %d^2: %.4f ns/px (%d candidates)", best_label.c_str(), n,
                    best_ms * 1e6 / px, candidates);
        for (const Window& w : ws)
          std::printf("; %d runs %.1f ms %s mJ", w.runs, w.elapsed_ms,
                      json_number(w.energy_mj).c_str());
        std::printf("\n");
        std::fflush(stdout);
        js << (first ? "\n" : ",\n") << "    {\"variant\": " << json_string(s.variant)
           << ", \"precision\": " << json_string(p) << ", \"size\": " << n
           << ", \"config\": " << json_string(best_label) << ", \"candidates\": " << candidates
           << ", \"run_ms\": " << json_number(best_ms) << ", \"windows\": [";
        for (std::size_t w = 0; w < ws.size(); ++w) js << (w ? ", " : "") << window_json(ws[w]);
        js << "]}";
        first = false;
        if (!write(false)) return 1;
      }
  }
  if (!write(true)) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_tvl1_energy: %s\n", e.what());
    return 1;
  }
}
