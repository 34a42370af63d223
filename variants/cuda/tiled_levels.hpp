// Temporal tiling for the middle pyramid levels: a level of at most
// `max_pixels` runs its iterations FT_TILED_DEPTH at a time (kernels/cuda/tvl1_tiled.cuh), one
// launch per FT_TILED_DEPTH iterations instead of one per iteration, whatever the config's
// scheme does on the larger levels.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Threads per side of the tiled kernel's block and iterations per launch (its halo).
constexpr int kTiledThreadsPerSide = 32;
constexpr int kTiledDepth = 4;

/// The tiled kernel's NVRTC config for `precision` (tunables tiled_t = kTiledThreadsPerSide,
/// tiled_depth = kTiledDepth): what TiledLevels builds, and what a prebuilt kernel cache holds
/// for a config with tiled_px > 0 (CudaVariant::build_kernels).
Config tiled_kernel_config(const std::string& precision);

/// The tiled kernel built (NVRTC, cached) for one config's precision and params.
class TiledLevels {
 public:
  /// Builds ft_tiled for config.precision on the current device with lambda, theta, tau of
  /// config.params. max_pixels: the largest level it takes (0 = none). Throws
  /// std::runtime_error without a device or when the build fails. order: how its launches
  /// follow the kernel before each (launch_order.hpp).
  TiledLevels(const Config& config, int max_pixels, LaunchOrder order = LaunchOrder::stream);
  ~TiledLevels();
  TiledLevels(const TiledLevels&) = delete;
  TiledLevels& operator=(const TiledLevels&) = delete;

  /// True when a width x height level has at most max_pixels pixels.
  bool takes(int width, int height) const;
  /// `iterations` iterations on f (asynchronous on stream) in ceil(iterations / kTiledDepth)
  /// launches, ping-pong through an internal scratch set (allocated on first use for f's
  /// size); f32 and f16 give shared_fusion's result bit for bit, mixed rounds to half once per
  /// launch instead of once per iteration. Throws std::invalid_argument when !takes() or f's
  /// storage is not the config's.
  void run(const DeviceFields& f, int iterations, cudaStream_t stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flowtune::cuda
