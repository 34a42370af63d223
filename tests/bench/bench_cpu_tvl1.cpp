// Benchmark of the CPU TV-L1 inner iterations (Romera et al. 2023, table 1 protocol:
// 2048^2, monoscale, 1 warping, 10 iterations, non-constant fields): kokkos_global f32 (one
// core: Debian's Kokkos is Serial-only) against simd_fused f32, mixed (binary16 storage)
// and f16 (binary16 arithmetic too; band sweep, 16 rows, 1 and all threads)
// over the thread counts of this host, and an OpenMP copy benchmark over the same thread
// counts for the memory floor. Manual time (steady_clock) per call of 10 iterations.
// Counters: ns_per_px (10 iterations), GB_per_s (model: 60 B/px per iteration in f32, 30 in
// binary16 - read grad x2, rho_c, u x2, p x4, write u x2, p x4 once per fused sweep), and for
// the copy GB_per_s read + written. python3 -m benchmarks.summarise cpu-bench turns the JSON
// (--benchmark_out) into the report table.
// Temporal blocking (simd_fused's temporal_depth > 1): depths 2, 4, 8 on tiles 16x256, 64x256,
// 64x512 where simd_fused_tile_reason keeps them (this host's L2 per CPU), at 1 and all
// threads, and 64x256 depth 4 at every thread count (scaling); the model bytes stay those of
// one sweep per iteration (60/30 B/px), so GB_per_s above the copy bandwidth means the
// iterations run from the caches.
// Env: FLOWTUNE_BENCH_SIZES (default "2048"), FLOWTUNE_BENCH_COPY_MIB (default 1024: each of
// the two copy buffers, larger than the last-level cache), FLOWTUNE_BENCH_MIN_TIME (seconds
// per benchmark, default 0.5).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernels/kokkos/kokkos_runtime.hpp"
#include "kernels/kokkos/tvl1_kokkos.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"
#include "variants/simd/simd_fused.hpp"

namespace {

using namespace flowtune;

constexpr int kIterations = 10;

std::vector<int> bench_sizes() {
  std::vector<int> sizes;
  if (const char* env = std::getenv("FLOWTUNE_BENCH_SIZES")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) sizes.push_back(std::stoi(item));
  }
  if (sizes.empty()) sizes = {2048};
  return sizes;
}

/// Random non-constant warping data and state of n x n pixels (amplitudes as the GPU bench).
struct Problem {
  WarpingData<float> w;
  Tvl1State<float> s;
  explicit Problem(int n) : w(n, n), s(n, n) {
    std::mt19937 rng(42u + unsigned(n));
    auto fill = [&](std::vector<float>& v, float amp) {
      std::uniform_real_distribution<float> d(-amp, amp);
      for (float& x : v) x = d(rng);
    };
    fill(w.grad_x, 40.f);
    fill(w.grad_y, 40.f);
    fill(w.rho_c, 20.f);
    fill(s.u1, 2.f);
    fill(s.u2, 2.f);
    for (auto* p : {&s.p11, &s.p12, &s.p21, &s.p22}) fill(*p, 0.5f);
  }
};

Problem& problem_for(int n) {
  static std::unique_ptr<Problem> problem;
  if (!problem || problem->w.width != n) problem = std::make_unique<Problem>(n);
  return *problem;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

template <typename Fn>
void time_calls(benchmark::State& state, int n, double bytes_per_px_iteration, Fn&& fn) {
  fn();  // warm-up: first touch, caches, thread pool
  std::vector<double> times_s;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(t);
    times_s.push_back(t);
  }
  const double px = double(n) * n, t = median(times_s);
  state.counters["ns_per_px"] = t * 1e9 / px;
  state.counters["GB_per_s"] = bytes_per_px_iteration * kIterations * px / t * 1e-9;
}

void bench_kokkos(benchmark::State& state, int n) {
  ensure_kokkos_initialized();
  Problem& p = problem_for(n);
  Tvl1Params params;
  time_calls(state, n, 60.0, [&] {
    tvl1_iterate_kokkos(p.w, p.s, params, kIterations, KokkosTiles{32, 4});
  });
}

/// epsilon 0: all 10 iterations run (the paper's protocol), no change reduction.
Tvl1Params protocol_params() {
  Tvl1Params params;
  params.epsilon = 0;
  return params;
}

/// f32: the iterations on the float fields in place. binary16 / f16: the iterations on fields
/// converted once before timing (as the GPU benchmark times device-resident half fields);
/// the conversion per warping is timed by bench_binary16_conversion.
void bench_simd(benchmark::State& state, int n, SimdSchedule schedule, SimdStorage storage) {
  Problem& p = problem_for(n);
  const Tvl1Params params = protocol_params();
  if (storage == SimdStorage::f32) {
    time_calls(state, n, 60.0,
               [&] { tvl1_iterate_simd(p.w, p.s, params, kIterations, schedule, storage); });
    return;
  }
  Binary16Fields f = to_binary16_fields(p.w, p.s);
  time_calls(state, n, 30.0, [&] {
    tvl1_iterate_simd_binary16(f, params, kIterations, schedule, storage == SimdStorage::f16);
  });
}

/// The per-warping conversions of SimdStorage::binary16 (9 fields to binary16, 6 back), one
/// thread; ns_per_px is per call, not per 10 iterations (GB_per_s: 36 + 18 + 12 + 24 B/px).
void bench_binary16_conversion(benchmark::State& state, int n) {
  Problem& p = problem_for(n);
  std::vector<double> times_s;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    Binary16Fields f = to_binary16_fields(p.w, p.s);
    from_binary16_fields(f, p.s);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(t);
    times_s.push_back(t);
  }
  const double px = double(n) * n, t = median(times_s);
  state.counters["ns_per_px"] = t * 1e9 / px;
  state.counters["GB_per_s"] = 90.0 * px / t * 1e-9;
}

/// Copy of `mib` MiB between two buffers by `threads` OpenMP threads (static chunks, first
/// touch by the same threads); GB_per_s counts bytes read + written.
void bench_copy(benchmark::State& state, int threads, std::size_t mib) {
  const std::size_t n = mib * 1024 * 1024 / sizeof(float);
  std::unique_ptr<float[]> a(new float[n]), b(new float[n]);
  const long long count = static_cast<long long>(n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long long i = 0; i < count; ++i) {
    a[std::size_t(i)] = float(i & 1023);
    b[std::size_t(i)] = 0.f;
  }
  std::vector<double> times_s;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
    {
      const long long parts = omp_get_num_threads(), me = omp_get_thread_num();
      const long long begin = count * me / parts, end = count * (me + 1) / parts;
      std::memcpy(b.get() + begin, a.get() + begin, std::size_t(end - begin) * sizeof(float));
    }
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    state.SetIterationTime(t);
    times_s.push_back(t);
    benchmark::DoNotOptimize(b[n / 2]);
  }
  state.counters["GB_per_s"] = 2.0 * double(n) * sizeof(float) / median(times_s) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const HostCpu& cpu = host_cpu();
  std::string targets;
  for (const std::string& t : cpu.simd_targets) targets += (targets.empty() ? "" : ",") + t;
  benchmark::AddCustomContext("flowtune_cpus", std::to_string(cpu.cpus));
  benchmark::AddCustomContext("flowtune_simd_targets", targets);
  benchmark::AddCustomContext("flowtune_simd_dispatched", simd_tvl1::dispatched_target());
  benchmark::AddCustomContext("flowtune_l2_bytes", std::to_string(cpu.l2_bytes));
  benchmark::AddCustomContext("flowtune_l3_bytes", std::to_string(cpu.l3_bytes));
  benchmark::AddCustomContext("flowtune_l2_shared_cpus", std::to_string(cpu.l2_shared_cpus));
  const std::vector<int> threads = host_thread_counts();
  const char* copy_env = std::getenv("FLOWTUNE_BENCH_COPY_MIB");
  const std::size_t copy_mib = copy_env ? std::size_t(std::stoul(copy_env)) : 1024;
  const char* min_time_env = std::getenv("FLOWTUNE_BENCH_MIN_TIME");
  const double min_time = min_time_env ? std::stod(min_time_env) : 0.5;
  auto opts = [min_time](benchmark::internal::Benchmark* b) {
    b->UseManualTime()->MinTime(min_time)->Unit(benchmark::kMillisecond);
  };
  for (const int t : threads)
    opts(benchmark::RegisterBenchmark(
        ("copy/threads:" + std::to_string(t)).c_str(),
        [t, copy_mib](benchmark::State& s) { bench_copy(s, t, copy_mib); }));
  for (const int n : bench_sizes()) {
    const std::string size = "/" + std::to_string(n);
    opts(benchmark::RegisterBenchmark(
        ("binary16_conversion/threads:1" + size).c_str(),
        [n](benchmark::State& s) { bench_binary16_conversion(s, n); }));
    opts(benchmark::RegisterBenchmark(("kokkos_global/f32/tile:32x4/threads:1" + size).c_str(),
                                      [n](benchmark::State& s) { bench_kokkos(s, n); }));
    for (const SimdStorage storage : {SimdStorage::f32, SimdStorage::binary16}) {
      const std::string precision = storage == SimdStorage::f32 ? "f32" : "mixed";
      for (const int band_rows : {4, 16, 64})
        for (const int t : threads) {
          // The band sweep at every thread count for 16 rows; 4 and 64 at 1 and all threads.
          if (band_rows != 16 && t != 1 && t != threads.back()) continue;
          const SimdSchedule schedule{t, band_rows};
          opts(benchmark::RegisterBenchmark(
              ("simd_fused/" + precision + "/band_rows:" + std::to_string(band_rows) +
               "/threads:" + std::to_string(t) + size)
                  .c_str(),
              [n, schedule, storage](benchmark::State& s) {
                bench_simd(s, n, schedule, storage);
              }));
        }
    }
    // Precision f16 (binary16 arithmetic: native on Armv8.2-A FP16, emulated elsewhere): the
    // band sweep, 16 rows, at 1 and all threads.
    for (const int t : {1, threads.back()}) {
      const SimdSchedule schedule{t, 16};
      opts(benchmark::RegisterBenchmark(
          ("simd_fused/f16/band_rows:16/threads:" + std::to_string(t) + size).c_str(),
          [n, schedule](benchmark::State& s) { bench_simd(s, n, schedule, SimdStorage::f16); }));
      if (threads.size() == 1) break;
    }
    for (const SimdStorage storage : {SimdStorage::f32, SimdStorage::binary16}) {
      const std::string precision = storage == SimdStorage::f32 ? "f32" : "mixed";
      for (const int depth : {2, 4, 8})
        for (const auto& [rows, cols] : {std::pair<int, int>{16, 256}, {64, 256}, {64, 512}}) {
          if (simd_fused_tile_reason(rows, cols, depth, storage == SimdStorage::f32 ? 4 : 2,
                                     l2_bytes_per_cpu(cpu)))
            continue;
          for (const int t : threads) {
            const bool scaling = depth == 4 && rows == 64 && cols == 256;
            if (!scaling && t != 1 && t != threads.back()) continue;
            const SimdSchedule schedule{t, rows, depth, cols};
            opts(benchmark::RegisterBenchmark(
                ("simd_fused/" + precision + "/band_rows:" + std::to_string(rows) +
                 "/depth:" + std::to_string(depth) + "/tile_cols:" + std::to_string(cols) +
                 "/threads:" + std::to_string(t) + size)
                    .c_str(),
                [n, schedule, storage](benchmark::State& s) {
                  bench_simd(s, n, schedule, storage);
                }));
          }
        }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
