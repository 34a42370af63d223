// Device time of the one-launch pyramid level (kernels/cuda/frame's zoom_out_pair_one_launch)
// under each ZoomSchedule (output tile and threads per block), on the levels the GPU frame
// builds: Google Benchmark (--benchmark_out=F.json --benchmark_out_format=json;
// the pyramid-schedule benchmark run on the GPU machine and its summary).
//
// Levels: the frames' sizes of RubberWhale (584x388) and Grove2 (640x480); protocol `default`
// = 3 scales at zoom 0.5 (levels 1, 2), `opencv_accuracy` = 5 scales at zoom 0.8 (levels 1-4);
// level s is zoom_out of level s - 1 (zoom_size, kernels/image_ops.hpp), its input a random
// plane of level s - 1's size (the kernel's time does not depend on the values).
// Benchmarks (each 1 run of 60 timed launches after 5 warm-up launches, CUDA events around
// each; real_time = the median, counters median_us, min_us, max_us):
//  - level/<protocol>/<seq>/L<s>/<tile_x>x<tile_y>t<threads>: one level's launch; counters
//    out_w, out_h (the level), blocks, smem_bytes, blocks_per_sm (the driver's occupancy
//    query, frame_kernels.hpp's zoom_out_launch) and waves = blocks / (blocks_per_sm x SMs);
//  - pyramid/<protocol>/<seq>/<tile_x>x<tile_y>t<threads>: the frame's pyramid stage, every
//    level's launch in turn between one pair of events (what st_pyramid_ms of
//    bench_frame_throughput times inside a frame).
// Schedules: the 32x8t256 baseline (kZoomSchedule32x8) and the default (kZoomScheduleDefault)
// first, then the others; FLOWTUNE_ZOOM_SAMPLES (default 60) sets the timed launches.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/image_ops.hpp"

namespace {

namespace fk = flowtune::cuda::frame;

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("bench_zoom_schedule: ") + what + ": " +
                             cudaGetErrorString(e));
}

int samples() {
  const char* v = std::getenv("FLOWTUNE_ZOOM_SAMPLES");
  return v && *v ? std::max(1, std::atoi(v)) : 60;
}

/// One pyramid: the level sizes (level 0 = the frame) and device planes (two per level, the
/// frames' pair, contiguous: plane k of level s at planes[s] + k * w h).
struct Pyramid {
  double zoom = 0.5;
  fk::GaussTaps taps;
  std::vector<std::pair<int, int>> sizes;
  std::vector<float*> planes;
};

Pyramid make_pyramid(int w, int h, int scales, double zoom) {
  Pyramid p;
  p.zoom = zoom;
  p.taps = fk::gaussian_taps(0.6 * std::sqrt(1.0 / (zoom * zoom) - 1.0));
  p.sizes.push_back({w, h});
  for (int s = 1; s < scales; ++s)
    p.sizes.push_back({flowtune::zoom_size(p.sizes.back().first, zoom),
                       flowtune::zoom_size(p.sizes.back().second, zoom)});
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> d(0.f, 255.f);
  for (const auto& [lw, lh] : p.sizes) {
    const std::size_t n = 2 * std::size_t(lw) * lh;
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    float* dev = nullptr;
    ok(cudaMalloc(reinterpret_cast<void**>(&dev), n * sizeof(float)), "cudaMalloc");
    ok(cudaMemcpy(dev, v.data(), n * sizeof(float), cudaMemcpyHostToDevice), "upload");
    p.planes.push_back(dev);
  }
  return p;
}

/// Level s (>= 1) of p from level s - 1 under schedule sch on the default stream.
void launch_level(const Pyramid& p, std::size_t s, const fk::ZoomSchedule& sch) {
  const auto [w, h] = p.sizes[s - 1];
  const auto [ow, oh] = p.sizes[s];
  const float* in = p.planes[s - 1];
  float* out = p.planes[s];
  const std::size_t n = std::size_t(w) * h, on = std::size_t(ow) * oh;
  if (!fk::zoom_out_pair_one_launch(in, in + n, w, h, out, out + on, ow, oh, p.taps, p.zoom,
                                    fk::Exec{}, sch))
    throw std::runtime_error("bench_zoom_schedule: level's tiles exceed shared memory");
}

/// Median, min, max over samples() runs of f between two CUDA events (ms), after 5 warm-ups.
template <class F>
void time_events(benchmark::State& st, const F& f) {
  cudaEvent_t a, b;
  ok(cudaEventCreate(&a), "event");
  ok(cudaEventCreate(&b), "event");
  for (int i = 0; i < 5; ++i) f();
  ok(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> ms;
  for (int i = 0; i < samples(); ++i) {
    ok(cudaEventRecord(a), "record");
    f();
    ok(cudaEventRecord(b), "record");
    ok(cudaEventSynchronize(b), "sync");
    float t = 0;
    ok(cudaEventElapsedTime(&t, a, b), "elapsed");
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  const std::size_t m = ms.size();
  const double median = m % 2 ? ms[m / 2] : 0.5 * (ms[m / 2 - 1] + ms[m / 2]);
  for (auto _ : st) st.SetIterationTime(median * 1e-3);
  st.counters["median_us"] = median * 1e3;
  st.counters["min_us"] = ms.front() * 1e3;
  st.counters["max_us"] = ms.back() * 1e3;
  st.counters["samples"] = double(m);
}

std::string tag_of(const fk::ZoomSchedule& s) {
  return std::to_string(s.tile_x) + "x" + std::to_string(s.tile_y) + "t" +
         std::to_string(s.threads);
}

std::vector<Pyramid> g_pyramids;  // freed at exit with the context
int g_sms = 1;                    // the device's SMs

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "bench_zoom_schedule: no CUDA device\n");
    return 1;
  }
  ok(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  std::vector<fk::ZoomSchedule> schedules = {fk::kZoomSchedule32x8,
                                             fk::kZoomScheduleDefault,
                                             {32, 8, 512},
                                             {32, 8, 1024},
                                             {32, 4, 256},
                                             {16, 8, 512},
                                             {16, 16, 256},
                                             {16, 8, 256},
                                             {16, 4, 128},
                                             {8, 8, 128},
                                             {8, 8, 256}};
  // The default listed once even if it is one of the others.
  for (std::size_t i = 2; i < schedules.size(); ++i)
    if (tag_of(schedules[i]) == tag_of(fk::kZoomScheduleDefault))
      schedules.erase(schedules.begin() + long(i--));
  struct Protocol {
    const char* name;
    int scales;
    double zoom;
  };
  const Protocol protocols[] = {{"default", 3, 0.5}, {"opencv_accuracy", 5, 0.8}};
  struct Seq {
    const char* name;
    int w, h;
  };
  const Seq seqs[] = {{"RubberWhale", 584, 388}, {"Grove2", 640, 480}};
  g_pyramids.reserve(4);
  for (const Protocol& pr : protocols)
    for (const Seq& sq : seqs) {
      g_pyramids.push_back(make_pyramid(sq.w, sq.h, pr.scales, pr.zoom));
      const Pyramid* p = &g_pyramids.back();
      const std::string base = std::string(pr.name) + "/" + sq.name + "/";
      for (const fk::ZoomSchedule& sch : schedules) {
        benchmark::RegisterBenchmark(("pyramid/" + base + tag_of(sch)).c_str(),
                                     [p, sch](benchmark::State& st) {
                                       time_events(st, [&] {
                                         for (std::size_t s = 1; s < p->sizes.size(); ++s)
                                           launch_level(*p, s, sch);
                                       });
                                     })
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMicrosecond);
        for (std::size_t s = 1; s < p->sizes.size(); ++s)
          benchmark::RegisterBenchmark(
              ("level/" + base + "L" + std::to_string(s) + "/" + tag_of(sch)).c_str(),
              [p, s, sch](benchmark::State& st) {
                time_events(st, [&] { launch_level(*p, s, sch); });
                st.counters["out_w"] = p->sizes[s].first;
                st.counters["out_h"] = p->sizes[s].second;
                const auto [w, h] = p->sizes[s - 1];
                const auto [ow, oh] = p->sizes[s];
                const fk::ZoomLaunch l =
                    fk::zoom_out_launch(w, h, ow, oh, p->taps, p->zoom, sch, true);
                const double blocks = 2.0 * l.grid_x * l.grid_y;
                st.counters["blocks"] = blocks;
                st.counters["smem_bytes"] = double(l.smem_bytes);
                st.counters["blocks_per_sm"] = l.blocks_per_sm;
                st.counters["waves"] = blocks / (double(l.blocks_per_sm) * g_sms);
              })
              ->UseManualTime()
              ->Iterations(1)
              ->Unit(benchmark::kMicrosecond);
      }
    }
  benchmark::AddCustomContext("default_schedule", tag_of(fk::kZoomScheduleDefault));
  benchmark::AddCustomContext("old_schedule", tag_of(fk::kZoomSchedule32x8));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (const Pyramid& p : g_pyramids)
    for (float* d : p.planes) cudaFree(d);
  return 0;
}
