// The stage sequence of one GPU TV-L1 frame (kernels/tvl1_multiscale.hpp step for step, in
// stream order): upload, joint normalisation, structure-texture, presmoothing, the pyramid,
// coarse to fine the warpings with the schedule's iterations (or the resident, tiled or
// persistent levels), the median filters, zoom_in, the planar flow, download; and the
// initial flow's pyramid of compute_from. What the size's CUDA Graph holds is core().
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/tvl1_params.hpp"
#include "variants/config.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/epsilon_stop.hpp"
#include "variants/cuda/frame_buffers.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/cuda/resident_levels.hpp"
#include "variants/cuda/stage_marks.hpp"
#include "variants/cuda/texture_stage.hpp"
#include "variants/cuda/tiled_levels.hpp"

namespace flowtune::cuda {

/// Where a frame's inputs come from: the host API's float frames (through host_in), the
/// device-pointer API's float frames, or the 8-bit host API's frames (through host_in's bytes).
enum class FrameInput { host_float, device_float, host_u8 };

/// Enqueues the stages of a frame on a FrameBuffers (device pointers, or host pointers run
/// synchronously in FrameOptions::host_emulation), marking each in `marks` while profiling.
/// Throws std::runtime_error naming cuda_frame_solver and the call on a CUDA error, and what
/// the schedule and the kernels throw.
class FrameStages {
 public:
  /// Computes the Gaussian taps of the presmoothing (p.presmoothing_sigma) and of zoom_out
  /// (sigma 0.6 sqrt(1/zoom^2 - 1)); throws std::invalid_argument for a Gaussian wider than
  /// 32 taps (frame::gaussian_taps). `schedule` is not null; `marks` outlives this.
  FrameStages(const Tvl1Params& p, Storage storage, const FrameOptions& options,
              std::unique_ptr<IterationSchedule> schedule, StageMarks& marks);
  /// Makes the optional stages: on the device (not host_emulation) the resident, tiled and
  /// persistent levels of `config` (FrameOptions' *_max_pixels, -1 = the config's tunables),
  /// the stopping test when epsilon > 0, the structure-texture stage when texture_alpha > 0.
  void prepare(const Config& config);

  /// True with a stopping test (EpsilonStop reads back: such a frame is never captured).
  bool has_stopping_test() const { return stop_ != nullptr; }
  /// The initial flow of the next core() (planar u, v of the frame size, sanitised; the
  /// caller keeps it alive), or null for a start from 0.
  void set_initial_flow(const float* planar) { init_flow_ = planar; }

  /// The two frames into `raw` (one copy when they are contiguous, as in host_in); with fused
  /// stages then their joint min / max (normalise), outside the size's graph: frames already
  /// on the device (FrameInput::device_float) are then copied by the min / max launch itself;
  /// 8-bit host frames (FrameInput::host_u8: in0 = host_in's 2n bytes, in1 ignored) are
  /// uploaded into raw_u8 and widened into raw (widen_u8).
  void upload(cudaStream_t s, FrameBuffers& b, const void* in0, const void* in1,
              FrameInput input = FrameInput::host_float);
  /// The device-pointer API's frames in pitched rows (row y of frame k at in_k + y * pitch_k
  /// bytes; pitch_k >= 4 width): packed frames (pitch 4 width) go as upload()'s device
  /// frames; pitched ones are copied into `raw` by one 2-D copy each (cudaMemcpy2DAsync), then
  /// normalised as the host frames are. The same floats reach `raw` either way.
  void upload_pitched(cudaStream_t s, FrameBuffers& b, const float* in0, std::size_t pitch0,
                      const float* in1, std::size_t pitch1);
  /// The 8-bit frames of raw_u8 widened into raw's floats (frame::bytes_to_float_pair, exact),
  /// before normalise: from there the frame is the float upload's.
  void widen_u8(cudaStream_t s, FrameBuffers& b);
  /// With fused stages: the joint min / max of the frames in `raw` in one launch (outside the
  /// graph, after the upload; core()'s first stage otherwise).
  void normalise(cudaStream_t s, FrameBuffers& b);
  /// The planar flow out of the device buffer.
  void download(cudaStream_t s, FrameBuffers& b, void* out);
  /// The flow out of the device buffer as interleaved (u, v) pairs in rows `pitch` bytes apart
  /// (frame::planar_to_interleaved_rows: one launch in place of download()'s copy).
  void download_interleaved(cudaStream_t s, FrameBuffers& b, float* out, std::size_t pitch);
  /// The frame's device work from `raw` to `flow`, in stream order (tvl1_multiscale.hpp step
  /// for step): what the size's CUDA Graph holds.
  void core(cudaStream_t stream, FrameBuffers& b);

 private:
  /// Where the frame kernels of a stage run: on s, launched programmatically when programmatic_,
  /// on the host in host emulation.
  frame::Exec exec_on(cudaStream_t s) const;
  void init_flow(cudaStream_t stream, FrameBuffers& b, void* u);
  void copy(cudaStream_t s, void* dst, const void* src, std::size_t bytes);
  void zero(cudaStream_t s, void* dst, std::size_t bytes);
  std::size_t pair_bytes() const { return cuda::pair_bytes(storage_); }

  Tvl1Params params_;
  Storage storage_;
  FrameOptions options_;
  std::unique_ptr<IterationSchedule> schedule_;
  StageMarks& marks_;
  frame::GaussTaps presmooth_taps_, zoom_taps_;
  std::unique_ptr<ResidentLevels> resident_;
  std::unique_ptr<TiledLevels> tiled_;
  std::unique_ptr<PersistentLevels> persistent_;
  std::unique_ptr<EpsilonStop> stop_;      ///< when params_.epsilon > 0
  std::unique_ptr<TextureStage> texture_;  ///< when params_.texture_alpha > 0
  const float* init_flow_ = nullptr;       ///< compute_from's frame is being enqueued
  /// The frame kernels are launched programmatically (prepare(): LaunchOrder::programmatic and
  /// FrameOptions::programmatic_frame_kernels).
  bool programmatic_ = false;
};

}  // namespace flowtune::cuda
