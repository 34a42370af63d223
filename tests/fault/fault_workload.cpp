// A workload that only a test build of `tune` has (tune_with_faults): variants that work,
// crash (SIGSEGV), hang, and, on a GPU, launch a kernel that writes through a null pointer
// (an illegal address: a sticky CUDA error). It checks the fault isolation of the tuner:
// each bad config is recorded as failed and the run goes on (tests/fault/test_fault.cpp).
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "workloads/workload.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include "variants/cuda/cuda_driver.hpp"
#endif

namespace flowtune {
namespace {

class TwoItems final : public InputSet {
 public:
  std::string key() const override { return "fault:a,b"; }
  std::size_t size() const override { return 2; }
  std::string item_name(std::size_t i) const override { return i ? "b" : "a"; }
  double item_work(std::size_t) const override { return 1; }
};

#ifdef FLOWTUNE_HAVE_CUDA
// One kernel that writes through a null pointer, built with NVRTC for the current device.
void launch_null_write() {
  const char* src = "extern \"C\" __global__ void null_write(int* p) { p[threadIdx.x] = 1; }";
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, "null_write.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS)
    throw std::runtime_error("nvrtcCreateProgram failed");
  const std::string arch = "--gpu-architecture=" + cuda::current_device_arch();
  const char* opts[] = {arch.c_str()};
  if (nvrtcCompileProgram(prog, 1, opts) != NVRTC_SUCCESS)
    throw std::runtime_error("nvrtc compile failed");
  std::size_t size = 0;
  nvrtcGetCUBINSize(prog, &size);
  std::string cubin(size, '\0');
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);
  cuda::LoadedModule module(cubin);
  int* null_ptr = nullptr;
  void* args[] = {&null_ptr};
  module.launch(module.function("null_write"), dim3(1), dim3(32), 0, nullptr, args);
  cuda::check_cuda(cudaDeviceSynchronize(), "null_write");
}
#endif

class FaultRunner final : public Runner {
 public:
  explicit FaultRunner(std::string mode) : mode_(std::move(mode)) {}
  void run(std::size_t) override {
    if (mode_ == "segv") raise(SIGSEGV);
    if (mode_ == "hang") std::this_thread::sleep_for(std::chrono::hours(1));
#ifdef FLOWTUNE_HAVE_CUDA
    if (mode_ == "cuda_fault") launch_null_write();
    if (mode_ == "cuda_ok") cuda::check_cuda(cudaDeviceSynchronize(), "cuda_ok");
#endif
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::map<std::string, double> score(std::size_t) override {
    return {{"value", 1}};
  }

 private:
  std::string mode_;
};

class FaultVariant final : public Variant {
 public:
  FaultVariant(std::string name, std::string target)
      : name_(std::move(name)), target_(std::move(target)) {}
  std::string name() const override { return name_; }
  std::string workload() const override { return "faulty"; }
  std::string target() const override { return target_; }
  std::vector<std::string> precisions() const override { return {"f32"}; }
  std::vector<TunableDomain> tunables() const override { return {}; }

 private:
  std::string name_, target_;
};

class FaultWorkload final : public Workload {
 public:
  std::string name() const override { return "faulty"; }
  std::string description() const override {
    return "test-only: configs that crash, hang or fault";
  }
  std::string work_unit() const override { return "run"; }
  const std::vector<ParamSpec>& params() const override {
    static const std::vector<ParamSpec> none;
    return none;
  }
  const std::vector<MetricSpec>& metrics() const override {
    static const std::vector<MetricSpec> m = {{"value", "", true, "always 1"}};
    return m;
  }
  std::vector<std::string> front_objectives() const override { return {"time_ms"}; }
  std::vector<const Variant*> variants() const override {
    static const FaultVariant ok("ok", "cpu"), segv("segv", "cpu"), hang("hang", "cpu"),
        ok2("ok2", "cpu"), cuda_fault("cuda_fault", "cuda"), cuda_ok("cuda_ok", "cuda");
    return {&ok, &segv, &hang, &ok2, &cuda_fault, &cuda_ok};
  }
  ParamDimensions default_dimensions(const std::string&) const override { return {}; }
  std::unique_ptr<InputSet> load_inputs(const InputOptions&) const override {
    return std::make_unique<TwoItems>();
  }
  std::unique_ptr<Runner> make_runner(const Config& config, const InputSet&) const override {
    return std::make_unique<FaultRunner>(config.variant);
  }
};

const FaultWorkload kWorkload;
const bool kRegistered = register_workload(kWorkload);

}  // namespace
}  // namespace flowtune
