// Temporal tiling for the middle pyramid levels: a level of at most
// `max_pixels` runs its iterations FT_TILED_DEPTH at a time (kernels/cuda/tvl1_tiled.cuh), one
// launch per FT_TILED_DEPTH iterations instead of one per iteration, whatever the config's
// scheme does on the larger levels. The kernel's shape (threads per side, depth, thread
// coarsening) comes from the config's tunables tiled_t, tiled_depth and tiled_coarsen.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Threads per side of the tiled kernel's block, iterations per launch (its halo) and pixels
/// per thread per side when a config does not set them (tiled_t, tiled_depth, tiled_coarsen).
constexpr int kTiledThreadsPerSide = 32;
constexpr int kTiledDepth = 4;
constexpr int kTiledCoarsen = 1;

/// The tiled kernel's shape: a block of threads_per_side^2 threads holds a region of R x R
/// pixels, R = threads_per_side * coarsen, whose centre tile of R - 2 depth pixels per side is
/// exact after depth iterations (kernels/cuda/tvl1_tiled.cuh).
struct TiledShape {
  int threads_per_side = kTiledThreadsPerSide;  ///< tiled_t: 8, 16 or 32
  int depth = kTiledDepth;                      ///< tiled_depth: iterations per launch, >= 1
  int coarsen = kTiledCoarsen;                  ///< tiled_coarsen: pixels per thread per side
  int region() const { return threads_per_side * coarsen; }
  int tile() const { return region() - 2 * depth; }
};

/// The config's tiled shape: tunables tiled_t, tiled_depth, tiled_coarsen (each absent = the
/// constants above).
TiledShape tiled_shape_of(const Config& config);
/// Static shared memory of the tiled kernel, bytes: u, p1, p2 of the region (3 R^2 pairs of 4
/// bytes in f16, 8 in f32 and mixed, as kernels/cuda/tvl1_math.cuh's V).
int tiled_shared_bytes(const TiledShape& shape, const std::string& precision);
/// Why the shape cannot be built, or nullopt: threads_per_side not 8, 16 or 32; depth < 1;
/// coarsen not 1, 2 or 4; a tile of fewer than 1 pixel (R <= 2 depth); static shared memory
/// over 48 KiB (tiled_shared_bytes).
std::optional<std::string> tiled_shape_invalid_reason(const TiledShape& shape,
                                                      const std::string& precision);

/// The tiled kernel's NVRTC config for `precision` and `shape` (tunables tiled_t, tiled_depth
/// and, when not 1, tiled_coarsen, and when not 0 tiled_median = median_window, the build that
/// also applies the median: the defaults give the key of the kernel from before coarsening): what
/// TiledLevels builds, and what a prebuilt kernel cache holds for a config with tiled_px > 0
/// (CudaVariant::build_kernels).
Config tiled_kernel_config(const std::string& precision, const TiledShape& shape = {},
                           int median_window = 0);
/// The NVRTC defines of tiled_kernel_config(precision, shape): FT_PRECISION_* and FT_TILED_*
/// (nvrtc_defines leaves the tiled shape's tunables out of a scheme's build,
/// is_tiled_shape_tunable, so the tiled kernel has its own). Throws std::invalid_argument for an
/// unknown precision.
std::vector<std::string> tiled_kernel_defines(const std::string& precision,
                                              const TiledShape& shape = {}, int median_window = 0);

/// The tiled kernel built (NVRTC, cached) for one config's precision and params.
class TiledLevels {
 public:
  /// Builds ft_tiled for config.precision and tiled_shape_of(config) on the current device
  /// with lambda, theta, tau of config.params. max_pixels: the largest level it takes (0 =
  /// none). Throws std::invalid_argument for a shape tiled_shape_invalid_reason rejects,
  /// std::runtime_error without a device or when the build fails. order: how its launches
  /// follow the kernel before each (launch_order.hpp). median_window 3 or 5: also builds the
  /// kernel that applies that median in a warping's last launch (fuses_median), when the
  /// depth allows it; 0: not.
  TiledLevels(const Config& config, int max_pixels, LaunchOrder order = LaunchOrder::stream,
              int median_window = 0);
  ~TiledLevels();
  TiledLevels(const TiledLevels&) = delete;
  TiledLevels& operator=(const TiledLevels&) = delete;

  /// True when a width x height level has at most max_pixels pixels.
  bool takes(int width, int height) const;
  /// True when the kernel that applies the frame's median filter of median_window (3 or 5) in
  /// a warping's last launch was built: the constructor's median_window, and a depth over
  /// median_window / 2 (the ring the median reads around the tile must be exact after that
  /// launch).
  bool fuses_median(int median_window) const;
  /// `iterations` iterations on f (asynchronous on stream) in ceil(iterations / depth)
  /// launches, ping-pong through an internal scratch set (allocated on first use for f's
  /// size); f32 and f16 give shared_fusion's result bit for bit, mixed rounds to half once per
  /// launch instead of once per iteration. median_window 3 or 5: u is then median-filtered
  /// as the frame's median stage does (frame::median_flow, bit for bit) by the last launch,
  /// which runs at most depth - median_window / 2 iterations (so the launches are
  /// 1 + ceil((iterations - depth + median_window / 2) / depth) when iterations exceed that).
  /// Throws std::invalid_argument when !takes(), f's storage is not the config's, or
  /// median_window is not 0 or one that fuses_median accepts.
  void run(const DeviceFields& f, int iterations, cudaStream_t stream, int median_window = 0);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flowtune::cuda
