// Launch-free warpings on the levels that fill the GPU: a level of at most `max_pixels` (and
// not resident in one block) runs all the iterations of a warping in one cooperative launch of
// kernels/cuda/tvl1_persistent.cuh, the grid synchronised between the dual and primal updates,
// whatever the config's scheme does on the larger levels. The grid holds only the blocks the
// device keeps resident at once (the driver's occupancy calculator), a requirement of the
// cooperative launch; a device without cooperative launch gets no persistent level (the
// frame falls back to the tiled levels or the scheme).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Threads per block of the persistent kernel (1D) unless told otherwise
/// (FrameOptions::persistent_threads; 128, 256, 512 or 1024).
constexpr int kPersistentThreads = 256;
/// Grid synchronisations per iteration the frame solver uses unless told otherwise
/// (FrameOptions::persistent_syncs).
constexpr int kPersistentSyncsDefault = 1;

/// The persistent kernel's NVRTC config for `precision`, `syncs` (1 or 2 grid
/// synchronisations per iteration) and `threads` per block: tunables persistent_threads and
/// persistent_syncs (-> FT_PERSISTENT_THREADS, FT_PERSISTENT_SYNCS). Throws
/// std::invalid_argument for syncs other than 1 or 2 or threads not in {128, 256, 512, 1024}.
Config persistent_kernel_config(const std::string& precision, int syncs,
                                int threads = kPersistentThreads);

/// The persistent kernel built (NVRTC, cached) for one config's precision and params.
class PersistentLevels {
 public:
  /// Builds ft_persistent for config.precision on the current device with lambda, theta, tau
  /// of config.params. max_pixels: the largest level it takes (0 = none). syncs: grid
  /// synchronisations per iteration, 1 (ping-pong through a scratch set, recomputing u of the
  /// right / lower neighbour) or 2 (in place, scheme `global`'s order). blocks_per_sm: the
  /// blocks per SM of the grid, 0 = as many as the occupancy calculator allows (a larger
  /// request is capped to that). threads: per block (128, 256, 512 or 1024). On a device without
  /// cooperative launch (cudaDevAttrCooperativeLaunch 0) nothing is built and takes() is false.
  /// Throws std::invalid_argument for syncs other than 1 or 2, blocks_per_sm < 0 or another
  /// threads, std::runtime_error without a device or when the build fails.
  PersistentLevels(const Config& config, int max_pixels, int syncs = 1, int blocks_per_sm = 0,
                   int threads = kPersistentThreads);
  ~PersistentLevels();
  PersistentLevels(const PersistentLevels&) = delete;
  PersistentLevels& operator=(const PersistentLevels&) = delete;

  /// True when the device supports cooperative launch, the kernel has at least one resident
  /// block per SM and a width x height level has at most max_pixels pixels.
  bool takes(int width, int height) const;
  /// Blocks per SM of the grid (after the cap), 0 when nothing was built.
  int blocks_per_sm() const;
  /// The driver's resident blocks per SM of the kernel
  /// (cuOccupancyMaxActiveBlocksPerMultiprocessor), 0 when nothing was built: what the tuner's
  /// occupancy model must predict.
  int resident_blocks_per_sm() const;
  /// Threads per block of the kernel.
  int threads() const;
  /// Blocks of the launch for a level of n pixels: min(blocks_per_sm() * SMs,
  /// ceil(n / threads())).
  int grid_blocks(long long pixels) const;
  /// Registers, shared and local memory of the loaded kernel (cuFuncGetAttribute).
  KernelResources resources() const;

  /// `iterations` iterations on f in one cooperative launch (asynchronous on stream); the same
  /// result as the `global` scheme bit for bit (syncs 2), or as shared_fusion's (syncs 1; the
  /// same function in every precision). epsilon > 0 with check_every >= 1: IPOL's stopping
  /// test inside the launch, the rule of EpsilonStop (a final chunk shorter than check_every
  /// untested). done_device: if not null, a device int that receives the iterations run.
  /// Throws std::invalid_argument when !takes(), f's storage is not the config's, or
  /// epsilon > 0 with check_every < 1; std::runtime_error when the launch fails.
  void run(const DeviceFields& f, int iterations, cudaStream_t stream, double epsilon = 0,
           int check_every = 0, int* done_device = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flowtune::cuda
