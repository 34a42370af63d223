// The OpenCV CUDA TV-L1 peer's paper protocol with its energy (paper fig. 12): the peer's own
// driver (peer_tvl1.cu of the peer bundle, ../shared/peers/opencv-tvl1) compiled unchanged into
// this translation unit, its main renamed, and one added mode that reads the NVML total-energy
// counter around the same timed loop.
//
//   peer_paper_energy --paper-energy W H [WINDOW_MS [WINDOWS]]
//   peer_paper_energy <any mode of peer_tvl1>      (the peer's own modes, unchanged)
//
// --paper-energy: the set-up of the driver's --paper mode (random uniform 0..255 images, the
// centred gradient and the backward warp once, untimed; tau 0.25, lambda 0.15, theta 0.3) on a
// created stream; then the timed loop 10 x (estimateU + estimateDualVariables) as in --paper:
// 50 runs after 3 warm-up runs, each between two CUDA events, zeroing u and p before each
// (untimed), median and minimum. Then WINDOWS (default 3) energy windows: the 10-iteration loop
// repeated back to back, without the zeroing (as flowtune's bench_tvl1_energy repeats its run), for
// at least WINDOW_MS (default 600) between two events, with nvmlDeviceGetTotalEnergyConsumption
// (mJ, GPU 0, libnvidia-ml.so.1 through dlopen) read after a device synchronisation before and
// after, and the SM clock (nvmlDeviceGetClockInfo, graphics) read at the window's end. A window
// of the same length with the GPU idle comes first. Clocks are never set.
// Output: the human lines, then one line "energy-json {...}" that
// python3 -m benchmarks.summarise energy-per-pixel reads.
//
// Build (from the project root, the bundle at .peer/opencv-tvl1):
//   nvcc -O3 -arch=sm_90 -std=c++17 -I.peer/opencv-tvl1/shim -I.peer/opencv-tvl1 \
//     -o peer_paper_energy .peer/opencv-tvl1/upstream/modules/cudaoptflow/src/cuda/tvl1flow.cu \
//     tests/bench/peer/peer_paper_energy.cu -ldl
#define main peer_tvl1_main
#include "peer_tvl1.cu"
#undef main

#include <dlfcn.h>

#include <thread>

namespace {

/// The two NVML calls of the energy windows, on GPU 0; ok false when NVML is missing.
struct NvmlEnergy {
  using InitFn = int (*)();
  using HandleFn = int (*)(unsigned, void**);
  using EnergyFn = int (*)(void*, unsigned long long*);
  using ClockFn = int (*)(void*, int, unsigned*);
  bool ok = false;
  void* device = nullptr;
  EnergyFn energy = nullptr;
  ClockFn clock = nullptr;
  std::string why;

  NvmlEnergy() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) {
      why = "libnvidia-ml.so.1 not found";
      return;
    }
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    auto handle = reinterpret_cast<HandleFn>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    energy = reinterpret_cast<EnergyFn>(dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
    clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    if (!init || !handle || !energy || init() != 0 || handle(0, &device) != 0) {
      why = "NVML initialisation failed";
      return;
    }
    ok = true;
  }
  /// The counter in mJ, or -1 when the call fails.
  double read_mj() const {
    unsigned long long v = 0;
    return ok && energy(device, &v) == 0 ? double(v) : -1.0;
  }
  /// The graphics (SM) clock in MHz (NVML_CLOCK_GRAPHICS = 0), or -1.
  double sm_mhz() const {
    unsigned v = 0;
    return ok && clock && clock(device, 0, &v) == 0 ? double(v) : -1.0;
  }
};

std::string num(double v) {
  char b[64];
  if (v < 0) return "null";
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

int runPaperEnergy(int W, int H, int window_ms, int windows) {
  printDevice();
  const NvmlEnergy nvml;
  std::printf("energy sensor: %s\n", nvml.ok ? "nvml energy counter" : nvml.why.c_str());
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> U(0, 255);
  std::vector<float> h0(size_t(W) * H), h1(size_t(W) * H);
  for (auto& v : h0) v = float(U(rng));
  for (auto& v : h1) v = float(U(rng));

  GpuMat I0, I1, I1x, I1y, I1w, I1wx, I1wy, grad, rho, p11, p12, p21, p22, u1, u2, diff, none;
  uploadF(h0, W, H, I0);
  uploadF(h1, W, H, I1);
  for (GpuMat* m :
       {&I1x, &I1y, &I1w, &I1wx, &I1wy, &grad, &rho, &p11, &p12, &p21, &p22, &u1, &u2, &diff})
    m->create(H, W, 4);
  const double tau = 0.25, lambda = 0.15, theta = 0.3;
  const float l_t = float(lambda * theta), taut = float(tau / theta);
  const int iters = 10, reps = 50;
  const double px = double(W) * H;

  cudaStream_t s;
  cudaSafeCall(cudaStreamCreate(&s));
  cudaEvent_t e0, e1;
  cudaSafeCall(cudaEventCreate(&e0));
  cudaSafeCall(cudaEventCreate(&e1));
  setZero(u1, s);
  setZero(u2, s);
  tvl1flow::centeredGradient(I1.f(), I1x.f(), I1y.f(), s);
  tvl1flow::warpBackward(I0.f(), I1.f(), I1x.f(), I1y.f(), u1.f(), u2.f(), I1w.f(), I1wx.f(),
                         I1wy.f(), grad.f(), rho.f(), s);
  const auto ten_iterations = [&] {
    for (int n = 0; n < iters; ++n) {
      tvl1flow::estimateU(I1wx.f(), I1wy.f(), grad.f(), rho.f(), p11.f(), p12.f(), p21.f(), p22.f(),
                          none.f(), none.f(), u1.f(), u2.f(), none.f(), diff.f(), l_t, float(theta),
                          0.0f, false, s);
      tvl1flow::estimateDualVariables(u1.f(), u2.f(), none.f(), p11.f(), p12.f(), p21.f(), p22.f(),
                                      none.f(), none.f(), taut, 0.0f, s);
    }
  };
  std::vector<double> ms;
  for (int r = 0; r < reps + 3; ++r) {
    for (GpuMat* m : {&u1, &u2, &p11, &p12, &p21, &p22}) setZero(*m, s);
    cudaSafeCall(cudaEventRecord(e0, s));
    ten_iterations();
    cudaSafeCall(cudaEventRecord(e1, s));
    cudaSafeCall(cudaEventSynchronize(e1));
    float t = 0;
    cudaSafeCall(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3) ms.push_back(t);
  }
  const double med = median(ms), mn = *std::min_element(ms.begin(), ms.end());
  std::printf(
      "paper protocol %dx%d, created stream: median %.4f ms  min %.4f ms  -> %.4f ns/px "
      "(median)\n",
      W, H, med, mn, med * 1e6 / px);

  std::string json =
      "{\"config\": \"OpenCV CUDA TV-L1 (created stream)\", \"size\": " + std::to_string(W) +
      ", \"height\": " + std::to_string(H) + ", \"run_ms\": " + num(med) +
      ", \"run_ms_min\": " + num(mn) +
      ", \"sensor\": " + (nvml.ok ? std::string("\"nvml energy counter\"") : std::string("null"));
  // Idle window.
  {
    cudaSafeCall(cudaDeviceSynchronize());
    const double a = nvml.read_mj();
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(window_ms));
    const double b = nvml.read_mj();
    const double el =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    json += ", \"idle\": {\"elapsed_ms\": " + num(el) +
            ", \"energy_mj\": " + num(a >= 0 && b >= a ? b - a : -1) +
            ", \"sm_clock_mhz\": " + num(nvml.sm_mhz()) + "}";
  }
  const int runs = std::max(1, int(std::ceil(window_ms / med)));
  json += ", \"windows\": [";
  for (int w = 0; w < windows; ++w) {
    cudaSafeCall(cudaDeviceSynchronize());
    const double a = nvml.read_mj();
    cudaSafeCall(cudaEventRecord(e0, s));
    for (int r = 0; r < runs; ++r) ten_iterations();
    cudaSafeCall(cudaEventRecord(e1, s));
    const double clock = nvml.sm_mhz();
    cudaSafeCall(cudaEventSynchronize(e1));
    cudaSafeCall(cudaDeviceSynchronize());
    const double b = nvml.read_mj();
    float t = 0;
    cudaSafeCall(cudaEventElapsedTime(&t, e0, e1));
    const double e = a >= 0 && b >= a ? b - a : -1;
    std::printf("energy window %d: %d runs, %.1f ms, %s mJ -> %s nJ/px, SM %s MHz\n", w, runs, t,
                num(e).c_str(), e >= 0 ? num(e * 1e6 / (runs * px)).c_str() : "n/a",
                num(clock).c_str());
    json += std::string(w ? ", " : "") + "{\"runs\": " + std::to_string(runs) +
            ", \"elapsed_ms\": " + num(t) + ", \"energy_mj\": " + num(e) +
            ", \"sm_clock_mhz\": " + num(clock) + "}";
  }
  json += "]}";
  std::printf("energy-json %s\n", json.c_str());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--paper-energy")
    return runPaperEnergy(std::atoi(argv[2]), std::atoi(argv[3]),
                          argc > 4 ? std::max(200, std::atoi(argv[4])) : 600,
                          argc > 5 ? std::max(1, std::atoi(argv[5])) : 3);
  return peer_tvl1_main(argc, argv);
}
