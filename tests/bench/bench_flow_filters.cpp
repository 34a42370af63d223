// The GPU flow filters of one warping at full Middlebury size (584 x 388, a random flow and a
// random guide): median_flow (3x3, 5x5: median_select in registers; f32 pairs and half pairs,
// the f16 storage) and weighted_median_flow
// (weighted non-local median, windows 3..11), device time per call by CUDA events around
// FILTERS_CALLS back-to-back launches (after a warm-up), median of FILTERS_REPEATS such windows
// with min-max, and the throughput in Mpx/s. A frame calls a filter once per warping on every
// pyramid level: at zoom 0.8 with automatic scales the levels sum to ~2.8 times the frame's
// pixels, so a frame of 5 warpings costs ~14 calls at full size.
// Prints one Markdown table; exits 0 with a note when there is no CUDA device.
// Env: FILTERS_W, FILTERS_H (default 584 x 388), FILTERS_CALLS (default 50), FILTERS_REPEATS
// (default 7), FILTERS_SIGMA_SPATIAL (default 7), FILTERS_SIGMA_COLOR (default 7).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda/frame/flow_filters.hpp"

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}
double env_double(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : fallback;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench_flow_filters: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("bench_flow_filters: no CUDA device, nothing measured\n");
    return 0;
  }
  namespace fk = flowtune::cuda::frame;
  const int w = env_int("FILTERS_W", 584), h = env_int("FILTERS_H", 388);
  const int calls = env_int("FILTERS_CALLS", 50), repeats = env_int("FILTERS_REPEATS", 7);
  const float ss = float(env_double("FILTERS_SIGMA_SPATIAL", 7));
  const float sc = float(env_double("FILTERS_SIGMA_COLOR", 7));
  const std::size_t n = std::size_t(w) * h;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> flow(-4, 4), grey(0, 255);
  std::vector<float> host_flow(2 * n), host_guide(n);
  for (float& v : host_flow) v = flow(rng);
  for (float& v : host_guide) v = grey(rng);
  void *in = nullptr, *out = nullptr, *guide = nullptr;
  check(cudaMalloc(&in, 2 * n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&out, 2 * n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&guide, n * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(in, host_flow.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(guide, host_guide.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy");
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  cudaEvent_t t0, t1;
  check(cudaEventCreate(&t0), "cudaEventCreate");
  check(cudaEventCreate(&t1), "cudaEventCreate");
  const fk::Exec exec{stream, false};
  // The same flow as half pairs (f16 storage: the frame's median of an f16 config).
  std::vector<__half2> host_half(n);
  for (std::size_t i = 0; i < n; ++i)
    host_half[i] = __floats2half2_rn(host_flow[2 * i], host_flow[2 * i + 1]);
  void *in_half = nullptr, *out_half = nullptr;
  check(cudaMalloc(&in_half, n * sizeof(__half2)), "cudaMalloc");
  check(cudaMalloc(&out_half, n * sizeof(__half2)), "cudaMalloc");
  check(cudaMemcpy(in_half, host_half.data(), n * sizeof(__half2), cudaMemcpyHostToDevice), "copy");
  struct Case {
    std::string name;
    int window;
    bool weighted;
    bool f16 = false;
  };
  const std::vector<Case> cases = {
      {"median_flow 3x3", 3, false},           {"median_flow 5x5", 5, false},
      {"median_flow 3x3 f16", 3, false, true}, {"median_flow 5x5 f16", 5, false, true},
      {"weighted_median_flow 3x3", 3, true},   {"weighted_median_flow 5x5", 5, true},
      {"weighted_median_flow 7x7", 7, true},   {"weighted_median_flow 9x9", 9, true},
      {"weighted_median_flow 11x11", 11, true}};
  std::printf(
      "Flow filters on %dx%d (f32 pairs; f16: half pairs), %d calls per window, median of %d "
      "windows; "
      "weighted sigmas %g px, %g grey levels\n\n",
      w, h, calls, repeats, double(ss), double(sc));
  std::printf("| filter | us/call median (min-max) | Mpx/s |\n|---|---|---:|\n");
  for (const Case& c : cases) {
    auto launch = [&] {
      if (c.weighted)
        fk::weighted_median_flow(false, in, out, static_cast<const float*>(guide), w, h, c.window,
                                 ss, sc, exec);
      else if (c.f16)
        fk::median_flow(true, in_half, out_half, w, h, c.window, exec);
      else
        fk::median_flow(false, in, out, w, h, c.window, exec);
    };
    for (int k = 0; k < 3; ++k) launch();  // warm-up
    std::vector<double> us;
    for (int r = 0; r < repeats; ++r) {
      check(cudaEventRecord(t0, stream), "cudaEventRecord");
      for (int k = 0; k < calls; ++k) launch();
      check(cudaEventRecord(t1, stream), "cudaEventRecord");
      check(cudaEventSynchronize(t1), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, t0, t1), "cudaEventElapsedTime");
      us.push_back(1000.0 * ms / calls);
    }
    std::sort(us.begin(), us.end());
    const double med = us[us.size() / 2];
    std::printf("| %s | %.1f (%.1f-%.1f) | %.0f |\n", c.name.c_str(), med, us.front(), us.back(),
                double(n) / med);
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(guide);
  cudaFree(in_half);
  cudaFree(out_half);
  return 0;
}
