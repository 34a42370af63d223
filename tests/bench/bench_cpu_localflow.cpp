// Benchmark of the SIMD host variants of the local flow workloads (bm_simd, lk_simd,
// kernels/simd/localflow_simd.hpp) against the scalar ones (bm_cpu, lk_cpu: the references,
// one thread) on the repo's Middlebury frames (RubberWhale, Grove2; 584 x 388 and 640 x 480):
// per-frame time of block matching with the workload's default parameters (NCC) and with SAD,
// and of Lucas-Kanade with its defaults, the SIMD variants at every thread count of
// host_thread_counts() (1 .. all the CPUs). Manual time (steady_clock) per frame, in ms.
// Counters: threads, Mpx_per_s (frame pixels per second). The first frame of each benchmark
// is checked against the scalar variant's flow bit for bit (a mismatch stops the benchmark
// with an error). scripts/localflow-bench-summary turns the JSON (--benchmark_out) into the
// report table (speed-up over the scalar variant per core, scaling with threads).
// Env: FLOWTUNE_REPO_DATA (the repo's data folder; default ./data, then the compiled-in one);
// FLOWTUNE_BENCH_SKIP_CHECK=1 skips the check against the scalar flow (for profiles, whose
// samples should be the SIMD variant's only: the CPU profile run on the GPU machine's host).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/png_io.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/localflow_simd.hpp"
#include "variants/localflow/localflow_variant.hpp"
#include "workloads/localflow/localflow_workload.hpp"

#ifndef FLOWTUNE_BENCH_REPO_DATA
#define FLOWTUNE_BENCH_REPO_DATA "data"
#endif

namespace {

using namespace flowtune;

std::string data_root() {
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA")) return env;
  if (std::ifstream("data/middlebury/Grove2/frame10.png")) return "data";
  return FLOWTUNE_BENCH_REPO_DATA;
}

struct Frames {
  Image i0, i1;
};

const Frames& frames(const std::string& name) {
  static std::vector<std::pair<std::string, std::unique_ptr<Frames>>> cache;
  for (const auto& [n, f] : cache)
    if (n == name) return *f;
  const std::string dir = data_root() + "/middlebury/" + name + "/";
  auto f = std::make_unique<Frames>(
      Frames{read_png_gray(dir + "frame10.png"), read_png_gray(dir + "frame11.png")});
  cache.emplace_back(name, std::move(f));
  return *cache.back().second;
}

bool same_bits(const FlowField& a, const FlowField& b) {
  return a.u.size() == b.u.size() &&
         std::memcmp(a.u.data(), b.u.data(), a.u.size() * sizeof(float)) == 0 &&
         std::memcmp(a.v.data(), b.v.data(), a.v.size() * sizeof(float)) == 0;
}

using Solve = std::function<FlowField(const Image&, const Image&)>;

/// The scalar variant's flow of a case on a frame, computed once per process.
const FlowField& scalar_flow(const std::string& key, const Frames& f, const Solve& scalar) {
  static std::vector<std::pair<std::string, std::unique_ptr<FlowField>>> cache;
  for (const auto& [k, flow] : cache)
    if (k == key) return *flow;
  cache.emplace_back(key, std::make_unique<FlowField>(scalar(f.i0, f.i1)));
  return *cache.back().second;
}

void run(benchmark::State& state, const std::string& key, const std::string& frame,
         const Solve& solve, const Solve& scalar, int threads) {
  const Frames& f = frames(frame);
  const char* skip = std::getenv("FLOWTUNE_BENCH_SKIP_CHECK");
  const bool check = !(skip && std::string(skip) == "1");
  if (check && !same_bits(solve(f.i0, f.i1), scalar_flow(key, f, scalar))) {
    state.SkipWithError("flow differs from the scalar variant's");
    return;
  }
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    FlowField out = solve(f.i0, f.i1);
    benchmark::DoNotOptimize(out.u.data());
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  state.counters["threads"] = threads;
  state.counters["Mpx_per_s"] =
      benchmark::Counter(double(f.i0.size()) * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
}

Config default_config(const Workload& w, const char* variant) {
  Config c;
  c.workload = w.name();
  c.variant = variant;
  c.params = w.default_params();
  return c;
}

void register_all() {
  const localflow::BmParams bm = bm_params_of(default_config(bm_workload(), "bm_cpu"));
  localflow::BmParams sad = bm;
  sad.similarity = 1;
  const localflow::LkParams lk = lk_params_of(default_config(lk_workload(), "lk_cpu"));
  for (const char* frame : {"RubberWhale", "Grove2"}) {
    const std::string f = frame;
    struct Case {
      std::string name;
      Solve scalar;
      std::function<Solve(int)> simd;
    };
    const std::vector<Case> cases = {
        {"bm_ncc",
         [bm](const Image& a, const Image& b) { return localflow::block_matching(a, b, bm); },
         [bm](int t) -> Solve {
           return
               [bm, t](const Image& a, const Image& b) { return block_matching_simd(a, b, bm, t); };
         }},
        {"bm_sad",
         [sad](const Image& a, const Image& b) { return localflow::block_matching(a, b, sad); },
         [sad](int t) -> Solve {
           return [sad, t](const Image& a, const Image& b) {
             return block_matching_simd(a, b, sad, t);
           };
         }},
        {"lk", [lk](const Image& a, const Image& b) { return localflow::lucas_kanade(a, b, lk); },
         [lk](int t) -> Solve {
           return
               [lk, t](const Image& a, const Image& b) { return lucas_kanade_simd(a, b, lk, t); };
         }}};
    for (const Case& c : cases) {
      const std::string scalar_name = c.name[0] == 'b' ? "bm_cpu" : "lk_cpu";
      const std::string simd_name = c.name[0] == 'b' ? "bm_simd" : "lk_simd";
      benchmark::RegisterBenchmark(
          (c.name + "/" + f + "/" + scalar_name + "/threads:1").c_str(),
          [f, c](benchmark::State& s) { run(s, c.name + f, f, c.scalar, c.scalar, 1); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      for (int t : host_thread_counts())
        benchmark::RegisterBenchmark(
            (c.name + "/" + f + "/" + simd_name + "/threads:" + std::to_string(t)).c_str(),
            [f, c, t](benchmark::State& s) { run(s, c.name + f, f, c.simd(t), c.scalar, t); })
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::AddCustomContext("cpus", std::to_string(host_cpu().cpus));
  benchmark::AddCustomContext("simd_target", host_cpu().simd_targets.empty()
                                                 ? std::string("none")
                                                 : host_cpu().simd_targets.front());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
