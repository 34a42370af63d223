#include "boards/nvml.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace flowtune {

// Minimal NVML ABI (nvml.h): nvmlReturn_t is an int enum, 0 = NVML_SUCCESS; nvmlDevice_t an
// opaque pointer; NVML_CLOCK_GRAPHICS = 0.
using nvml_return = int;
using nvml_device = void*;

struct Nvml::Api {
  nvml_return (*init)() = nullptr;
  nvml_return (*device_get_count)(unsigned int*) = nullptr;
  nvml_return (*device_get_handle_by_index)(unsigned int, nvml_device*) = nullptr;
  nvml_return (*device_get_name)(nvml_device, char*, unsigned int) = nullptr;
  nvml_return (*device_get_cuda_compute_capability)(nvml_device, int*, int*) = nullptr;
  nvml_return (*device_get_total_energy_consumption)(nvml_device, unsigned long long*) = nullptr;
  nvml_return (*device_get_power_usage)(nvml_device, unsigned int*) = nullptr;
  nvml_return (*device_get_clock_info)(nvml_device, int, unsigned int*) = nullptr;
  nvml_return (*device_get_supported_memory_clocks)(nvml_device, unsigned int*,
                                                    unsigned int*) = nullptr;
  nvml_return (*device_get_supported_graphics_clocks)(nvml_device, unsigned int, unsigned int*,
                                                      unsigned int*) = nullptr;
  nvml_return (*device_set_gpu_locked_clocks)(nvml_device, unsigned int, unsigned int) = nullptr;
  nvml_return (*device_reset_gpu_locked_clocks)(nvml_device) = nullptr;
  const char* (*error_string)(nvml_return) = nullptr;
};

namespace {

template <typename F>
bool load(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  return fn != nullptr;
}

Nvml::Api* load_api() {
  void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return nullptr;
  static Nvml::Api api;
  bool ok = load(lib, "nvmlInit_v2", api.init) &&
            load(lib, "nvmlDeviceGetCount_v2", api.device_get_count) &&
            load(lib, "nvmlDeviceGetHandleByIndex_v2", api.device_get_handle_by_index) &&
            load(lib, "nvmlDeviceGetName", api.device_get_name) &&
            load(lib, "nvmlErrorString", api.error_string);
  if (!ok) return nullptr;
  // Optional entry points: absent in old drivers; each use checks for nullptr.
  load(lib, "nvmlDeviceGetCudaComputeCapability", api.device_get_cuda_compute_capability);
  load(lib, "nvmlDeviceGetTotalEnergyConsumption", api.device_get_total_energy_consumption);
  load(lib, "nvmlDeviceGetPowerUsage", api.device_get_power_usage);
  load(lib, "nvmlDeviceGetClockInfo", api.device_get_clock_info);
  load(lib, "nvmlDeviceGetSupportedMemoryClocks", api.device_get_supported_memory_clocks);
  load(lib, "nvmlDeviceGetSupportedGraphicsClocks", api.device_get_supported_graphics_clocks);
  load(lib, "nvmlDeviceSetGpuLockedClocks", api.device_set_gpu_locked_clocks);
  load(lib, "nvmlDeviceResetGpuLockedClocks", api.device_reset_gpu_locked_clocks);
  if (api.init() != 0) return nullptr;
  return &api;  // the library stays loaded for the life of the process
}

}  // namespace

namespace {
const Nvml::Api* api_once() {
  static const Nvml::Api* api = load_api();
  return api;
}
}  // namespace

unsigned int Nvml::device_count() {
  const Api* api = api_once();
  unsigned int count = 0;
  if (!api || api->device_get_count(&count) != 0) return 0;
  return count;
}

Nvml* Nvml::get() {
  static Nvml* instance = []() -> Nvml* {
    const Api* api = api_once();
    if (!api) return nullptr;
    unsigned int count = 0;
    if (api->device_get_count(&count) != 0 || count == 0) return nullptr;
    unsigned int index = 0;
    if (const char* env = std::getenv("FLOWTUNE_NVML_INDEX"))
      index = static_cast<unsigned int>(std::atoi(env));
    if (index >= count) return nullptr;
    nvml_device dev = nullptr;
    if (api->device_get_handle_by_index(index, &dev) != 0) return nullptr;
    static Nvml nvml(api, dev);
    return &nvml;
  }();
  return instance;
}

std::string Nvml::device_name() const {
  char buf[256] = {};
  if (api_->device_get_name(device_, buf, sizeof buf) != 0) return "unknown NVIDIA GPU";
  return buf;
}

std::optional<std::pair<int, int>> Nvml::compute_capability() const {
  int major = 0, minor = 0;
  if (!api_->device_get_cuda_compute_capability ||
      api_->device_get_cuda_compute_capability(device_, &major, &minor) != 0)
    return std::nullopt;
  return std::make_pair(major, minor);
}

std::optional<unsigned long long> Nvml::total_energy_mj() const {
  unsigned long long mj = 0;
  if (!api_->device_get_total_energy_consumption ||
      api_->device_get_total_energy_consumption(device_, &mj) != 0)
    return std::nullopt;
  return mj;
}

std::optional<unsigned int> Nvml::power_mw() const {
  unsigned int mw = 0;
  if (!api_->device_get_power_usage || api_->device_get_power_usage(device_, &mw) != 0)
    return std::nullopt;
  return mw;
}

std::optional<int> Nvml::graphics_clock_mhz() const {
  unsigned int mhz = 0;
  if (!api_->device_get_clock_info ||
      api_->device_get_clock_info(device_, 0 /*NVML_CLOCK_GRAPHICS*/, &mhz) != 0)
    return std::nullopt;
  return static_cast<int>(mhz);
}

std::vector<int> Nvml::supported_graphics_clocks_mhz() const {
  std::vector<int> out;
  if (!api_->device_get_supported_memory_clocks || !api_->device_get_supported_graphics_clocks)
    return out;
  unsigned int mem[128];
  unsigned int n_mem = 128;
  if (api_->device_get_supported_memory_clocks(device_, &n_mem, mem) != 0 || n_mem == 0) return out;
  unsigned int mem_max = *std::max_element(mem, mem + n_mem);
  unsigned int gfx[1024];
  unsigned int n_gfx = 1024;
  if (api_->device_get_supported_graphics_clocks(device_, mem_max, &n_gfx, gfx) != 0) return out;
  for (unsigned int i = 0; i < n_gfx; ++i) out.push_back(static_cast<int>(gfx[i]));
  std::sort(out.rbegin(), out.rend());
  return out;
}

void Nvml::set_locked_clocks(int min_mhz, int max_mhz) const {
  if (!api_->device_set_gpu_locked_clocks)
    throw std::runtime_error("NVML: nvmlDeviceSetGpuLockedClocks is not available in this driver");
  nvml_return r = api_->device_set_gpu_locked_clocks(device_, static_cast<unsigned int>(min_mhz),
                                                     static_cast<unsigned int>(max_mhz));
  if (r != 0)
    throw std::runtime_error(std::string("NVML: nvmlDeviceSetGpuLockedClocks(") +
                             std::to_string(min_mhz) + ", " + std::to_string(max_mhz) +
                             ") failed: " + api_->error_string(r));
}

bool Nvml::reset_locked_clocks() const noexcept {
  return api_->device_reset_gpu_locked_clocks && api_->device_reset_gpu_locked_clocks(device_) == 0;
}

}  // namespace flowtune
