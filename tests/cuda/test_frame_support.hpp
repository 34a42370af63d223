// Helpers of the GPU frame tests: device detection, data paths, random images, device
// buffers, and a private plain two-kernel schedule (kernels/cuda/frame's plain_iterations) so
// that the frame pipeline is tested on its own, independently of the NVRTC schedules.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/flo_io.hpp"
#include "kernels/image.hpp"
#include "kernels/png_io.hpp"
#include "kernels/tvl1_params.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune::test {

/// True when a CUDA device is usable (cudaGetDeviceCount succeeds with a count > 0).
inline bool have_cuda_device() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

/// Middlebury folders: the repo's (RubberWhale, Grove2) and the shared one (8 sequences).
/// $FLOWTUNE_REPO_DATA / $FLOWTUNE_SHARED_DATA override the compiled-in roots (the GPU
/// machine holds the checkout and the shared data elsewhere); without them a compiled-in root
/// that does not exist falls back to ./data (benchmark runs start in the repository root).
inline std::string data_root(const char* env_name, const char* compiled) {
  const char* env = std::getenv(env_name);
  if (env && *env) return env;
  if (std::filesystem::exists(compiled)) return compiled;
  return "data";
}
inline std::string repo_middlebury_dir() {
  return data_root("FLOWTUNE_REPO_DATA", FLOWTUNE_TEST_REPO_DATA) + "/middlebury";
}
inline std::string shared_middlebury_dir() {
  return data_root("FLOWTUNE_SHARED_DATA", FLOWTUNE_TEST_SHARED_DATA) + "/middlebury";
}

/// Frames 10 and 11 of one of the repo's Middlebury sequences (RubberWhale, Grove2), grey.
struct MiddleburyPair {
  Image i0, i1;
  FlowField gt;  ///< flow10.flo
};
inline MiddleburyPair load_repo_pair(const std::string& name) {
  const std::string d = repo_middlebury_dir() + "/" + name + "/";
  return {read_png_gray(d + "frame10.png"), read_png_gray(d + "frame11.png"),
          read_flo(d + "flow10.flo")};
}

/// Uniform random intensities in [lo, hi), width x height.
inline Image random_image(int width, int height, unsigned seed, float lo = 0.f, float hi = 255.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  Image im(width, height);
  for (auto& v : im.data) v = d(rng);
  return im;
}

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// A device (or, for host emulation, host) array of T.
template <class T>
class TestBuffer {
 public:
  TestBuffer(std::size_t n, bool on_host) : n_(n), on_host_(on_host) {
    if (on_host_) {
      host_.resize(n);
      p_ = host_.data();
    } else {
      void* d = nullptr;
      cuda_ok(cudaMalloc(&d, n * sizeof(T)), "cudaMalloc");
      p_ = static_cast<T*>(d);
      cuda_ok(cudaMemset(d, 0xff, n * sizeof(T)), "cudaMemset poison");  // NaN poison
    }
  }
  ~TestBuffer() {
    if (!on_host_) cudaFree(p_);
  }
  TestBuffer(const TestBuffer&) = delete;
  TestBuffer& operator=(const TestBuffer&) = delete;
  T* get() const { return p_; }
  void upload(const std::vector<T>& v) {
    if (on_host_)
      std::copy(v.begin(), v.end(), host_.begin());
    else
      cuda_ok(cudaMemcpy(p_, v.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download() const {
    if (!on_host_) cuda_ok(cudaDeviceSynchronize(), "kernels");
    if (on_host_) return host_;
    std::vector<T> v(n_);
    cuda_ok(cudaMemcpy(v.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return v;
  }

 private:
  std::size_t n_;
  bool on_host_;
  std::vector<T> host_;
  T* p_ = nullptr;
};

/// The private plain schedule: cuda::frame::plain_iterations (two kernels per iteration,
/// global memory), in the storage of `precision`, on the device or in host emulation.
class PlainSchedule final : public cuda::IterationSchedule {
 public:
  PlainSchedule(const Tvl1Params& p, cuda::Storage storage, bool on_host)
      : p_(p), storage_(storage), on_host_(on_host) {}
  void run(const cuda::DeviceFields& f, int iterations, cudaStream_t stream) override {
    if (f.storage != storage_) throw std::invalid_argument("PlainSchedule: storage mismatch");
    cuda::frame::plain_iterations(f.storage == cuda::Storage::f16, f.grad, f.rho_c, f.u, f.p1, f.p2,
                                  f.width, f.height, iterations, float(p_.tau), float(p_.lambda),
                                  float(p_.theta), cuda::frame::Exec{stream, on_host_});
  }
  std::vector<KernelResources> resources() const override { return {}; }

 private:
  Tvl1Params p_;
  cuda::Storage storage_;
  bool on_host_;
};

/// A fixture of the stage tests run twice (parameter true: host emulation, everywhere; false:
/// the device, skipped without one); exec() is the matching frame::Exec on the default stream.
class HostOrDevice : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    on_host_ = GetParam();
    if (!on_host_ && !have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
  cuda::frame::Exec exec() const { return cuda::frame::Exec{nullptr, on_host_}; }
  bool on_host_ = true;
};

/// The frame tests' parameters: 3 scales, `warpings` warpings x `iterations` iterations, no
/// epsilon stopping, the rest Tvl1Params' defaults (the default frame with the defaults).
inline Tvl1Params frame_params(int warpings = 1, int iterations = 10) {
  Tvl1Params p;
  p.n_scales = 3;
  p.n_warpings = warpings;
  p.iterations = iterations;
  p.epsilon = 0;
  return p;
}

/// The CUDA frame solver of p over PlainSchedule in f32 (config variant "plain"), with
/// `options` and its host_emulation set to on_host.
inline std::unique_ptr<FlowSolver> plain_frame_solver(const Tvl1Params& p, bool on_host,
                                                      cuda::FrameOptions options = {}) {
  Config c;
  c.variant = "plain";
  c.precision = "f32";
  c.params = param_values_of(p);
  options.host_emulation = on_host;
  return make_cuda_frame_solver(c, std::make_unique<PlainSchedule>(p, cuda::Storage::f32, on_host),
                                options);
}

/// A config of `variant` in `precision` with the parameters of p (and no tunables).
inline Config config_of(const std::string& variant, const std::string& precision,
                        const Tvl1Params& p) {
  Config c;
  c.variant = variant;
  c.precision = precision;
  c.params = param_values_of(p);
  return c;
}

/// Expects a and b to be the same flow bit for bit; `what` names the comparison in a failure.
inline void expect_same_flow(const FlowField& a, const FlowField& b, const std::string& what) {
  ASSERT_EQ(a.width, b.width) << what;
  ASSERT_EQ(a.height, b.height) << what;
  EXPECT_TRUE(a.u == b.u) << what << ": u differs";
  EXPECT_TRUE(a.v == b.v) << what << ": v differs";
}

/// The first valid config of a variant (tunable domains in lexicographic order), or nullopt.
inline std::optional<Config> first_valid_config(const Variant& v, const std::string& precision,
                                                const Tvl1Params& p) {
  const auto domains = v.tunables();
  std::vector<std::size_t> idx(domains.size(), 0);
  for (int guard = 0; guard < 100000; ++guard) {
    Config c = config_of(v.name(), precision, p);
    for (std::size_t k = 0; k < domains.size(); ++k)
      c.tunables[domains[k].name] = domains[k].values[idx[k]];
    if (!v.invalid_reason(c)) return c;
    std::size_t k = 0;
    while (k < idx.size() && ++idx[k] == domains[k].values.size()) idx[k++] = 0;
    if (k == idx.size()) break;
  }
  return std::nullopt;
}

}  // namespace flowtune::test
