// The whole TV-L1 frame on the GPU (IPOL 2013 multiscale driver, Sanchez Perez et al.;
// kernels/tvl1_multiscale.hpp mirrored in float by kernels/cuda/frame) around one variant's
// schedule of the inner iterations (Romera et al. 2023, sec. 3.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "variants/config.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/variant.hpp"

namespace flowtune {

namespace cuda {

/// How the frame pipeline runs; the defaults are the production path.
struct FrameOptions {
  /// Capture the frame's device work (pyramid, every scale's warpings and iterations, the
  /// planar flow; not the input and output copies, whose ends differ between the host and the
  /// device-pointer paths) in a CUDA Graph once per frame size (after one direct warm-up
  /// frame at that size, which lets the schedule allocate its scratch) and replay it: one
  /// graph launch per frame instead of ~25 + 2 x iterations x warpings x scales kernel
  /// launches. If capture fails (a schedule that is not capturable), that size falls back to
  /// direct launches.
  bool use_cuda_graph = true;
  /// Frame sizes kept at once (>= 1): each has its device buffers, pinned host buffers and
  /// CUDA Graph, so video alternating between a few sizes neither reallocates nor re-captures.
  /// A new size beyond this evicts the least recently used one.
  int cached_sizes = 4;
  /// Run every frame stage's per-pixel code on the host, on host memory (no GPU needed): a
  /// test seam. The schedule must then work on host pointers and ignore the stream.
  bool host_emulation = false;
  /// Levels of at most this many pixels that fit one block's shared memory run all the
  /// iterations of a warping in one launch (variants/cuda/resident_levels.hpp), whatever the
  /// config's scheme: launch-free warpings for the coarse levels. 0 = never; -1 (default) =
  /// the config's tunable resident_px (cuda_variant.hpp; 0 when the config has none).
  int resident_max_pixels = -1;
  /// Levels of at most this many pixels that are not resident run the config's tiled_depth
  /// iterations per launch (variants/cuda/tiled_levels.hpp). 0 = never; -1 (default) = the config's
  /// tunable tiled_px (0 when the config has none).
  int tiled_max_pixels = -1;
  /// On the tiled levels, the median filter after each warping (median_window 3 or 5) runs in
  /// the warping's last tiled launch (TiledLevels::fuses_median: the config's tiled_depth
  /// exceeds median_window / 2) instead of as a launch of its own, when no stopping test runs
  /// (epsilon 0). The flow is the separate median's bit for bit
  /// (tests/cuda/test_frame_pipeline.cpp). Off by default: on an H100 it made the tuned frame at
  /// OpenCV's accuracy 1.21x slower (docs/decisions.md, "Tiled levels' kernel shape").
  bool tiled_median = false;
  /// Levels of at most this many pixels that are not resident run all the iterations of a
  /// warping (and its stopping test, if any) in one cooperative launch with grid-wide
  /// synchronisation (variants/cuda/persistent_levels.hpp), before the tiled levels are
  /// considered. 0 = never; -1 (default) = the config's tunable persistent_px (0 when the
  /// config has none). A device without cooperative launch runs them tiled or on the scheme.
  int persistent_max_pixels = -1;
  /// Grid synchronisations per iteration of the persistent levels: 1 (ping-pong, the right /
  /// lower neighbour's u recomputed) or 2 (in place, `global`'s order).
  int persistent_syncs = 1;
  /// Blocks per SM of the persistent levels' grid; 0 (default) = as many as are resident.
  int persistent_blocks_per_sm = 0;
  /// Threads per block of the persistent levels (128, 256, 512 or 1024).
  int persistent_threads = 256;
  /// Fuse the small per-level stages: the joint min / max in one launch instead of
  /// two (frame_kernels.hpp's minmax_pair_one_launch; it runs right after the upload, before
  /// the size's graph, and in the device-pointer path copies the caller's frames into the
  /// solver's buffer itself, replacing two device-to-device copies), the presmoothing
  /// Gaussian in one launch instead of two (gaussian_pair_one_launch), each pyramid level's
  /// Gaussian and sampling in one instead of three (zoom_out_pair_one_launch; if its tiles do
  /// not fit in shared memory, two), and at each level's first warping the gradient of I1, the
  /// zeroing of u (coarsest) and p, and the zoom_in of the coarser flow in the warping's launch
  /// (warp_level; the gradient is computed from I1 at each read, also at the later warpings):
  /// 4 x levels - 1 fewer kernels and 2 x levels + 1 fewer memsets per frame (35 -> 24 kernels
  /// for the default frame). The flow is bit for bit the unfused one's
  /// (tests/cuda/test_frame_fusion.cpp); false keeps one launch per stage (the reference of
  /// that test, and of the stage table's separate gradient / zoom_in rows). On by default:
  /// docs/decisions.md, "Fused frame stages".
  bool fused_stages = true;
  /// Tiles and threads of the fused pyramid level (zoom_out_pair_one_launch, fused_stages
  /// only): a schedule, the output is the same for every value (frame::ZoomSchedule; checked
  /// by frame::check_zoom_schedule when the solver is made).
  frame::ZoomSchedule pyramid_schedule = frame::kZoomScheduleDefault;
  /// Host API (compute / compute_into): the frames are copied into the pinned buffer and
  /// uploaded in this many chunks, each chunk's upload enqueued as soon as it is in pinned
  /// memory, and the flow is downloaded in as many chunks, each copied out as soon as it
  /// arrived (HostCopier::copy_chunked), so the host copies overlap the bus. 1 = one copy,
  /// one upload, one download (profile_frame's stage table always times that path). 0 = no
  /// staging: the frames are uploaded from the caller's memory and the flow downloaded into
  /// the caller's FlowField by cudaMemcpyAsync (the driver stages pageable memory itself).
  /// Whatever the value, frames and flow that are all page-locked (FlowSolver::page_lock,
  /// cudaHostRegister, cudaHostAlloc) take that way: they move by DMA, with no host copy.
  /// Default 8: docs/decisions.md, "Host staging of the frame API".
  int host_copy_chunks = 8;
  /// Threads of the host memcpy into the pinned upload buffer and out of the pinned download
  /// buffer (variants/cuda/host_copy.hpp); -1 (default) = min(4, hardware threads / 2), at
  /// least 1 (docs/decisions.md, "Host staging of the frame API").
  int host_copy_threads = -1;
  /// Chambolle iterations of the structure-texture decomposition (texture_alpha > 0) per
  /// launch: 1 = two launches per iteration (v, then p, in global memory); k in [2, 31] =
  /// temporally blocked, k iterations of a 64 x 64 region in shared memory per launch
  /// (kernels/cuda/frame/texture_kernels.hpp), ceil(rof_iterations / k) launches, the same
  /// texture bit for bit (tests/cuda/test_texture_blocked.cpp). A schedule, not math. 1 by
  /// default: on the H200 the blocked stage is instruction-bound (two exact divisions and a
  /// square root per cell and iteration, the halo recomputed) and slower than two graph nodes
  /// per iteration at every k (k = 8: 0.76 against 0.61 ms for 100 iterations on RubberWhale;
  /// docs/decisions.md, "ROF iterations per launch").
  int rof_iterations_per_launch = 1;
  /// Launch the TV-L1 iteration kernels (the schedule's, the tiled and the resident levels')
  /// with programmatic dependent launch where the device has it (compute capability 9.0 and
  /// newer, cuda::programmatic_launch_supported; launch_order.hpp): each launch's blocks are
  /// scheduled while the previous kernel finishes and wait for it in the kernel, so the flow
  /// is the same bit for bit and the gap between two launches (also between two nodes of the
  /// size's CUDA Graph) shrinks. false: stream order (the reference of
  /// tests/cuda/test_programmatic_launch.cpp). Elsewhere it has no effect.
  bool programmatic_launch = true;
  /// With programmatic_launch, also launch the frame stages' kernels (pyramid, warping,
  /// filters, texture: kernels/cuda/frame/, frame::Exec::programmatic) that way; they wait for
  /// the kernel before them and let the next start only when they end. Off by default: on the
  /// H100 it was slower at OpenCV's accuracy (docs/frames.md, "Programmatic launch").
  bool programmatic_frame_kernels = false;
};

/// One stage of a profiled frame: its name, the pyramid level it worked on (0 = finest, -1
/// for stages outside the pyramid loop) and its median device time.
struct StageTime {
  std::string stage;  ///< upload, normalise, structure_texture, presmooth, pyramid, gradient,
                      ///< warping, iterations (or iterations_resident, iterations_tiled,
                      ///< iterations_persistent), median, zoom_in,
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

/// What the per-size cache of a CUDA frame solver did so far (frame_cache_stats).
struct FrameCacheStats {
  long buffer_allocations = 0;  ///< sizes whose buffers were allocated (cache misses)
  long graph_builds = 0;        ///< CUDA Graphs captured and instantiated
  long evictions = 0;           ///< sizes dropped to make room (FrameOptions::cached_sizes)
  int cached_sizes = 0;         ///< sizes held now
};

}  // namespace cuda

/// The whole TV-L1 frame on the GPU around an iteration schedule; compute() = one host call.
///
/// compute(i0, i1) (or compute_into, which reuses the caller's FlowField and writes no new
/// allocation once it has the frame's size) copies the two frames through pinned buffers to
/// the device, then on the device: joint
/// normalisation to [0, 255], Gaussian presmoothing (config.params.presmoothing_sigma), the
/// pyramid (n_scales levels by zoom_out: Gaussian pre-filter of sigma 0.6 sqrt(1/zoom^2 - 1)
/// then bicubic sampling; stops before a side < 4 px), and from the coarsest scale to the
/// finest: centred gradient of I1, p = 0, n_warpings x {bicubic warping of I1 and its
/// gradient at x + u0 (clamp-to-edge) giving grad and rho_c in the schedule's storage;
/// schedule.run(fields, config.params.iterations)}, then the flow zoom_in-ed to the next scale
/// times 1/zoom; finally the flow is copied back. Only the two frames and the flow cross the
/// bus; every buffer is allocated once per frame size and kept, with the size's CUDA Graph,
/// in a cache of FrameOptions::cached_sizes sizes. cuda::compute_flow_device runs the same
/// frame on frames already on the device. A solver is not thread-safe (one per host thread).
///
/// With epsilon > 0 each warping stops as the CPU reference's (IPOL's test, checked every
/// epsilon_check_every iterations): the statistic is reduced on the device and read back
/// (cuda/epsilon_stop.hpp), so such a frame runs with direct launches, not a CUDA Graph.
/// With texture_alpha > 0 both frames are replaced by their texture part after the joint
/// normalisation and normalised again (Wedel et al. 2009, sec. 2.3; cuda/texture_stage.hpp).
/// With median_window > 0 the flow is median-filtered after each warping (Wedel et al. 2009,
/// sec. 3; kernels/cuda/frame/flow_filters.hpp), as tvl1_multiscale does; with
/// nl_median_window > 0 then by the weighted non-local median guided by the level's I0 (Sun,
/// Roth, Black 2010, sec. 4; the same file). With
/// warping_interp = bilinear the warping samples bilinearly (kernels/bilinear.hpp, the CPU's
/// code). compute_from(i0, i1, init_flow) starts the coarsest level from init_flow's pyramid
/// (zoom_out of the flow, scaled by zoom per level, as tvl1_multiscale) instead of 0; such a
/// frame runs with direct launches; an initial flow of another size throws
/// std::invalid_argument.
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

/// The device-pointer path of a solver made by make_cuda_frame_solver: the TV-L1 flow of two
/// frames already in device memory, enqueued on the caller's `stream`, written into the
/// caller's device buffer; nothing crosses the bus and the host never waits (asynchronous:
/// the flow is ready when `stream` reaches this point; the frames must stay valid until then).
///
/// i0, i1: device pointers to width x height floats each, row-major, no pitch, any range
/// (normalised jointly to [0, 255] as compute() does). flow: device pointer to 2 x width x
/// height floats, planar: u (right, pixels) for every pixel row-major, then v (down, pixels).
/// stream: any stream of the current device (nullptr = the legacy default stream). The frame
/// is the one compute() computes, bit for bit: the same kernels and the same size's CUDA Graph
/// (the frames are copied into the solver's buffers, by the min / max launch when
/// FrameOptions::fused_stages, else device-to-device; the flow is copied out of them).
/// Frames of one solver are ordered one after another across streams (an event recorded
/// after each frame), so the host API and this one can be mixed on one solver. The first
/// frame at a size allocates (cudaMalloc synchronises the device) and runs direct launches;
/// from the second on, one graph launch.
///
/// Throws std::invalid_argument for a solver that is not a CUDA frame solver, null
/// pointers or a size < 1, std::runtime_error for a solver in host emulation or on a CUDA
/// error (message names the call).
void compute_flow_device(FlowSolver& solver, const float* i0, const float* i1, int width,
                         int height, float* flow, cudaStream_t stream);

/// compute_flow_device for frames and flow in pitched rows (cudaMallocPitch, OpenCV's
/// cv::cuda::GpuMat): i0 / i1 row y at i0 + y * pitch0 bytes (floats, pitch >= 4 width);
/// flow as interleaved (u, v) float pairs, row y at flow + y * flow_pitch bytes (flow_pitch >=
/// 8 width; OpenCV's CV_32FC2). Pitches are multiples of 4 bytes. The same frame as
/// compute_flow_device, bit for bit: packed frames go the same way; pitched ones are copied
/// into the solver's buffer by one 2-D copy each instead of the device-to-device copies; the
/// flow leaves by one interleaving launch instead of a copy, so the pitches cost no extra copy.
/// Throws as compute_flow_device does, and std::invalid_argument for a pitch that is too small
/// or not a multiple of 4.
void compute_flow_device_pitched(FlowSolver& solver, const float* i0, std::size_t pitch0,
                                 const float* i1, std::size_t pitch1, int width, int height,
                                 float* flow, std::size_t flow_pitch, cudaStream_t stream);

/// The 8-bit host API of a solver made by make_cuda_frame_solver: the flow of two 8-bit grey
/// frames (cameras, PNGs) written into `flow` as compute_into does (its vectors keep their
/// storage once they have the size). The bytes are copied into the size's pinned buffer
/// (chunked and overlapping the bus as FrameOptions::host_copy_chunks says), uploaded as
/// bytes (a quarter of the float frames' bus time and host copy) and widened to float on the
/// device (frame::bytes_to_float_pair, exact) before the joint normalisation; from there the
/// frame is compute_into's (the same stages and the same size's CUDA Graph), so the flow equals
/// compute_into's on float Images holding the same integer values, bit for bit
/// (tests/cuda/test_frame_u8.cpp). Page-locked frames (their rows' whole span) and flow are
/// uploaded and downloaded directly, as compute_into's (FrameOptions::host_copy_chunks).
///
/// i0, i1: host pointers to width x height bytes each, row-major, row r starting at
/// i + r * stride (stride in bytes, >= width; = width for packed frames); intensities 0..255
/// (normalised jointly to [0, 255] as compute() does). Works in host emulation too.
///
/// Throws std::invalid_argument for a solver that is not a CUDA frame solver, null pointers,
/// a size < 1 or stride < width, std::runtime_error on a CUDA error (message names the call).
void compute_flow_u8(FlowSolver& solver, const std::uint8_t* i0, const std::uint8_t* i1, int width,
                     int height, std::ptrdiff_t stride, FlowField& flow);

/// The host API on float frames in strided rows (row r of frame k at ik + r * stride bytes;
/// stride >= 4 width, a multiple of 4; OpenCV's CV_32FC1 cv::Mat, an ROI too): the rows are
/// copied into the size's pinned upload buffer (where compute_into copies Images) and the
/// frame is compute_into's, bit for bit, on frames of the same values. Synchronous; `flow`
/// keeps its storage once it has the size. Throws std::invalid_argument for null frames, a
/// size < 1 or a bad stride, std::invalid_argument for a solver that is not a CUDA frame
/// solver, std::runtime_error on a CUDA error.
void compute_flow_f32(FlowSolver& solver, const float* i0, const float* i1, int width, int height,
                      std::ptrdiff_t stride, FlowField& flow);

/// The solver's per-size cache counters. Throws std::invalid_argument if `solver` is not a
/// CUDA frame solver.
FrameCacheStats frame_cache_stats(const FlowSolver& solver);

}  // namespace flowtune::cuda
