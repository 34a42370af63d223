// The whole TV-L1 frame on the GPU (IPOL 2013 multiscale driver, Sanchez Perez et al.;
// kernels/tvl1_multiscale.hpp mirrored in float by kernels/cuda/frame) around one variant's
// schedule of the inner iterations (Romera et al. 2023, sec. 3.3).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/variant.hpp"

namespace flowtune {

namespace cuda {

/// How the frame pipeline runs; the defaults are the production path.
struct FrameOptions {
  /// Capture the whole frame (input copy, pyramid, every scale's warpings and iterations,
  /// output copy) in a CUDA Graph once per frame size (after one direct warm-up frame, which
  /// lets the schedule allocate its scratch) and replay it: one graph launch per frame
  /// instead of ~25 + 2 x iterations x warpings x scales kernel launches. If capture fails
  /// (a schedule that is not capturable), the solver falls back to direct launches.
  bool use_cuda_graph = true;
  /// Run every frame stage's per-pixel code on the host, on host memory (no GPU needed): a
  /// test seam. The schedule must then work on host pointers and ignore the stream.
  bool host_emulation = false;
  /// Levels of at most this many pixels that fit one block's shared memory run all the
  /// iterations of a warping in one launch (variants/cuda/resident_levels.hpp), whatever the
  /// config's scheme: launch-free warpings for the coarse levels. 0 = never; -1 (default) =
  /// the config's tunable resident_px (cuda_variant.hpp; 0 when the config has none).
  int resident_max_pixels = -1;
  /// Levels of at most this many pixels that are not resident run FT_TILED_DEPTH iterations
  /// per launch (variants/cuda/tiled_levels.hpp). 0 = never; -1 (default) = the config's
  /// tunable tiled_px (0 when the config has none).
  int tiled_max_pixels = -1;
  /// Threads of the host memcpy into the pinned upload buffer and out of the pinned download
  /// buffer (variants/cuda/host_copy.hpp); -1 (default) = min(4, hardware threads / 2), at
  /// least 1.
  int host_copy_threads = -1;
};

/// One stage of a profiled frame: its name, the pyramid level it worked on (0 = finest, -1
/// for stages outside the pyramid loop) and its median device time.
struct StageTime {
  std::string stage;  ///< upload, normalise, structure_texture, presmooth, pyramid, gradient,
                      ///< warping, iterations (or iterations_resident), median, zoom_in,
                      ///< to_planar, download
  int level = -1;
  double ms = 0;  ///< median over the profiled frames, CUDA events (ms)
};

/// Where one frame's time goes (the per-stage timeline).
///
/// stages: the device stages in stream order, each timed by a CUDA event pair around it in a
/// frame launched directly (no graph), so a stage made of many tiny launches shows its
/// launch gaps. graph_device_ms: events around the replay of the whole frame's CUDA Graph
/// (upload to download, what the device spends). host_in_ms / host_out_ms: the host memcpy of
/// the frames into the pinned upload buffer and of the flow out of the pinned download buffer
/// into the returned FlowField (wall clock). call_ms: wall clock of compute() as the tuner
/// times it. All medians over `repeats` frames, in milliseconds.
struct FrameTimeline {
  std::vector<StageTime> stages;
  double direct_device_ms = 0;  ///< sum of stages
  double graph_device_ms = 0;
  double host_in_ms = 0, host_out_ms = 0;
  double call_ms = 0;
};

}  // namespace cuda

/// The whole TV-L1 frame on the GPU around an iteration schedule; compute() = one host call.
///
/// compute(i0, i1) copies the two frames to the device, then on the device: joint
/// normalisation to [0, 255], Gaussian presmoothing (config.params.presmoothing_sigma), the
/// pyramid (n_scales levels by zoom_out: Gaussian pre-filter of sigma 0.6 sqrt(1/zoom^2 - 1)
/// then bicubic sampling; stops before a side < 4 px), and from the coarsest scale to the
/// finest: centred gradient of I1, p = 0, n_warpings x {bicubic warping of I1 and its
/// gradient at x + u0 (clamp-to-edge) giving grad and rho_c in the schedule's storage;
/// schedule.run(fields, config.params.iterations)}, then the flow zoom_in-ed to the next scale
/// times 1/zoom; finally the flow is copied back. Only the two frames and the flow cross the
/// bus; every buffer is allocated once per frame size and reused.
///
/// With epsilon > 0 each warping stops as the CPU reference's (IPOL's test, checked every
/// epsilon_check_every iterations): the statistic is reduced on the device and read back
/// (cuda/epsilon_stop.hpp), so such a frame runs with direct launches, not a CUDA Graph.
/// With texture_alpha > 0 both frames are replaced by their texture part after the joint
/// normalisation and normalised again (Wedel et al. 2009, sec. 2.3; cuda/texture_stage.hpp).
/// With median_window > 0 the flow is median-filtered after each warping (Wedel et al. 2009,
/// sec. 3; kernels/cuda/frame/flow_filters.hpp), as tvl1_multiscale does.
///
/// Precision: the images, pyramid and gradients are float; grad, rho_c, u, p are stored as
/// the schedule's storage (storage_of(config.precision): float2/float or half2/half),
/// converted on the device. Frames: equal sizes, any range (normalised jointly), else
/// compute() throws std::invalid_argument naming cuda_frame_solver. Throws
/// std::invalid_argument for a null schedule or invalid params (tvl1_multiscale's rules, or a
/// Gaussian wider than 32 taps), std::runtime_error when there is no CUDA device (unless
/// options.host_emulation) or a CUDA call fails (message names the call and the error).
std::unique_ptr<FlowSolver> make_cuda_frame_solver(
    const Config& config, std::unique_ptr<cuda::IterationSchedule> schedule,
    const cuda::FrameOptions& options = {});

}  // namespace flowtune

namespace flowtune::cuda {

/// Profiles `repeats` frames (after two warm-up frames) of a solver made by
/// make_cuda_frame_solver on (i0, i1): see FrameTimeline. Throws std::invalid_argument if
/// `solver` is not a CUDA frame solver or repeats < 1, std::runtime_error on CUDA errors
/// (or for a solver in host emulation, which has no device to time).
FrameTimeline profile_frame(FlowSolver& solver, const Image& i0, const Image& i1, int repeats = 20);

}  // namespace flowtune::cuda
