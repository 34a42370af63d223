// NVML loaded at run time with dlopen("libnvidia-ml.so.1"): no link-time dependency, so the
// binaries run on machines without a driver (CI, Jetsons).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace flowtune {

/// The NVML functions flowtune uses, on one device. Obtain it with Nvml::get().
/// Source: NVML API reference (nvmlDeviceGetTotalEnergyConsumption: mJ since driver load,
/// Volta and newer; nvmlDeviceGetPowerUsage: mW; nvmlDeviceGetClockInfo(NVML_CLOCK_GRAPHICS):
/// MHz; nvmlDeviceGetSupportedGraphicsClocks per memory clock; nvmlDeviceSetGpuLockedClocks /
/// nvmlDeviceResetGpuLockedClocks: Volta and newer, root).
class Nvml {
 public:
  /// The process-wide instance on device index $FLOWTUNE_NVML_INDEX (default 0), or nullptr
  /// when the library is missing, nvmlInit fails or there is no device. Never throws.
  static Nvml* get();
  /// Number of NVIDIA GPUs NVML sees on this machine (all of them: NVML ignores
  /// CUDA_VISIBLE_DEVICES); 0 without driver or GPU. Never throws.
  static unsigned int device_count();

  std::string device_name() const;
  /// {major, minor}; nullopt when NVML cannot tell.
  std::optional<std::pair<int, int>> compute_capability() const;
  /// Total energy counter in mJ; nullopt when the GPU has none or the call fails.
  std::optional<unsigned long long> total_energy_mj() const;
  /// Board power draw in mW; nullopt on failure.
  std::optional<unsigned int> power_mw() const;
  /// Current graphics clock in MHz; nullopt on failure.
  std::optional<int> graphics_clock_mhz() const;
  /// Supported graphics clocks at the highest supported memory clock, descending.
  std::vector<int> supported_graphics_clocks_mhz() const;
  /// Locks the graphics clock to [min_mhz, max_mhz]; throws std::runtime_error with NVML's
  /// message on failure (e.g. insufficient permissions).
  void set_locked_clocks(int min_mhz, int max_mhz) const;
  /// Resets locked clocks; returns false on failure (used from destructors / signal handlers).
  bool reset_locked_clocks() const noexcept;

  struct Api;  ///< the dlsym'ed function table (nvml.cpp)

 private:
  Nvml(const Api* api, void* device) : api_(api), device_(device) {}
  const Api* api_;
  void* device_;
};

}  // namespace flowtune
