// The class behind cuda_frame_solver.hpp's functions: the frame solver's state and the order
// of a frame's work on its streams. Shared by the files that implement it
// (cuda_frame_solver.cpp: construction and the host API; device_frame.cpp: the device-pointer
// API; u8_frame.cpp: the 8-bit host API; frame_profile.cpp: the per-stage timeline); other
// code uses cuda_frame_solver.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/tvl1_params.hpp"
#include "variants/config.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/frame_size_cache.hpp"
#include "variants/cuda/frame_stages.hpp"
#include "variants/cuda/pinned_frame_copies.hpp"
#include "variants/cuda/stage_marks.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {

/// See make_cuda_frame_solver (cuda_frame_solver.hpp) for what it computes and throws.
class CudaFrameSolver final : public FlowSolver {
 public:
  CudaFrameSolver(const Config& config, std::unique_ptr<IterationSchedule> schedule,
                  const FrameOptions& options);
  ~CudaFrameSolver() override;

  FlowField compute(const Image& i0, const Image& i1) override;
  void compute_into(const Image& i0, const Image& i1, FlowField& flow) override;
  /// The frame started from init_flow instead of 0 (tvl1_multiscale's init_flow): the flow is
  /// uploaded (non-finite or |value| > 1e9 read as 0, as the CPU), its pyramid built by the
  /// frames' zoom_out (Gaussian pre-filter, bicubic sampling) and scaled by zoom^(levels - 1),
  /// and the coarsest level starts from it. Such a frame runs with direct launches (no graph).
  FlowField compute_from(const Image& i0, const Image& i1, const FlowField& init) override;
  /// compute_from into the caller's flow (stage_out: no allocation once flow has the size);
  /// the sanitised initial flow is uploaded from page-locked memory (init_lock_).
  void compute_from_into(const Image& i0, const Image& i1, const FlowField& init,
                         FlowField& flow) override;
  /// cuda::lock_pages (none in host emulation).
  std::shared_ptr<void> page_lock(const void* p, std::size_t bytes) override;

  /// See cuda::compute_flow_device (device_frame.cpp).
  void compute_device(const float* i0, const float* i1, int width, int height, float* flow,
                      cudaStream_t stream);
  /// See cuda::compute_flow_device_pitched (device_frame.cpp).
  void compute_device_pitched(const float* i0, std::size_t pitch0, const float* i1,
                              std::size_t pitch1, int width, int height, float* flow,
                              std::size_t flow_pitch, cudaStream_t stream);
  /// See cuda::compute_flow_f32 (u8_frame.cpp).
  void compute_f32(const float* i0, const float* i1, int width, int height, std::ptrdiff_t stride,
                   FlowField& flow);
  /// See cuda::compute_flow_u8 (u8_frame.cpp).
  void compute_u8(const std::uint8_t* i0, const std::uint8_t* i1, int width, int height,
                  std::ptrdiff_t stride, FlowField& flow);
  /// See cuda::frame_cache_stats.
  FrameCacheStats stats() const { return cache_->stats(); }
  /// See cuda::profile_frame (frame_profile.cpp).
  FrameTimeline profile(const Image& i0, const Image& i1, int repeats);

 private:
  static void check_frames(const Image& i0, const Image& i1);
  SizeEntry& cur() const { return *cache_->current(); }
  /// Makes the cached entry of width x height current (FrameSizeCache::select).
  void select_size(int width, int height);
  /// Host stage before the upload: the frames into the pinned buffer of their size.
  void stage_in(const Image& i0, const Image& i1);
  /// Host stage after the download: the flow out of the pinned buffer into `flow`.
  void stage_out(FlowField& flow);

  /// One frame at the current size on `s`: the frames from in0 / in1 (host_in in the host
  /// path, its bytes in the 8-bit path, the caller's device frames in the device path; see
  /// FrameStages::upload), the device work (the size's graph
  /// once captured, else direct launches), the planar flow to `out`. Ordered after the
  /// solver's previous frame whatever stream that ran on. direct: never the graph (a frame
  /// with an initial flow).
  void run_frame(cudaStream_t s, const void* in0, const void* in1, void* out, bool direct = false,
                 FrameInput input = FrameInput::host_float);
  /// Before a frame's first enqueue on `s`: the size's graph captured if due, and `s` ordered
  /// after the solver's previous frame.
  void begin_frame(cudaStream_t s, bool direct);
  /// The device work from `raw` to `flow`: the size's graph once captured, else direct.
  void enqueue_device_work(cudaStream_t s, bool direct);
  /// After a frame's last enqueue on `s`: the frame's event recorded, the frame counted.
  void end_frame(cudaStream_t s);
  /// The host API's frame with the host copies overlapping the bus (FrameOptions::
  /// host_copy_chunks; PinnedFrameCopies::chunked_frame).
  void chunked_frame(const Image& i0, const Image& i1, FlowField& flow);
  /// The host API's frame without the solver's pinned buffers, when the caller's frames and
  /// flow are page-locked (is_page_locked) or FrameOptions::host_copy_chunks is 0: `flow` made
  /// the current size, then true if the frame goes that way (never in host emulation).
  bool direct_host(const void* i0, const void* i1, std::size_t frame_bytes, FlowField& flow);
  /// That frame on stream_: the frames uploaded from the caller's memory (host_float: two
  /// packed float frames; host_u8: rows `stride` bytes apart, widened on the device), the
  /// device work, the flow downloaded into flow.u and flow.v, then waited for.
  void direct_host_frame(const void* i0, const void* i1, std::ptrdiff_t stride, FrameInput input,
                         FlowField& flow);

  Config config_;
  Tvl1Params params_;
  FrameOptions options_;
  Storage storage_ = Storage::f32;
  StageMarks marks_;                       ///< outlives stages_, which marks into it
  std::unique_ptr<FrameStages> stages_;    ///< with the schedule and the optional stages
  std::unique_ptr<FrameSizeCache> cache_;  ///< buffers and graph per frame size
  std::unique_ptr<PinnedFrameCopies> copies_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;  ///< recorded after each frame, on the stream it ran on
  bool have_done_ = false;
  cudaStream_t last_stream_ = nullptr;
  std::vector<float> init_host_;        ///< compute_from: the initial flow, planar, sanitised
  std::shared_ptr<void> init_lock_;     ///< init_host_'s storage page-locked (null in emulation)
  const float* init_locked_ = nullptr;  ///< the storage init_lock_ locks
};

}  // namespace flowtune::cuda
