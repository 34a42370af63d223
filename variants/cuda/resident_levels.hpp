// Launch-free warpings for the coarse pyramid levels: a level small enough
// to live in one thread block's shared memory runs all iterations of a warping in one launch
// of kernels/cuda/tvl1_resident.cuh, whatever the config's scheme does on the larger levels.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Threads per block of the resident-level kernel: one block of 32 x 32, the whole SM for one
/// level.
constexpr int kResidentThreads = 1024;

/// The resident-level kernel's NVRTC config for `precision` (tunable resident_threads =
/// kResidentThreads): what ResidentLevels builds, and what a prebuilt kernel cache holds for a
/// config with resident_px > 0 (CudaVariant::build_kernels).
Config resident_kernel_config(const std::string& precision);

/// The resident-level kernel built (NVRTC, cached) for one config's precision and params.
class ResidentLevels {
 public:
  /// Builds ft_resident for config.precision on the current device with lambda, theta, tau
  /// of config.params. max_pixels: the largest level it takes (0 = none). Throws
  /// std::runtime_error without a device or when the build fails. order: how its launches
  /// follow the kernel before each (launch_order.hpp).
  ResidentLevels(const Config& config, int max_pixels, LaunchOrder order = LaunchOrder::stream);
  ~ResidentLevels();
  ResidentLevels(const ResidentLevels&) = delete;
  ResidentLevels& operator=(const ResidentLevels&) = delete;

  /// Shared memory a width x height level needs: 4 pairs + 1 scalar of the storage per pixel
  /// (36 B f32, 18 B f16 / mixed).
  std::size_t shared_bytes(int width, int height) const;
  /// True when the level has at most max_pixels pixels and shared_bytes() fits the device's
  /// opt-in shared memory per block.
  bool fits(int width, int height) const;
  /// `iterations` iterations on f in one launch (asynchronous on stream), same result as the
  /// `global` scheme. Throws std::invalid_argument when !fits(f.width, f.height) or f's
  /// storage is not the config's.
  void run(const DeviceFields& f, int iterations, cudaStream_t stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flowtune::cuda
