// The host side of the host API's frames: the two frames copied into the size's pinned upload
// buffer and the flow out of its pinned download buffer (HostCopier's threads), and the
// chunked frame whose host copies overlap the bus (FrameOptions::host_copy_chunks).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "kernels/image.hpp"
#include "variants/cuda/frame_buffers.hpp"
#include "variants/cuda/host_copy.hpp"

namespace flowtune::cuda {

/// The host copies through the pinned host_in / host_out of a FrameBuffers (plain host
/// memory in host emulation). Not thread-safe (the solver's). Throws std::runtime_error naming
/// cuda_frame_solver and the call on a CUDA error.
class PinnedFrameCopies {
 public:
  /// threads: HostCopier threads; -1 = min(4, hardware threads / 2), at least 1.
  explicit PinnedFrameCopies(int threads);
  ~PinnedFrameCopies();
  PinnedFrameCopies(const PinnedFrameCopies&) = delete;
  PinnedFrameCopies& operator=(const PinnedFrameCopies&) = delete;

  /// i0 then i1 (b's size, n floats each) into b.host_in (2n floats).
  void frames_in(FrameBuffers& b, const Image& i0, const Image& i1);
  /// The 8-bit frames (b's size; row r of frame k starts at ik + r * stride bytes, stride >=
  /// width) packed into b.host_in's first 2n bytes: i0's n bytes, then i1's.
  void frames_in_u8(FrameBuffers& b, const std::uint8_t* i0, const std::uint8_t* i1,
                    std::ptrdiff_t stride);
  /// The float frames (b's size; row r of frame k starts at ik + r * stride bytes, stride >=
  /// 4 width, a multiple of 4) packed into b.host_in: i0's n floats, then i1's.
  void frames_in_f32(FrameBuffers& b, const float* i0, const float* i1, std::ptrdiff_t stride);
  /// The planar flow of b.host_out into `flow` (its vectors keep their storage when they
  /// already have the size).
  void flow_out(const FrameBuffers& b, FlowField& flow);

  /// The host API's frame on `stream` with the host copies overlapping the bus: begin_frame();
  /// each of `chunks` chunks of the frames uploaded into b.raw as soon as it is in pinned
  /// memory (on the copier's threads, on the caller's device); device_work() (normalisation,
  /// the size's graph or direct launches); the flow downloaded in as many chunks, an event
  /// after each; end_frame(); each chunk of the flow copied out into `flow` as soon as its
  /// download ended.
  void chunked_frame(FrameBuffers& b, const Image& i0, const Image& i1, FlowField& flow, int chunks,
                     cudaStream_t stream, const std::function<void()>& begin_frame,
                     const std::function<void()>& device_work,
                     const std::function<void()>& end_frame);
  /// chunked_frame for 8-bit frames (packed as frames_in_u8, the chunks uploaded into
  /// b.raw_u8); device_work() must widen them first (FrameStages::widen_u8).
  void chunked_frame_u8(FrameBuffers& b, const std::uint8_t* i0, const std::uint8_t* i1,
                        std::ptrdiff_t stride, FlowField& flow, int chunks, cudaStream_t stream,
                        const std::function<void()>& begin_frame,
                        const std::function<void()>& device_work,
                        const std::function<void()>& end_frame);

 private:
  /// chunked_frame's body: the jobs fill b.host_in's first `total` bytes, each chunk uploaded
  /// from b.host_in to `device_in` at the same offset.
  void chunked(FrameBuffers& b, const std::vector<HostCopyJob>& in_jobs, std::size_t total,
               void* device_in, FlowField& flow, int chunks, cudaStream_t stream,
               const std::function<void()>& begin_frame, const std::function<void()>& device_work,
               const std::function<void()>& end_frame);

  std::unique_ptr<HostCopier> copier_;
  std::vector<cudaEvent_t> chunk_events_;  ///< chunked_frame: one per download chunk
};

}  // namespace flowtune::cuda
