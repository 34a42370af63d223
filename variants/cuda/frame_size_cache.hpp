// The frame solver's per-size cache: each frame size its buffers, its CUDA Graph of the
// device work and its history, kept for FrameOptions::cached_sizes sizes with least recently
// used eviction, and the counters behind cuda::frame_cache_stats.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "kernels/tvl1_params.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/frame_buffers.hpp"

namespace flowtune::cuda {

/// One cached frame size: its buffers, its CUDA Graph of the device work, and its history.
struct SizeEntry {
  FrameBuffers b;
  cudaGraphExec_t graph = nullptr;
  bool graph_failed = false;
  long frames = 0;  ///< frames computed at this size
  unsigned long long last_use = 0;
};

/// Up to `capacity` SizeEntry, one per frame size, allocated by allocate_frame_buffers with
/// the solver's params, storage and host_emulation. Destroys the graphs it holds (the caller
/// waits for the device first).
class FrameSizeCache {
 public:
  FrameSizeCache(int capacity, const Tvl1Params& params, Storage storage, bool host_emulation)
      : capacity_(capacity), params_(params), storage_(storage), host_emulation_(host_emulation) {}
  ~FrameSizeCache();
  FrameSizeCache(const FrameSizeCache&) = delete;
  FrameSizeCache& operator=(const FrameSizeCache&) = delete;

  /// Makes the entry of width x height current: found in the cache, or allocated (evicting
  /// the least recently used size when the cache is full, after waiting on `done`, the event
  /// of the solver's last frame, when there is one). Throws as allocate_frame_buffers.
  void select(int width, int height, cudaEvent_t done);
  /// The current entry (null before the first select).
  SizeEntry* current() const { return cur_; }
  /// Counts a graph captured and instantiated (frame_graph.hpp).
  void count_graph_build() { ++stats_.graph_builds; }
  FrameCacheStats stats() const;

 private:
  int capacity_;
  Tvl1Params params_;
  Storage storage_;
  bool host_emulation_;
  std::vector<std::unique_ptr<SizeEntry>> cache_;
  SizeEntry* cur_ = nullptr;
  unsigned long long tick_ = 0;
  FrameCacheStats stats_;
};

}  // namespace flowtune::cuda
